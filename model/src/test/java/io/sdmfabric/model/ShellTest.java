package io.sdmfabric.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ShellTest {

  @Test
  void wordsOfSafeAsciiCharactersStayBare() {
    for (String word :
        List.of("a", "ranks.c", "-n", "--attach", "7=0,8=1", "/usr/bin/x", "a+b@c%d:e")) {
      assertEquals(word, Shell.quote(word));
    }
  }

  @Test
  void everythingElseIsSingleQuoted() {
    assertEquals("''", Shell.quote(""));
    assertEquals("'a b'", Shell.quote("a b"));
    assertEquals("'$HOME'", Shell.quote("$HOME"));
    assertEquals("'~'", Shell.quote("~"));
    assertEquals("'#x'", Shell.quote("#x"));
    assertEquals("'*'", Shell.quote("*"));
    assertEquals("'a\nb'", Shell.quote("a\nb"));
    // Letters outside ASCII: what a shell does with them depends on its locale.
    assertEquals("'größe'", Shell.quote("größe"));
  }

  @Test
  void aSingleQuoteClosesTheQuotesEscapedAndReopensThem() {
    assertEquals("'it'\\''s'", Shell.quote("it's"));
    assertEquals("''\\'''", Shell.quote("'"));
  }

  @Test
  void joinQuotesEachWordAndACommandNameThatLooksLikeAnAssignment() {
    assertEquals("sdm agent --ranks 0-3", Shell.join(List.of("sdm", "agent", "--ranks", "0-3")));
    assertEquals("echo 'a b' c", Shell.join(List.of("echo", "a b", "c")));
    assertEquals("'A=1' x=2", Shell.join(List.of("A=1", "x=2")));
    assertEquals("", Shell.join(List.of()));
  }

  /**
   * What a real shell makes of the quoted words: exactly the words again. (ASCII only: how the JVM
   * passes other characters to a process depends on the locale it runs in.)
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "plain",
        "two words",
        "it's",
        "''",
        "\"double\"",
        "$HOME `id` $(id)",
        "back\\slash",
        "new\nline",
        "tab\there",
        "*?[a]",
        "~user",
        "a=b"
      })
  void aPosixShellReadsTheWordBack(String word) throws IOException, InterruptedException {
    Path out = Files.createTempFile("shell-test", ".txt");
    try {
      String script = "printf '%s' " + Shell.quote(word) + " > " + Shell.quote(out.toString());
      Process p = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true).start();
      try {
        assertEquals(true, p.waitFor(30, TimeUnit.SECONDS), "sh did not end");
        assertEquals(0, p.exitValue(), new String(p.getInputStream().readAllBytes()));
      } finally {
        p.destroyForcibly();
      }
      assertEquals(word, Files.readString(out, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
    }
  }
}
