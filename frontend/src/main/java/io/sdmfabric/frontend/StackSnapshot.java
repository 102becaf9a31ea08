package io.sdmfabric.frontend;

import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.StackTree;
import io.sdmfabric.wire.proto.CommandBody;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * STAT's view of a hang, over any session ({@code sdm stacks}): load the program on every rank, let
 * it run for a while or until every rank has stopped or ended, interrupt the rest, and merge the
 * stacks of every thread of the stopped ranks into one call-prefix tree, which counts the threads
 * at each frame; the ranks not stopped (ended, lost) are listed by state beside it.
 *
 * @param tree the stopped ranks' threads' stacks, merged
 * @param others the ranks that did not stop, by state and location
 */
public record StackSnapshot(StackTree tree, List<ProcessTable.Row> others) {
  /** How long the interrupted ranks get to stop, and each command to complete. */
  private static final Duration STOP_LIMIT = Duration.ofSeconds(10);

  private static final Duration CALL_LIMIT = Duration.ofSeconds(60);

  /** The output formats. */
  public enum Format {
    text,
    json,
    dot
  }

  public StackSnapshot {
    others = List.copyOf(others);
  }

  /**
   * Runs {@code program} with {@code args} on every rank of {@code session} for {@code after} (or
   * until no rank runs), interrupts the ranks still running, and takes their merged stacks.
   *
   * @throws LoadFailed when some rank could not load the program
   */
  public static StackSnapshot take(
      SessionClient session, String program, List<String> args, Duration after) throws Exception {
    int size = session.size();
    ProcessTable table = new ProcessTable(size);
    session.onEvent(table::apply);
    RankSet all = RankSet.all(size);
    LaunchSpec spec = new LaunchSpec(program, args, Map.of(), Path.of("").toAbsolutePath());
    for (RankReply r : call(session, Commands.startSession(spec), all)) {
      if (r.body().hasError()) {
        throw new LoadFailed(r.ranks(), r.body().getError().getMessage());
      }
      if (r.body().hasLost()) {
        throw new LoadFailed(r.ranks(), Protos.lostText(r.body().getLost()));
      }
    }
    table.markRunning(all);
    call(session, Commands.run(), all);
    RankSet running = table.awaitNotRunning(all, after.toMillis());
    if (!running.isEmpty()) {
      call(session, Commands.suspend(), running);
      table.awaitNotRunning(running, STOP_LIMIT.toMillis());
    }
    RankSet stopped = table.ranksIn(ProcessTable.State.STOPPED, all);
    StackTree.Builder tree = StackTree.builder();
    if (!stopped.isEmpty()) {
      for (RankReply r : call(session, Commands.listAllStacks(), stopped)) {
        if (r.body().hasThreadStacks()) {
          tree.addThreads(Protos.fromProto(r.body().getThreadStacks()), r.ranks());
        }
      }
    }
    List<ProcessTable.Row> others =
        table.rows(all).stream().filter(r -> r.state() != ProcessTable.State.STOPPED).toList();
    return new StackSnapshot(tree.build(), others);
  }

  private static List<RankReply> call(SessionClient session, CommandBody body, RankSet dest)
      throws Exception {
    return session.call(body, dest, Duration.ZERO).get(CALL_LIMIT.toSeconds(), TimeUnit.SECONDS);
  }

  /** Prints the snapshot on {@code out} as {@code format} says. */
  public void print(Format format, PrintStream out) {
    switch (format) {
      case text -> {
        new TextRenderer(out).stacks(tree);
        others.forEach(
            r ->
                out.println(
                    TerminalText.escape(
                        "["
                            + r.ranks()
                            + "] "
                            + r.state().name().toLowerCase(Locale.ROOT)
                            + " "
                            + r.location())));
      }
      case json -> new JsonRenderer(out).stacks(tree);
      case dot -> out.print(Dot.write(tree));
    }
  }

  /** Some ranks could not load the program: nothing ran. */
  public static final class LoadFailed extends Exception {
    private static final long serialVersionUID = 1L;

    /** The ranks that failed, the first of them as the message says. */
    private final RankSet ranks;

    LoadFailed(RankSet ranks, String message) {
      super(message);
      this.ranks = ranks;
    }

    /** The ranks that failed. */
    public RankSet ranks() {
      return ranks;
    }
  }
}
