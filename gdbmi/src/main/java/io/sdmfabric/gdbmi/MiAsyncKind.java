package io.sdmfabric.gdbmi;

/**
 * Which of the three async channels a record came on, from its prefix character.
 *
 * <p>The channel tells how urgent the record is: exec records change the run state of the target,
 * status records report progress of a long operation, notify records describe other changes (new
 * threads, breakpoints, libraries) the front end should mirror.
 */
public enum MiAsyncKind {
  /** {@code *}: the target changed run state, e.g. {@code *running}, {@code *stopped}. */
  EXEC('*'),
  /** {@code +}: progress of a slow operation, e.g. {@code +download}. */
  STATUS('+'),
  /** {@code =}: supplementary information, e.g. {@code =thread-created}. */
  NOTIFY('=');

  private final char prefix;

  MiAsyncKind(char prefix) {
    this.prefix = prefix;
  }

  /** The character gdb puts before the async class. */
  public char prefix() {
    return prefix;
  }
}
