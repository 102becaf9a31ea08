package io.sdmfabric.model;

/** Why a process stopped; the reasons of GDB/MI's {@code *stopped} record. */
public enum StopReason {
  BREAKPOINT_HIT,
  WATCHPOINT_TRIGGER,
  READ_WATCHPOINT_TRIGGER,
  ACCESS_WATCHPOINT_TRIGGER,
  WATCHPOINT_SCOPE,
  FUNCTION_FINISHED,
  LOCATION_REACHED,
  END_STEPPING_RANGE,
  SIGNAL_RECEIVED,
  /** Stopped on request (an interrupt), reported by gdb as a SIGINT without a reason. */
  INTERRUPTED,
  EXEC,
  FORK,
  VFORK,
  SYSCALL,
  SOLIB_EVENT,
  /** gdb gave no reason or one this version does not know. */
  UNKNOWN
}
