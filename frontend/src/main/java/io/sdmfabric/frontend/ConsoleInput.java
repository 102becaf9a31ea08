package io.sdmfabric.frontend;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Feeds a console its lines, as {@code sdm debug} and {@code sdm attach} take them: a script
 * ({@code -x}) first, then the terminal, or standard input line by line as it comes (a tool may
 * drive the session through a pipe), until {@code quit} or the end of the input.
 */
public final class ConsoleInput {
  private ConsoleInput() {}

  /** Runs the lines; returns when one quits or the input ends. */
  public static void run(
      Console console, Optional<Path> script, Optional<InteractiveConsole> terminal)
      throws IOException {
    run(() -> prompt(console), console::execute, script, terminal);
  }

  /** The console's prompt, which names the ranks in focus. */
  public static String prompt(Console console) {
    return "sdm [" + console.focus() + "]> ";
  }

  /**
   * Runs the lines with {@code execute} (false: stop), prompting with {@code prompt} on a terminal;
   * returns when {@code execute} says so or the input ends.
   */
  public static void run(
      Supplier<String> prompt,
      Predicate<String> execute,
      Optional<Path> script,
      Optional<InteractiveConsole> terminal)
      throws IOException {
    if (script.isPresent()) {
      for (String line : Files.readAllLines(script.get())) {
        if (!execute.test(line)) {
          return;
        }
      }
    }
    if (terminal.isPresent()) {
      terminal.get().run(prompt, execute);
      return;
    }
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (!execute.test(line)) {
        return;
      }
    }
  }
}
