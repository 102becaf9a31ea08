package io.sdmfabric.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.wire.HostPort;
import io.sdmfabric.wire.SessionSecret;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sdm listen's own lines, when what they show was chosen by someone else. */
class ListenConsoleTest {
  private static final String FORGED =
      "\r\nrequest 00000000: you  (accept 00000000 | reject 00000000)";
  private static final String NASTY = "\u001b[2J\u001b]0;owned\u0007" + FORGED + "\u202e\u009b1m";

  @TempDir Path tmp;

  @Test
  void escapeSequencesInARequestsFieldsStayVisibleOnTheirOwnLine() throws Exception {
    ConnectDirectory dir = ConnectDirectory.open(tmp.resolve(".sdm"));
    dir.submit(
        new ConnectRequest(
            "1234abcd",
            "user" + NASTY,
            "node" + NASTY,
            List.of("10.0.0.1" + NASTY),
            ProcessHandle.current().pid(),
            Instant.now(),
            "/home" + NASTY,
            List.of("srun", "./app" + NASTY),
            "42" + NASTY,
            SessionSecret.random()));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (FrontEndListener listener = new FrontEndListener(new HostPort("127.0.0.1", 0), w -> {});
        ListenConsole console =
            new ListenConsole(
                dir, listener, new PrintStream(bytes, true, StandardCharsets.UTF_8), q -> false)) {
      console.execute("requests");
    }
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(out.contains("request 1234abcd: "), out);
    assertTrue(out.contains("\\x1b[2J"), out);
    for (char c : out.toCharArray()) {
      boolean control = (c < 0x20 && c != '\n') || (c >= 0x7f && c <= 0x9f);
      assertFalse(control || (c >= 0x202a && c <= 0x202e), "char " + (int) c + " in " + out);
    }
    assertEquals(
        0,
        out.lines().filter(l -> l.startsWith("request 00000000")).count(),
        "a forged line: " + out);
  }
}
