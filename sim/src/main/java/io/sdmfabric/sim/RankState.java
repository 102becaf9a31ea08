package io.sdmfabric.sim;

/**
 * Where a simulated rank's process and debugger are: what {@link SimulatedDebugger} answers depends
 * on it. A live process is {@link #STOPPED}, {@link #SIGNALLED}, {@link #IN_RECV}, {@link #RUNNING}
 * or {@link #HUNG}.
 */
enum RankState {
  /** Nothing loaded. */
  NEW,
  /** The program is loaded; no process. */
  LOADED,
  /** Stopped at a breakpoint or at the end of a step. */
  STOPPED,
  /** Stopped by its crash signal: resuming ends it by the signal. */
  SIGNALLED,
  /** A hung rank, interrupted: stopped in the receive call, and resuming hangs again. */
  IN_RECV,
  /** Running; its events are on their way. */
  RUNNING,
  /** Running and never stops by itself. */
  HUNG,
  /** The debugger was closed (or ended). */
  CLOSED,
  /** The process was detached from. */
  DETACHED;

  /** Whether there is a process. */
  boolean live() {
    return this == STOPPED
        || this == SIGNALLED
        || this == IN_RECV
        || this == RUNNING
        || this == HUNG;
  }

  /** Whether there is a process and it runs. */
  boolean running() {
    return this == RUNNING || this == HUNG;
  }

  /** Whether there is a process and it is stopped, so that it has a stack. */
  boolean stopped() {
    return this == STOPPED || this == SIGNALLED || this == IN_RECV;
  }
}
