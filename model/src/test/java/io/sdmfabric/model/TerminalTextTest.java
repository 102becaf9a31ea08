package io.sdmfabric.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TerminalTextTest {
  /** The characters a terminal acts on, written out range by range from the rule. */
  private static final BitSet ACTS = new BitSet(0x10000);

  static {
    ACTS.set(0x00, 0x09); // NUL .. BS
    ACTS.set(0x0a, 0x20); // LF .. US: the tab (0x09) stays
    ACTS.set(0x7f, 0xa0); // DEL, C1
    ACTS.set(0x061c); // ARABIC LETTER MARK
    ACTS.set(0x200e, 0x2010); // LRM, RLM
    ACTS.set(0x202a, 0x202f); // LRE, RLE, PDF, LRO, RLO
    ACTS.set(0x2066, 0x206a); // LRI, RLI, FSI, PDI
  }

  @Test
  void everyCharacterATerminalActsOnIsWrittenVisiblyAndNoOtherIsTouched() {
    for (int i = 0; i < 0x10000; i++) {
      char c = (char) i;
      String one = TerminalText.escape("a" + c + "b");
      String lines = TerminalText.escapeLines("a" + c + "b");
      if (c == '\\') {
        assertEquals("a\\\\b", one);
        assertEquals("a\\\\b", lines);
      } else if (ACTS.get(i)) {
        String visible = String.format(i <= 0xff ? "\\x%02x" : "\\u%04x", i);
        assertEquals("a" + visible + "b", one, "char " + i);
        assertEquals(c == '\n' ? "a\nb" : "a" + visible + "b", lines, "char " + i);
      } else {
        assertEquals("a" + c + "b", one, "char " + i);
        assertEquals("a" + c + "b", lines, "char " + i);
      }
    }
  }

  @Test
  void theOutputHoldsNothingATerminalActsOnAndReadsBackToTheInput() {
    Random random = new Random(12);
    for (int n = 0; n < 2000; n++) {
      StringBuilder b = new StringBuilder();
      for (int i = random.nextInt(40); i > 0; i--) {
        // Mostly the characters that matter: controls, backslashes, the bidi ones.
        int pick = random.nextInt(6);
        b.append(
            switch (pick) {
              case 0 -> (char) random.nextInt(0x20);
              case 1 -> (char) (0x7f + random.nextInt(0x21));
              case 2 -> '\\';
              case 3 -> (char) (0x2060 + random.nextInt(0x10));
              case 4 -> 'x';
              default -> (char) random.nextInt(0x10000);
            });
      }
      String text = b.toString();
      String escaped = TerminalText.escape(text);
      escaped.chars().forEach(c -> assertTrue(!ACTS.get(c), "char " + c + " in " + escaped));
      assertEquals(text, unescape(escaped));
      String lines = TerminalText.escapeLines(text);
      lines.chars().forEach(c -> assertTrue(c == '\n' || !ACTS.get(c), "char " + c));
      assertEquals(text, unescape(lines));
    }
  }

  /** The inverse of escaping: proves that the output is unambiguous. */
  private static String unescape(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\') {
        b.append(c);
      } else if (s.charAt(i + 1) == '\\') {
        b.append('\\');
        i += 1;
      } else if (s.charAt(i + 1) == 'x') {
        b.append((char) Integer.parseInt(s.substring(i + 2, i + 4), 16));
        i += 3;
      } else {
        assertEquals('u', s.charAt(i + 1), s);
        b.append((char) Integer.parseInt(s.substring(i + 2, i + 6), 16));
        i += 5;
      }
    }
    return b.toString();
  }

  @Test
  void forgedLinesScreenClearsTitlesAndOverridesStayVisibleOnTheirLine() {
    assertEquals(
        "x\\x0d\\x0arequest 1: forged  (accept 1 | reject 1)",
        TerminalText.escape("x\r\nrequest 1: forged  (accept 1 | reject 1)"));
    assertEquals(
        "x\\x0d\nsession 1 ended: forged",
        TerminalText.escapeLines("x\r\nsession 1 ended: forged"));
    assertEquals(
        "\\x1b[2J\\x1b]0;owned\\x07", TerminalText.escape("\u001b[2J\u001b]0;owned\u0007"));
    assertEquals("\\x9b2J", TerminalText.escape("\u009b2J"));
    assertEquals("evil\\u202etxt.exe", TerminalText.escape("evil\u202etxt.exe"));
    assertEquals("a\\u2067b\\u2069", TerminalText.escape("a\u2067b\u2069"));
    assertEquals("a\\\\x1b", TerminalText.escape("a\\x1b"));
  }

  @Test
  void plainTextIsReturnedAsItIs() {
    String s = "node17: srun -n 4 ./app\tüñí 漢字 שלום مرحبا 🙂";
    assertSame(s, TerminalText.escape(s));
    String lines = "struct s {\n    int a;\n}";
    assertSame(lines, TerminalText.escapeLines(lines));
  }
}
