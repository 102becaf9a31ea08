package io.sdmfabric.model;

/** What access to a watched expression stops the program. */
public enum WatchKind {
  /** A write that changes the value (gdb {@code watch}). */
  WRITE,
  /** A read (gdb {@code rwatch}). */
  READ,
  /** A read or a write (gdb {@code awatch}). */
  ACCESS
}
