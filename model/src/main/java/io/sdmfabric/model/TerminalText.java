package io.sdmfabric.model;

/**
 * Makes text that came from another party harmless on a terminal: every character that a terminal
 * would act on rather than show is written as a visible escape. That is the C0 controls (ESC starts
 * the sequences that clear the screen, move the cursor or set the title; CR and LF could forge a
 * line of their own), DEL, the C1 controls (U+0080 to U+009F, which some terminals take as ESC
 * sequences: U+009B is a CSI), and the bidirectional controls: the embeddings, overrides and
 * isolates (U+202A to U+202E, U+2066 to U+2069), which reorder what follows them on the line, and
 * the marks (U+200E, U+200F, U+061C), invisible characters that move the text around them. A tab
 * stays a tab. Characters up to U+00FF are written {@code \xNN}, others <code>&#92;uNNNN</code>,
 * and a backslash as two, so that an escape in the output always stands for one character of the
 * input and the output reads back to the input.
 *
 * <p>For text that sdm shows on its own lines and that someone else chose: a peer's reason for
 * refusing, a session name, a field of a request file, a host name, what gdb and the program's
 * debugging information say (messages, names of functions, files and threads, values). The debugged
 * program's own output is not passed through it: that is the user's program writing to the user's
 * terminal, and its colours are the user's.
 */
public final class TerminalText {
  private TerminalText() {}

  /**
   * {@code text} as one line: every character a terminal would act on, line feeds included, written
   * visibly.
   */
  public static String escape(String text) {
    return escape(text, false);
  }

  /**
   * {@code text} as lines: as {@link #escape}, but a line feed stays a line feed, for text that has
   * lines of its own (gdb's answer to {@code ptype} or to a command passed through, a value that
   * gdb prints over several lines). A carriage return is still escaped, so that no line can write
   * over another.
   */
  public static String escapeLines(String text) {
    return escape(text, true);
  }

  private static String escape(String text, boolean keepLineFeeds) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean plain = c != '\\' && (!actsOnTerminal(c) || (keepLineFeeds && c == '\n'));
      if (plain) {
        if (out != null) {
          out.append(c);
        }
        continue;
      }
      if (out == null) {
        out = new StringBuilder(text.length() + 16).append(text, 0, i);
      }
      if (c == '\\') {
        out.append("\\\\");
      } else if (c <= 0xff) {
        out.append(String.format("\\x%02x", (int) c));
      } else {
        out.append(String.format("\\u%04x", (int) c));
      }
    }
    return out == null ? text : out.toString();
  }

  /**
   * Whether a terminal acts on {@code c} rather than show it: the characters that {@link #escape}
   * writes visibly, for writers of other formats that must keep them off a terminal too (JSON).
   */
  public static boolean actsOnTerminal(char c) {
    return (c < 0x20 && c != '\t')
        || (c >= 0x7f && c <= 0x9f)
        || c == 0x061c
        || c == 0x200e
        || c == 0x200f
        || (c >= 0x202a && c <= 0x202e)
        || (c >= 0x2066 && c <= 0x2069);
  }
}
