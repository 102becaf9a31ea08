package io.sdmfabric.model;

/**
 * Makes text that came from another party harmless on a terminal: every character that a terminal
 * would act on rather than show is written as a visible escape. That is the C0 controls (ESC starts
 * the sequences that clear the screen, move the cursor or set the title; CR and LF could forge a
 * line of their own), DEL, the C1 controls (U+0080 to U+009F, which some terminals take as ESC
 * sequences), and the bidirectional overrides and isolates (U+202A to U+202E, U+2066 to U+2069),
 * which reorder what follows them on the line. A tab stays a tab. A backslash is doubled, so that
 * an escape in the output always means one in the input.
 *
 * <p>For one line of text that someone else chose: a peer's reason for refusing, a session name, a
 * field of a request file, a host name. The debugged program's own output is not passed through it:
 * that is the user's program, and its colours are the user's.
 */
public final class TerminalText {
  private TerminalText() {}

  /** {@code text}, with every character a terminal would act on written as {@code \xNN}. */
  public static String escape(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean plain = c != '\\' && !actsOnTerminal(c);
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

  private static boolean actsOnTerminal(char c) {
    return (c < 0x20 && c != '\t')
        || c == 0x7f
        || (c >= 0x80 && c <= 0x9f)
        || (c >= 0x202a && c <= 0x202e)
        || (c >= 0x2066 && c <= 0x2069);
  }
}
