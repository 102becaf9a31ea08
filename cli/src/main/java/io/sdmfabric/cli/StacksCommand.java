package io.sdmfabric.cli;

import io.sdmfabric.frontend.Durations;
import io.sdmfabric.frontend.StackSnapshot;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.runtime.Programs;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.SessionClient;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sdm stacks}: STAT's view of a hang. Runs the program on N ranks, lets it run for a while
 * or until every rank has stopped or ended, interrupts the rest, prints the merged call-prefix
 * tree, and ends every process.
 */
@Command(
    name = "stacks",
    description = "Run PROGRAM on N ranks, then print the merged stacks of all ranks.",
    mixinStandardHelpOptions = true)
final class StacksCommand implements Callable<Integer> {
  @Option(names = "-n", description = "number of ranks (default: ${DEFAULT-VALUE})")
  int ranks = 4;

  @Option(
      names = "--after",
      paramLabel = "DURATION",
      description =
          "how long the program runs before it is interrupted, e.g. 3s, 500ms"
              + " (default: ${DEFAULT-VALUE})")
  String after = "3s";

  @Option(names = "--format", description = "text, json or dot (default: ${DEFAULT-VALUE})")
  StackSnapshot.Format format = StackSnapshot.Format.text;

  @Mixin LaunchOptions launch = new LaunchOptions();

  @Parameters(index = "0", paramLabel = "PROGRAM", description = "the program")
  String program;

  @Parameters(index = "1..*", paramLabel = "ARGS", description = "its arguments")
  List<String> args = new ArrayList<>();

  private final PrintStream out;
  private final PrintStream err;

  StacksCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() throws Exception {
    Duration wait;
    try {
      wait = Durations.parse(after);
    } catch (IllegalArgumentException e) {
      err.println("sdm: " + e.getMessage());
      return 2;
    }
    String resolved;
    SessionClient session;
    try {
      resolved = Programs.resolve(program);
      session = launch.open(ranks, resolved, args, FabricConfig.defaults(), err);
    } catch (IOException | IllegalArgumentException e) {
      err.println("sdm: " + e.getMessage());
      return 2;
    }
    try (session) {
      StackSnapshot.take(session, resolved, args, wait).print(format, out);
      return 0;
    } catch (StackSnapshot.LoadFailed e) {
      // gdb's reason, as the ranks gave it.
      err.println("sdm: [" + e.ranks() + "] " + TerminalText.escape(e.getMessage()));
      return 1;
    }
  }
}
