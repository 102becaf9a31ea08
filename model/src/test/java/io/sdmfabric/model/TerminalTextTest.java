package io.sdmfabric.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class TerminalTextTest {
  @Test
  void everyCharacterATerminalActsOnIsWrittenVisibly() {
    for (char c = 0; c < 0x3000; c++) {
      boolean acts =
          (c < 0x20 && c != '\t')
              || c == 0x7f
              || (c >= 0x80 && c <= 0x9f)
              || (c >= 0x202a && c <= 0x202e)
              || (c >= 0x2066 && c <= 0x2069);
      String escaped = TerminalText.escape("a" + c + "b");
      if (acts) {
        assertEquals(2 + (c > 0xff ? 6 : 4), escaped.length(), "char " + (int) c);
        assertFalse(escaped.indexOf(c) >= 0, "char " + (int) c);
      } else if (c != '\\') {
        assertEquals("a" + c + "b", escaped, "char " + (int) c);
      }
    }
  }

  @Test
  void forgedLinesScreenClearsAndTitlesStayOnTheirLine() {
    assertEquals(
        "x\\x0d\\x0arequest 1: forged  (accept 1 | reject 1)",
        TerminalText.escape("x\r\nrequest 1: forged  (accept 1 | reject 1)"));
    assertEquals(
        "\\x1b[2J\\x1b]0;owned\\x07", TerminalText.escape("\u001b[2J\u001b]0;owned\u0007"));
    assertEquals("evil\\u202etxt.exe", TerminalText.escape("evil\u202etxt.exe"));
    assertEquals("a\\\\x1b", TerminalText.escape("a\\x1b"));
  }

  @Test
  void plainTextIsReturnedAsItIs() {
    String s = "node17: srun -n 4 ./app\tüñí 漢字";
    assertSame(s, TerminalText.escape(s));
  }
}
