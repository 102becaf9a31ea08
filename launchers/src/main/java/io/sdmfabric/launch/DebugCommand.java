package io.sdmfabric.launch;

import io.sdmfabric.frontend.Console;
import io.sdmfabric.frontend.JsonRenderer;
import io.sdmfabric.frontend.Renderer;
import io.sdmfabric.frontend.SessionClient;
import io.sdmfabric.frontend.TextRenderer;
import io.sdmfabric.server.FabricConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sdm debug}: debugs N ranks of a program on this machine, master, servers and one gdb per
 * rank in this JVM, from the console language: interactively, from a script, or both.
 */
@Command(
    name = "debug",
    description = "Debug N ranks of PROGRAM, on this machine or through mpirun or srun.",
    mixinStandardHelpOptions = true)
final class DebugCommand implements Callable<Integer> {
  @Option(names = "-n", description = "number of ranks (default: ${DEFAULT-VALUE})")
  int ranks = 4;

  @Option(names = "-x", paramLabel = "FILE", description = "run the console commands in FILE first")
  Path script;

  @Option(names = "--batch", description = "exit when the script and standard input end")
  boolean batch;

  @Option(names = "--json", description = "one JSON object per line for every event")
  boolean json;

  @Option(
      names = "--event-window",
      paramLabel = "MS",
      description = "how long events of many ranks wait to merge (default: ${DEFAULT-VALUE})")
  long eventWindowMs = 100;

  @Mixin LaunchOptions launch = new LaunchOptions();

  @Parameters(index = "0", paramLabel = "PROGRAM", description = "the program to debug")
  String program;

  @Parameters(index = "1..*", paramLabel = "ARGS", description = "its arguments")
  List<String> args = new ArrayList<>();

  private final PrintStream out;
  private final PrintStream err;

  DebugCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() throws Exception {
    if (ranks < 1) {
      err.println("sdm: -n needs at least one rank, not " + ranks);
      return 2;
    }
    String resolved;
    try {
      resolved = Programs.resolve(program);
    } catch (IOException e) {
      err.println("sdm: " + e.getMessage());
      return 2;
    }
    if (script != null && !Files.isReadable(script)) {
      err.println("sdm: cannot read the script " + script);
      return 2;
    }
    FabricConfig config = FabricConfig.defaults().withEventWindow(Duration.ofMillis(eventWindowMs));
    SessionClient session;
    try {
      session = launch.open(ranks, resolved, args, config, err);
    } catch (IOException | IllegalArgumentException e) {
      err.println("sdm: " + e.getMessage());
      return 2;
    }
    boolean interactive = !batch && System.console() != null;
    try (session;
        InteractiveConsole terminal = interactive ? new InteractiveConsole() : null) {
      PrintStream shown = interactive ? terminal.output() : out;
      Renderer renderer = json ? new JsonRenderer(shown) : new TextRenderer(shown);
      Console console = new Console(session, renderer);
      if (!ProgramLoad.load(session, renderer, resolved, args)) {
        return 1;
      }
      ConsoleInput.run(console, Optional.ofNullable(script), Optional.ofNullable(terminal));
      return 0;
    }
  }
}
