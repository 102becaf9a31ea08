package io.sdmfabric.gdbmi;

/**
 * Which of gdb's three output streams a stream record carries, from its prefix character.
 *
 * <p>Front ends show the streams differently: console text answers CLI commands, target text is the
 * inferior's own output (only when gdb owns its terminal, e.g. remote targets), log text is gdb's
 * diagnostics, including the echo of failed CLI commands.
 */
public enum MiStreamKind {
  /** {@code ~}: text for the CLI console. */
  CONSOLE('~'),
  /** {@code @}: output of the running target. */
  TARGET('@'),
  /** {@code &}: gdb's internal messages and error echoes. */
  LOG('&');

  private final char prefix;

  MiStreamKind(char prefix) {
    this.prefix = prefix;
  }

  /** The character gdb puts before the c-string. */
  public char prefix() {
    return prefix;
  }
}
