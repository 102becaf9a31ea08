package io.sdmfabric.cli;

import io.sdmfabric.frontend.ProgramLoad;
import io.sdmfabric.frontend.StartDisplay;
import io.sdmfabric.runtime.Programs;
import io.sdmfabric.runtime.SessionFactory;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.SessionClient;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
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

  @Mixin ConsoleOptions consoleOptions = new ConsoleOptions();

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
      throw new UsageError("sdm", "-n needs at least one rank, not " + ranks);
    }
    String resolved;
    try {
      resolved = Programs.resolve(program);
    } catch (IOException e) {
      throw new UsageError("sdm", e.getMessage());
    }
    consoleOptions.check();
    FabricConfig config = consoleOptions.config();
    StartDisplay start = consoleOptions.startDisplay(out, err);
    SessionClient session;
    try {
      session =
          SessionFactory.open(
              launch.request(ranks, resolved, args, config), start.around(err), start);
    } catch (IOException | IllegalArgumentException e) {
      start.close();
      throw new UsageError("sdm", e.getMessage());
    }
    return consoleOptions.run(
        session,
        out,
        start,
        (console, renderer) -> ProgramLoad.load(session, renderer, resolved, args));
  }
}
