package io.sdmfabric.gdbmi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PtyTest {

  @Test
  void whatAProgramWritesToTheSlaveIsReadFromTheMaster() throws Exception {
    ByteArrayOutputStream read = new ByteArrayOutputStream();
    CompletableFuture<String> line = new CompletableFuture<>();
    try (Pty pty =
        Pty.open(
            bytes -> {
              read.writeBytes(bytes);
              String text = read.toString(StandardCharsets.UTF_8);
              if (text.endsWith("\n")) {
                line.complete(text);
              }
            })) {
      Process p =
          new ProcessBuilder("sh", "-c", "echo 'to the terminal' > " + pty.slaveName()).start();
      assertEquals(0, p.waitFor());
      assertEquals("to the terminal\n", line.get(10, TimeUnit.SECONDS), "no \\r added");
    }
  }

  @Test
  void terminalsHungUpTogetherCloseAndRefuseInput() throws Exception {
    Pty first = Pty.open(bytes -> {});
    Pty second = Pty.open(bytes -> {});
    first.hangUp();
    second.hangUp();
    first.close();
    second.close();
    second.close();
    assertThrows(IOException.class, () -> first.write("late\n".getBytes(StandardCharsets.UTF_8)));
  }
}
