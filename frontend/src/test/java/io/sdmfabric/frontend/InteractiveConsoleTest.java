package io.sdmfabric.frontend;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.junit.jupiter.api.Test;

/** The terminal console's prompts, when they quote text that others chose. */
class InteractiveConsoleTest {
  @Test
  void aQuestionIsShownAsItIsPercentSignsIncluded() throws Exception {
    // JLine would take %P, %{x%} and the lone % for escapes of its own and show something else.
    String question = "accept request 1 from user@node%P: srun ./app %{x%} 100% ? [y/N] ";
    ByteArrayOutputStream shown = new ByteArrayOutputStream();
    PipedOutputStream typed = new PipedOutputStream();
    Terminal terminal =
        TerminalBuilder.builder()
            .system(false)
            .type("xterm")
            .streams(new PipedInputStream(typed), shown)
            .size(new Size(200, 24))
            .build();
    // The user answers once asked, as at a terminal: an answer typed before the console reads it
    // raced the terminal's own echo (a run showed the answer's echo alone).
    Thread user =
        new Thread(
            () -> {
              try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!shown.toString(StandardCharsets.UTF_8).contains("[y/N]")
                    && System.nanoTime() < deadline) {
                  Thread.sleep(10);
                }
                typed.write("y\n".getBytes(StandardCharsets.UTF_8));
                typed.flush();
              } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    user.start();
    try (InteractiveConsole console = new InteractiveConsole(terminal)) {
      assertTrue(console.confirm(question));
    }
    user.join();
    String text = shown.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains(question), text);
    assertFalse(text.contains("%%"), text);
  }
}
