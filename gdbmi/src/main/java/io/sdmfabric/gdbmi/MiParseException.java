package io.sdmfabric.gdbmi;

import java.util.Objects;

/**
 * A line of gdb output does not follow the GDB/MI output grammar.
 *
 * <p>Checked on purpose: the reader of gdb's output must decide what a broken line means (gdb
 * crashed mid-line, the inferior wrote to gdb's terminal, a gdb version with new syntax), instead
 * of the parser guessing and passing the line on as program output.
 *
 * <p>The message says what was expected, at which character offset, and shows the line (an excerpt
 * around the offset when the line is long) with a caret under the offending character.
 */
public final class MiParseException extends Exception {

  private static final long serialVersionUID = 1L;

  /** Lines longer than this are shown as an excerpt around the offset in the message. */
  private static final int EXCERPT_RADIUS = 80;

  private final String line;
  private final int offset;

  /**
   * Creates the exception.
   *
   * @param expected what the grammar required at {@code offset}, e.g. {@code "expected '='"}
   * @param line the whole line, decoded as UTF-8, without its line terminator
   * @param offset the offset in {@code line}, in chars, of the first character that does not fit;
   *     {@code line.length()} when the line ended too early
   */
  public MiParseException(String expected, String line, int offset) {
    super(message(expected, line, offset));
    this.line = Objects.requireNonNull(line, "line");
    if (offset < 0 || offset > line.length()) {
      throw new IllegalArgumentException("offset " + offset + " outside line of " + line.length());
    }
    this.offset = offset;
  }

  /** The line that failed to parse, without its line terminator. */
  public String line() {
    return line;
  }

  /** The char offset in {@link #line()} where the line stops following the grammar. */
  public int offset() {
    return offset;
  }

  private static String message(String expected, String line, int offset) {
    // Clamp here: the constructor validates after super(), which must come first.
    int at = Math.max(0, Math.min(offset, line.length()));
    int from = Math.max(0, at - EXCERPT_RADIUS);
    int to = Math.min(line.length(), at + EXCERPT_RADIUS);
    String prefix = from > 0 ? "..." : "";
    String suffix = to < line.length() ? "..." : "";
    String excerpt = prefix + line.substring(from, to) + suffix;
    String caret = " ".repeat(prefix.length() + at - from) + "^";
    return expected + " at offset " + at + ":\n  " + excerpt + "\n  " + caret;
  }
}
