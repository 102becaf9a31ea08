package io.sdmfabric.frontend;

import io.sdmfabric.model.Frame;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.StackTree;
import io.sdmfabric.wire.proto.CommandBody;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * STAT's view of a hang, over any session ({@code sdm stacks}): the merged stacks of every thread
 * of the stopped ranks in one call-prefix tree, which counts the threads at each frame; the ranks
 * not stopped (ended, lost) are listed by state beside it. With more than one sample, the ranks run
 * on between samples, and each place of the last one says which of its ranks stood there in every
 * sample (stuck) and which moved (progressing), as STAT's temporal view does.
 *
 * <p>Where the ranks keep MPI wait records (sdm's library, in the MPI jobs it launches), the
 * snapshot has the MPI wait-for graph of the last sample too: who waits for whom, deadlocks named.
 *
 * @param samples the snapshots taken, the last one shown
 * @param others the ranks that did not stop, by state and location
 * @param waits who waits for whom in MPI at the last sample; empty when no rank keeps records
 */
public record StackSnapshot(
    StackSamples samples, List<ProcessTable.Row> others, Optional<MpiWaitGraph> waits) {
  /** How long the interrupted ranks get to stop, and each command to complete. */
  private static final Duration STOP_LIMIT = Duration.ofSeconds(10);

  private static final Duration CALL_LIMIT = Duration.ofSeconds(60);

  /** The output formats: html and svg are pictures ({@link StackPicture}). */
  public enum Format {
    text,
    json,
    dot,
    html,
    svg;

    /** Whether this format is a picture, not lines to read on a terminal. */
    public boolean picture() {
      return this == html || this == svg;
    }
  }

  public StackSnapshot {
    others = List.copyOf(others);
    Objects.requireNonNull(waits, "waits");
  }

  /** The stacks of the last sample, merged. */
  public StackTree tree() {
    return samples.last();
  }

  /**
   * Runs {@code program} with {@code args} on every rank of {@code session} for {@code after} (or
   * until no rank runs), then takes {@code count} samples {@code interval} apart.
   *
   * @throws LoadFailed when some rank could not load the program
   */
  public static StackSnapshot take(
      SessionClient session,
      String program,
      List<String> args,
      Duration after,
      int count,
      Duration interval)
      throws Exception {
    int size = session.size();
    ProcessTable table = new ProcessTable(size);
    session.subscribe(table::apply);
    RankSet all = RankSet.all(size);
    LaunchSpec spec = new LaunchSpec(program, args, Map.of(), Path.of("").toAbsolutePath());
    for (RankReply r : call(session, Commands.startSession(spec), all)) {
      if (r.reply() instanceof Reply.Failure f) {
        throw new LoadFailed(r.ranks(), f.message());
      }
    }
    table.markRunning(all);
    call(session, Commands.run(), all);
    table.awaitNotRunning(all, after.toMillis());
    return sample(session, table, all, count, interval);
  }

  /**
   * Takes {@code count} samples of {@code ranks}, {@code interval} apart: each interrupts the ranks
   * that run, takes every thread's stack of the stopped ones, and lets them run on until the next.
   * The ranks are left stopped after the last sample.
   *
   * @param table the ranks' states, kept up to date with the session's events by the caller
   */
  public static StackSnapshot sample(
      SessionClient session, ProcessTable table, RankSet ranks, int count, Duration interval)
      throws Exception {
    StackSamples samples = new StackSamples();
    for (int i = 0; i < count; i++) {
      RankSet running = table.ranksIn(ProcessState.RUNNING, ranks);
      if (!running.isEmpty()) {
        call(session, Commands.suspend(), running);
        table.awaitNotRunning(running, STOP_LIMIT.toMillis());
      }
      RankSet stopped = table.ranksIn(ProcessState.STOPPED, ranks);
      samples.add(stopped.isEmpty() ? List.of() : call(session, Commands.listAllStacks(), stopped));
      if (i < count - 1 && !stopped.isEmpty()) {
        table.markRunning(stopped);
        call(session, Commands.go(), stopped);
        Thread.sleep(interval.toMillis());
      }
    }
    RankSet stopped = table.ranksIn(ProcessState.STOPPED, ranks);
    Optional<MpiWaitGraph> waits = Optional.empty();
    if (!stopped.isEmpty()) {
      MpiWaitGraph graph =
          new MpiWaitGraph(
              call(session, Commands.mpiWait(), stopped),
              mainThreadPlaces(samples.last(), table.rows(ranks)));
      if (!graph.unknown().equals(stopped)) {
        waits = Optional.of(graph);
      }
    }
    List<ProcessTable.Row> others =
        table.rows(ranks).stream().filter(r -> r.state() != ProcessState.STOPPED).toList();
    return new StackSnapshot(samples, others, waits);
  }

  /**
   * {@code rows} with the stopped ranks placed where their main thread is in {@code tree} (the
   * innermost frame of the path from {@code main}), which says more than where the stop was
   * reported: an interrupt can land in any thread, one of the MPI library's among them.
   */
  static List<ProcessTable.Row> mainThreadPlaces(StackTree tree, List<ProcessTable.Row> rows) {
    Map<String, RankSet> places = new LinkedHashMap<>();
    for (StackTree.Node root : tree.roots()) {
      if (root.frame().function().equals("main")) {
        place(root, root.ranks(), places);
      }
    }
    RankSet placed = RankSet.empty();
    List<ProcessTable.Row> out = new ArrayList<>();
    for (Map.Entry<String, RankSet> p : places.entrySet()) {
      out.add(new ProcessTable.Row(ProcessState.STOPPED, p.getKey(), p.getValue()));
      placed = placed.union(p.getValue());
    }
    for (ProcessTable.Row r : rows) {
      RankSet rest = r.ranks().minus(placed);
      if (!rest.isEmpty()) {
        out.add(new ProcessTable.Row(r.state(), r.location(), rest));
      }
    }
    return out;
  }

  /** Places {@code ranks} at the innermost frames under {@code node} they reach. */
  private static void place(StackTree.Node node, RankSet ranks, Map<String, RankSet> places) {
    RankSet deeper = RankSet.empty();
    for (StackTree.Node child : node.children()) {
      RankSet here = ranks.intersect(child.ranks());
      if (!here.isEmpty()) {
        place(child, here, places);
        deeper = deeper.union(here);
      }
    }
    RankSet innermost = ranks.minus(deeper);
    if (!innermost.isEmpty()) {
      places.merge(node.frame().describe(), innermost, RankSet::union);
    }
  }

  private static List<RankReply> call(SessionClient session, CommandBody body, RankSet dest)
      throws Exception {
    return session.call(body, dest, Duration.ZERO).get(CALL_LIMIT.toSeconds(), TimeUnit.SECONDS);
  }

  /** Prints the snapshot on {@code out} as {@code format} says. */
  public void print(Format format, PrintStream out) {
    boolean temporal = samples.count() > 1;
    switch (format) {
      case text -> {
        new TextRenderer(out).stacks(tree(), path -> temporal ? motionText(path) : "");
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
        waits.ifPresent(new TextRenderer(out)::mpiWaits);
      }
      case json -> {
        JsonRenderer json = new JsonRenderer(out);
        json.stacks(tree(), path -> temporal ? motionFields(path) : Map.of());
        waits.ifPresent(json::mpiWaits);
      }
      case dot -> {
        out.print(Dot.write(tree(), path -> temporal ? motionText(path) : ""));
        waits.ifPresent(g -> out.print(Dot.write(g)));
      }
      // UTF-8, as the page and the SVG say they are, whatever the platform's charset.
      case html -> out.writeBytes(picture().html().getBytes(StandardCharsets.UTF_8));
      case svg -> out.writeBytes(picture().svg().getBytes(StandardCharsets.UTF_8));
    }
  }

  /** The tree as a picture, marked with the samples' judgement and the deadlock. */
  public StackPicture picture() {
    return new StackPicture(
        tree(), samples.count() > 1 ? Optional.of(samples) : Optional.empty(), waits);
  }

  /** "stuck in 3 samples", "progressing", or both with their ranks. */
  private String motionText(List<Frame> path) {
    StackSamples.Motion m = samples.motion(path);
    if (m.stuck().isEmpty() && m.progressing().isEmpty()) {
      return ""; // no thread's stack ends here: the leaf is a prefix of deeper ones
    } else if (m.progressing().isEmpty()) {
      return "stuck in " + samples.count() + " samples";
    } else if (m.stuck().isEmpty()) {
      return "progressing";
    }
    return "stuck [" + m.stuck() + "], progressing [" + m.progressing() + "]";
  }

  private Map<String, Object> motionFields(List<Frame> path) {
    StackSamples.Motion m = samples.motion(path);
    return Json.object("stuck", m.stuck().toString(), "progressing", m.progressing().toString());
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
