package io.sdmfabric.gdbmi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PtyTest {
  private final PtyReader reader;

  PtyTest() throws IOException {
    reader = new PtyReader("pty-reader-test-" + System.identityHashCode(this));
  }

  @AfterEach
  void endReader() {
    reader.close();
  }

  /** Output that completes {@code line} with the text read once it ends with a newline. */
  private static Consumer<byte[]> lineInto(CompletableFuture<String> line) {
    ByteArrayOutputStream read = new ByteArrayOutputStream();
    return bytes -> {
      read.writeBytes(bytes);
      String text = read.toString(StandardCharsets.UTF_8);
      if (text.endsWith("\n")) {
        line.complete(text);
      }
    };
  }

  private static Process echo(String text, Pty pty) throws IOException {
    return new ProcessBuilder("sh", "-c", "echo '" + text + "' > " + pty.slaveName()).start();
  }

  @Test
  void whatAProgramWritesToTheSlaveIsReadFromTheMaster() throws Exception {
    CompletableFuture<String> line = new CompletableFuture<>();
    try (Pty pty = Pty.open(reader, lineInto(line))) {
      assertEquals(0, echo("to the terminal", pty).waitFor());
      assertEquals("to the terminal\n", line.get(10, TimeUnit.SECONDS), "no \\r added");
    }
  }

  @Test
  void oneThreadReadsEveryTerminalEachIntoItsOwnOutput() throws Exception {
    List<Pty> ptys = new ArrayList<>();
    List<CompletableFuture<String>> lines = new ArrayList<>();
    try {
      for (int i = 0; i < 16; i++) {
        CompletableFuture<String> line = new CompletableFuture<>();
        lines.add(line);
        ptys.add(Pty.open(reader, lineInto(line)));
      }
      for (int i = 15; i >= 0; i--) {
        assertEquals(0, echo("terminal " + i, ptys.get(i)).waitFor());
      }
      for (int i = 0; i < 16; i++) {
        assertEquals("terminal " + i + "\n", lines.get(i).get(10, TimeUnit.SECONDS));
      }
      long readers =
          Thread.getAllStackTraces().keySet().stream()
              .filter(t -> t.getName().startsWith("pty-reader-test-"))
              .filter(t -> t.getName().endsWith(Integer.toString(System.identityHashCode(this))))
              .count();
      assertEquals(1, readers, "one reading thread for 16 terminals");
    } finally {
      ptys.forEach(Pty::hangUp);
      ptys.forEach(Pty::close);
    }
  }

  @Test
  void aTerminalAProgramStillHoldsClosesAfterItsGraceAndTheOthersAreStillRead() throws Exception {
    Pty held = Pty.open(reader, bytes -> {});
    Process holder = new ProcessBuilder("sh", "-c", "exec sleep 30 < " + held.slaveName()).start();
    try {
      Thread.sleep(200); // the shell has opened the slave
      long start = System.nanoTime();
      held.close();
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(ms >= Pty.CLOSE_GRACE_MS - 50 && ms < 3_000, "closed in " + ms + " ms");

      CompletableFuture<String> line = new CompletableFuture<>();
      try (Pty other = Pty.open(reader, lineInto(line))) {
        assertEquals(0, echo("still read", other).waitFor());
        assertEquals("still read\n", line.get(10, TimeUnit.SECONDS));
      }
    } finally {
      holder.destroyForcibly().waitFor();
    }
  }

  @Test
  void aHungUpTerminalClosesAtOnce() throws Exception {
    Pty pty = Pty.open(reader, bytes -> {});
    pty.hangUp();
    long start = System.nanoTime();
    pty.close();
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertTrue(ms < Pty.CLOSE_GRACE_MS, "closed in " + ms + " ms");
  }

  @Test
  void terminalsHungUpTogetherCloseAndRefuseInput() throws Exception {
    Pty first = Pty.open(reader, bytes -> {});
    Pty second = Pty.open(reader, bytes -> {});
    first.hangUp();
    second.hangUp();
    first.close();
    second.close();
    second.close();
    assertThrows(IOException.class, () -> first.write("late\n".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void anEndedReaderRefusesNewTerminals() {
    reader.close();
    IOException e = assertThrows(IOException.class, () -> Pty.open(reader, bytes -> {}));
    assertTrue(e.getMessage().contains("has ended"), e.getMessage());
  }
}
