package io.sdmfabric.launch;

import io.sdmfabric.frontend.Console;
import java.io.IOException;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/** The console on a terminal: line editing and history (JLine), the focus in the prompt. */
final class InteractiveConsole {
  private final Console console;

  InteractiveConsole(Console console) {
    this.console = console;
  }

  void run() throws IOException {
    try (Terminal terminal = TerminalBuilder.builder().system(true).build()) {
      LineReader reader = LineReaderBuilder.builder().terminal(terminal).build();
      while (true) {
        String line;
        try {
          line = reader.readLine("sdm [" + console.focus() + "]> ");
        } catch (UserInterruptException e) {
          continue; // ^C clears the line, as in gdb; "interrupt" stops the ranks
        } catch (EndOfFileException e) {
          return;
        }
        if (!console.execute(line)) {
          return;
        }
      }
    }
  }
}
