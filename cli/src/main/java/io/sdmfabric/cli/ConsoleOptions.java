package io.sdmfabric.cli;

import io.sdmfabric.frontend.Console;
import io.sdmfabric.frontend.ConsoleInput;
import io.sdmfabric.frontend.InteractiveConsole;
import io.sdmfabric.frontend.JsonRenderer;
import io.sdmfabric.frontend.Renderer;
import io.sdmfabric.frontend.StartDisplay;
import io.sdmfabric.frontend.TextRenderer;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.Subscription;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The console options of the commands that open a session on this terminal ({@code sdm debug},
 * {@code sdm attach}): a script, batch mode, JSON output, and the event window.
 */
final class ConsoleOptions {
  @Option(names = "-x", paramLabel = "FILE", description = "run the console commands in FILE first")
  Path script;

  @Option(names = "--batch", description = "end when the script and standard input end")
  boolean batch;

  @Option(names = "--json", description = "one JSON object per line for every event")
  boolean json;

  @Option(
      names = "--event-window",
      paramLabel = "MS",
      description = "how long events of many ranks wait to merge (default: ${DEFAULT-VALUE})")
  long eventWindowMs = 100;

  /**
   * Checks that the options can be used.
   *
   * @throws UsageError for a script that cannot be read
   */
  void check() {
    if (script != null && !Files.isReadable(script)) {
      throw new UsageError("sdm", "cannot read the script " + script);
    }
  }

  /** The fabric's settings these options ask for. */
  FabricConfig config() {
    return FabricConfig.defaults().withEventWindow(Duration.ofMillis(eventWindowMs));
  }

  /** Whether the console reads a terminal: not in batch mode, and there is one. */
  boolean interactive() {
    return !batch && System.console() != null;
  }

  /** How the console shows things on {@code out}: text, or JSON with {@code --json}. */
  Renderer renderer(PrintStream out) {
    return json ? new JsonRenderer(out) : new TextRenderer(out);
  }

  /**
   * How the start of a session is shown: {@code progress} events on {@code out} with {@code
   * --json}; else a line on {@code err} when it is the process's standard error and a terminal;
   * else nothing.
   */
  StartDisplay startDisplay(PrintStream out, PrintStream err) {
    if (json) {
      return StartDisplay.asJson(new JsonRenderer(out), System::nanoTime);
    }
    return err == System.err && StartDisplay.isTerminal(2)
        ? StartDisplay.onTerminal(err)
        : StartDisplay.none();
  }

  /** What a command does around the console's input. */
  interface Around {
    /** Before the input: false when there is nothing to debug. */
    boolean begin(Console console, Renderer renderer) throws Exception;

    /** After {@code quit} or the end of the input. */
    default void end(Console console) throws Exception {}
  }

  /**
   * Runs the console over {@code session} (on the terminal, or {@code out} in batch mode) with
   * these options, then closes the session; {@code start} shows the progress of the rest of the
   * start (the program's load), and then of the ranks' runs to their stops while commands run.
   *
   * @return the exit status: 1 when {@code around} found nothing to debug, else 0
   */
  int run(SessionClient session, PrintStream out, StartDisplay start, Around around)
      throws Exception {
    boolean interactive = interactive();
    try (session;
        start;
        InteractiveConsole terminal = interactive ? new InteractiveConsole() : null) {
      Renderer renderer =
          start.around(renderer(start.around(interactive ? terminal.output() : out)));
      Console console = new Console(session, renderer);
      if (!around.begin(console, renderer)) {
        return 1;
      }
      // The ranks' runs to their stops are shown while commands run, not while the prompt shows.
      try (Subscription stops = session.progress(start)) {
        ConsoleInput.run(
            () -> {
              start.suspend();
              return ConsoleInput.prompt(console);
            },
            line -> {
              start.resume();
              return console.execute(line);
            },
            Optional.ofNullable(script),
            Optional.ofNullable(terminal));
      }
      around.end(console);
      return 0;
    }
  }
}
