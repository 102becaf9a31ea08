package io.sdmfabric.cli;

/**
 * Input that a command cannot use: an option out of its bounds, a program that is not there, a
 * session that cannot start as asked. A command throws it; {@link Main} prints its one line on
 * standard error, {@code COMMAND: why} (e.g. {@code sdm: -n needs at least one rank, not 0}), and
 * exits with status {@link #STATUS}.
 */
final class UsageError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The exit status of bad input. */
  static final int STATUS = 2;

  /**
   * @param command how the line begins: {@code sdm}, {@code sdm attach}, {@code sdm relay} ...
   * @param why what is wrong, as the user reads it
   */
  UsageError(String command, String why) {
    // No stack trace: the line is the whole story.
    super(command + ": " + why, null, false, false);
  }

  /** The line to print. */
  String line() {
    return getMessage();
  }
}
