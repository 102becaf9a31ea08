package io.sdmfabric.bench;

import io.sdmfabric.master.Session;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.BinomialTree;
import io.sdmfabric.server.DebuggerBackend;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.RankBackends;
import io.sdmfabric.server.RankBlocks;
import io.sdmfabric.server.ReplyCache;
import io.sdmfabric.sim.SimulatedDebugger;
import io.sdmfabric.sim.SimulatedProgram;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.StackTree;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.Empty;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * The fabric at scale, in one JVM, on simulated ranks: for each N, one line
 *
 * <pre>
 * ranks=N per_node=P nodes=M depth=D identical_p50_ms=.. identical_p99_ms=.. distinct_p50_ms=..
 *     distinct_all_p50_ms=.. stacks_p50_ms=.. messages=.. heap_bytes_per_rank=..
 * </pre>
 *
 * where identical = every rank returns the same value, distinct = every rank a different one (each
 * node passes up the values of at most C classes and a summary of the others, {@code
 * --value-classes C}, default {@link FabricConfig#DEFAULT_VALUE_CLASSES}), distinct_all = the same
 * with every class asked for ({@code print --all}), stacks = the stacks of all ranks (10 distinct
 * call paths of 30 frames) merged into a call-prefix tree, each from submitting the command to the
 * master's completion (the tree included); messages = the messages between tree nodes for one
 * identical command; heap = live heap after the tree and every rank's simulator exist, per rank.
 * The tree's nodes serve P ranks each ({@code --per-node P,P,...}, default 128, a node of today's
 * clusters; 1 is the tree of one server per rank), over which the tree spans M nodes of depth D.
 * Run it with {@code bench/run fabric --ranks 1024,16384 --per-node 1,128}.
 */
public final class FabricScaleRunner {
  private FabricScaleRunner() {}

  public static void main(String[] args) throws Exception {
    List<Integer> perNode = List.of(128);
    int valueClasses = FabricConfig.DEFAULT_VALUE_CLASSES;
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--per-node") && i + 1 < args.length) {
        perNode = Arrays.stream(args[++i].split(",")).map(Integer::parseInt).toList();
      } else if (args[i].equals("--value-classes") && i + 1 < args.length) {
        valueClasses = Integer.parseInt(args[++i]);
      } else {
        rest.add(args[i]);
      }
    }
    RunnerOptions options =
        RunnerOptions.parse(rest.toArray(String[]::new), List.of(1024, 16384, 131072, 1048576), 0);
    int reps = options.reps();
    for (int n : options.sizes()) {
      for (int p : perNode) {
        run(n, p, valueClasses, reps > 0 ? reps : n <= 16384 ? 50 : n <= 131072 ? 15 : 7);
      }
    }
  }

  private static void run(int n, int perNode, int valueClasses, int reps) throws Exception {
    SimulatedProgram program =
        SimulatedProgram.builder().withStackShape(10, 30).withResumedEvents(false).build();
    FabricConfig config =
        FabricConfig.defaults()
            .withEventWindow(Duration.ofMillis(20))
            .withValueClasses(valueClasses);
    long baseline = usedHeap();
    ReplyCache replies = new ReplyCache();
    RankBlocks blocks = new RankBlocks(n, perNode);
    ActorSystem<Session.Command> system =
        ActorSystem.create(
            Session.embedded(
                blocks,
                config,
                RankBackends.perNode(
                    blocks,
                    rank ->
                        new DebuggerBackend(SimulatedDebugger.direct(program, rank, n), replies))),
            "fabric");
    try {
      SessionDriver session = new SessionDriver(system);
      RankSet all = RankSet.all(n);
      session.call(SessionDriver.load(), all);
      long heapPerRank = (usedHeap() - baseline) / n;

      CommandBody x = SessionDriver.evaluate("x");
      // Warm up until the JIT has compiled the hot paths: some 20 million rank replies (at
      // least 20 commands), at most a minute. Fewer left 1024 ranks at 3-4 ms instead of 0.8.
      long warmEnd = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      for (int i = 0; i < Math.max(20, 20_000_000 / n) && System.nanoTime() < warmEnd; i++) {
        session.call(x, all);
      }
      long before = config.messagesSent().sum();
      session.call(x, all);
      long messages = config.messagesSent().sum() - before;
      double[] identical =
          SessionDriver.time(reps, () -> SessionDriver.check(session.call(x, all), 1));
      CommandBody distinct = SessionDriver.evaluate("distinct");
      // The first classes, and one summary of the rest when there are more.
      int shown = n > valueClasses ? valueClasses + 1 : n;
      CommandBody everyClass = Commands.withValueClasses(distinct, Integer.MAX_VALUE);
      // The distinct paths (each rank's own reply, the summaries) are not those of the warm-up
      // above: warm them too (some 2 million rank replies each), or the first timed is the JIT's.
      for (int i = 0; i < Math.max(2, 2_000_000 / n); i++) {
        session.call(distinct, all);
        session.call(everyClass, all);
      }
      double[] distinctMs =
          SessionDriver.time(
              Math.max(3, reps / 3), () -> SessionDriver.check(session.call(distinct, all), shown));
      double[] distinctAllMs =
          SessionDriver.time(
              Math.max(3, reps / 3), () -> SessionDriver.check(session.call(everyClass, all), n));

      for (String f : List.of("compute", "exchange")) {
        session.call(SessionDriver.breakAt(f), all);
      }
      long goStart = System.nanoTime();
      session.callUntilStopped(
          CommandBody.newBuilder().setRun(Empty.getDefaultInstance()).build(), all);
      double goMs = (System.nanoTime() - goStart) / 1e6;
      double[] stacks =
          SessionDriver.time(
              Math.max(3, reps / 2),
              () -> {
                StackTree t = session.stackTree(all);
                if (t.pathCount() != Math.min(10, n)) {
                  throw new IllegalStateException("expected 10 paths, got " + t.pathCount());
                }
              });
      System.out.printf(
          Locale.ROOT,
          "ranks=%d per_node=%d nodes=%d depth=%d identical_p50_ms=%.2f identical_p99_ms=%.2f distinct_p50_ms=%.2f"
              + " distinct_all_p50_ms=%.2f stacks_p50_ms=%.2f messages=%d heap_bytes_per_rank=%d go_until_all_stopped_ms=%.0f%n",
          n,
          perNode,
          blocks.nodes(),
          BinomialTree.depth(blocks.size()),
          RunnerOptions.percentile(identical, 50),
          RunnerOptions.percentile(identical, 99),
          RunnerOptions.percentile(distinctMs, 50),
          RunnerOptions.percentile(distinctAllMs, 50),
          RunnerOptions.percentile(stacks, 50),
          messages,
          heapPerRank,
          goMs);
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(1, TimeUnit.MINUTES);
    }
  }

  private static long usedHeap() throws InterruptedException {
    Runtime rt = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(100);
      used = Math.min(used, rt.totalMemory() - rt.freeMemory());
    }
    return used;
  }
}
