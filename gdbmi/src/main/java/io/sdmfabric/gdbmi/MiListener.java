package io.sdmfabric.gdbmi;

/**
 * Receives what gdb and the program say without being asked. A {@link GdbDriver} calls it on one
 * thread of its own, in the order gdb wrote; an implementation must not block.
 */
public interface MiListener {

  /** An async record: {@code *stopped}, {@code =thread-group-started}, {@code +download} ... */
  default void onAsync(MiAsyncRecord record) {}

  /** A stream record not printed while a command ran (those go into its {@link MiReply}). */
  default void onStream(MiStreamRecord record) {}

  /** Bytes the program wrote to its terminal. */
  default void onProgramOutput(byte[] bytes) {}

  /** A line from gdb that is not valid MI; it is reported, never taken for program output. */
  default void onParseError(MiParseException error) {}

  /** gdb ended; every pending command has failed by now. */
  default void onGdbExit(String description) {}
}
