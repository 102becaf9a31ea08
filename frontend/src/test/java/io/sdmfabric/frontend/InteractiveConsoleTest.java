package io.sdmfabric.frontend;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
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
    Terminal terminal =
        TerminalBuilder.builder()
            .system(false)
            .type("xterm")
            .streams(new ByteArrayInputStream("y\n".getBytes(StandardCharsets.UTF_8)), shown)
            .size(new Size(200, 24))
            .build();
    try (InteractiveConsole console = new InteractiveConsole(terminal)) {
      assertTrue(console.confirm(question));
    }
    String text = shown.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains(question), text);
    assertFalse(text.contains("%%"), text);
  }
}
