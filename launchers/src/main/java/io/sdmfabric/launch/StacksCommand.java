package io.sdmfabric.launch;

import io.sdmfabric.frontend.Durations;
import io.sdmfabric.frontend.JsonRenderer;
import io.sdmfabric.frontend.ProcessTable;
import io.sdmfabric.frontend.RankReply;
import io.sdmfabric.frontend.SessionClient;
import io.sdmfabric.frontend.TextRenderer;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.StackTree;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.Empty;
import io.sdmfabric.wire.proto.StartSessionCmd;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
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
  /** The output formats. */
  enum Format {
    text,
    json,
    dot
  }

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
  Format format = Format.text;

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
      ProcessTable table = new ProcessTable(ranks);
      session.onEvent(table::apply);
      RankSet all = RankSet.all(ranks);
      LaunchSpec spec = new LaunchSpec(resolved, args, Map.of(), Path.of("").toAbsolutePath());
      List<RankReply> loaded =
          call(
              session,
              CommandBody.newBuilder()
                  .setStartSession(StartSessionCmd.newBuilder().setLaunch(Protos.toProto(spec)))
                  .build(),
              all);
      for (RankReply r : loaded) {
        if (r.body().hasError()) {
          err.println("sdm: [" + r.ranks() + "] " + r.body().getError().getMessage());
          return 1;
        }
      }
      table.markRunning(all);
      call(session, CommandBody.newBuilder().setRun(Empty.getDefaultInstance()).build(), all);
      RankSet running = table.awaitNotRunning(all, wait.toMillis());
      if (!running.isEmpty()) {
        call(
            session,
            CommandBody.newBuilder().setSuspend(Empty.getDefaultInstance()).build(),
            running);
        running = table.awaitNotRunning(running, 10_000);
      }
      RankSet stopped = table.ranksIn(ProcessTable.State.STOPPED, all);
      StackTree.Builder tree = StackTree.builder();
      if (!stopped.isEmpty()) {
        for (RankReply r :
            call(
                session,
                CommandBody.newBuilder().setListFrames(Empty.getDefaultInstance()).build(),
                stopped)) {
          if (r.body().hasFrames() && r.body().getFrames().getFramesCount() > 0) {
            tree.add(Protos.fromProto(r.body().getFrames()), r.ranks());
          }
        }
      }
      print(tree.build(), table.rows(all));
      return 0;
    }
  }

  private static List<RankReply> call(SessionClient session, CommandBody body, RankSet dest)
      throws Exception {
    return session.call(body, dest, Duration.ZERO).get(60, TimeUnit.SECONDS);
  }

  private void print(StackTree tree, List<ProcessTable.Row> rows) {
    switch (format) {
      case text -> {
        new TextRenderer(out).stacks(tree);
        rows.stream()
            .filter(r -> r.state() != ProcessTable.State.STOPPED)
            .forEach(
                r ->
                    out.println(
                        "["
                            + r.ranks()
                            + "] "
                            + r.state().name().toLowerCase(java.util.Locale.ROOT)
                            + " "
                            + r.location()));
      }
      case json -> new JsonRenderer(out).stacks(tree);
      case dot -> out.print(Dot.write(tree));
    }
  }
}
