package io.sdmfabric.frontend;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * The console on a terminal: line editing and history (JLine), the focus in the prompt, and events
 * that arrive while the user types printed above the prompt line instead of into it.
 */
public final class InteractiveConsole implements AutoCloseable {
  private final Terminal terminal;
  private final LineReader reader;

  public InteractiveConsole() throws IOException {
    this(TerminalBuilder.builder().system(true).build());
  }

  /** The console on {@code terminal} (tests give a dumb one over streams). */
  InteractiveConsole(Terminal terminal) {
    this.terminal = terminal;
    this.reader = LineReaderBuilder.builder().terminal(terminal).build();
  }

  /**
   * {@code prompt} as JLine shows it literally: JLine reads {@code %} in a prompt as its own
   * escapes ({@code %N} is a line number, {@code %{...%}} text counted as taking no room, {@code
   * %P} and a lone {@code %} drop text), and a prompt can quote others' text (the question before
   * accepting a request quotes the request).
   */
  static String literal(String prompt) {
    return prompt.replace("%", "%%");
  }

  /** Where the console's output goes: whole lines, above the prompt. */
  public PrintStream output() {
    return new PrintStream(new AbovePrompt(reader), true, StandardCharsets.UTF_8);
  }

  /**
   * Reads lines with {@code prompt} and runs them with {@code execute} until it answers false or
   * the input ends.
   */
  void run(Supplier<String> prompt, Predicate<String> execute) {
    while (true) {
      String line;
      try {
        line = reader.readLine(literal(prompt.get()));
      } catch (UserInterruptException e) {
        continue; // ^C clears the line, as in gdb; "interrupt" stops the ranks
      } catch (EndOfFileException e) {
        return;
      }
      if (!execute.test(line)) {
        return;
      }
    }
  }

  /** Asks {@code question}; true for an answer that starts with y. */
  public boolean confirm(String question) {
    try {
      return reader
          .readLine(literal(question))
          .strip()
          .toLowerCase(java.util.Locale.ROOT)
          .startsWith("y");
    } catch (UserInterruptException | EndOfFileException e) {
      return false;
    }
  }

  @Override
  public void close() throws IOException {
    terminal.close();
  }

  /** Collects bytes into lines and prints each above the prompt. */
  private static final class AbovePrompt extends OutputStream {
    private final LineReader reader;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    AbovePrompt(LineReader reader) {
      this.reader = reader;
    }

    @Override
    public synchronized void write(int b) {
      if (b == '\n') {
        reader.printAbove(line.toString(StandardCharsets.UTF_8));
        line.reset();
      } else {
        line.write(b);
      }
    }
  }
}
