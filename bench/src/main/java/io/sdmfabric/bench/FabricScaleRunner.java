package io.sdmfabric.bench;

import io.sdmfabric.master.Session;
import io.sdmfabric.master.SessionEvent;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.BinomialTree;
import io.sdmfabric.server.DebuggerBackend;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.ReplyCache;
import io.sdmfabric.server.SimulatedDebugger;
import io.sdmfabric.server.SimulatedProgram;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.StackTree;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.Empty;
import io.sdmfabric.wire.proto.ExpressionCmd;
import io.sdmfabric.wire.proto.StartSessionCmd;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The fabric at scale, in one JVM, on simulated ranks: for each N, one line
 *
 * <pre>
 * ranks=N depth=D identical_p50_ms=.. identical_p99_ms=.. distinct_p50_ms=.. stacks_p50_ms=..
 *     messages=.. heap_bytes_per_rank=..
 * </pre>
 *
 * where identical = every rank returns the same value, distinct = every rank a different one,
 * stacks = the stacks of all ranks (10 distinct call paths of 30 frames) merged into a call-prefix
 * tree, each from submitting the command to the master's completion (the tree included); messages =
 * the messages between tree nodes for one identical command; heap = live heap after the tree and
 * every rank's simulator exist, per rank. Run it with {@code bench/run fabric --ranks 1024,16384}.
 */
public final class FabricScaleRunner {
  private static final Duration WAIT = Duration.ofMinutes(5);

  private FabricScaleRunner() {}

  public static void main(String[] args) throws Exception {
    RunnerOptions options = RunnerOptions.parse(args, List.of(1024, 16384, 131072, 1048576), 0);
    List<Integer> sizes = options.sizes();
    int reps = options.reps();
    for (int n : sizes) {
      run(n, reps > 0 ? reps : n <= 16384 ? 50 : n <= 131072 ? 15 : 7);
    }
  }

  /** Receives a session's events and completes one command at a time. */
  private static final class Collector {
    private volatile CompletableFuture<List<SessionEvent.Reply>> current;
    private final List<SessionEvent.Reply> replies = new ArrayList<>();
    private volatile CompletableFuture<Void> stops;
    private int stopped;
    private int expectedStops;

    Behavior<SessionEvent> behavior() {
      return Behaviors.receive(SessionEvent.class)
          .onMessage(
              SessionEvent.Reply.class,
              r -> {
                replies.add(r);
                return Behaviors.same();
              })
          .onMessage(
              SessionEvent.Completed.class,
              c -> {
                List<SessionEvent.Reply> done = List.copyOf(replies);
                replies.clear();
                current.complete(done);
                return Behaviors.same();
              })
          .onMessage(
              SessionEvent.Rejected.class,
              r -> {
                current.completeExceptionally(new IllegalStateException(r.reason()));
                return Behaviors.same();
              })
          .onMessage(
              SessionEvent.Unsolicited.class,
              u -> {
                if (u.body().hasSuspended()) {
                  stopped += u.ranks().size();
                  if (stopped >= expectedStops) {
                    stops.complete(null);
                  }
                }
                return Behaviors.same();
              })
          .onAnyMessage(m -> Behaviors.same())
          .build();
    }
  }

  private static void run(int n, int reps) throws Exception {
    SimulatedProgram program =
        SimulatedProgram.builder().withStackShape(10, 30).withResumedEvents(false).build();
    FabricConfig config = FabricConfig.defaults().withEventWindow(Duration.ofMillis(20));
    long baseline = usedHeap();
    ReplyCache replies = new ReplyCache();
    ActorSystem<Session.Command> system =
        ActorSystem.create(
            Session.embedded(
                n,
                config,
                rank -> new DebuggerBackend(SimulatedDebugger.direct(program, rank, n), replies)),
            "fabric");
    try {
      Collector collector = new Collector();
      ActorRef<SessionEvent> replyTo =
          system.systemActorOf(collector.behavior(), "collector", Props.empty());
      system.tell(new Session.Subscribe(replyTo));
      RankSet all = RankSet.all(n);
      call(system, collector, replyTo, load(), all);
      long heapPerRank = (usedHeap() - baseline) / n;

      CommandBody x = evaluate("x");
      // Warm up until the JIT has compiled the hot paths: some 20 million rank replies (at
      // least 20 commands), at most a minute. Fewer left 1024 ranks at 3-4 ms instead of 0.8.
      long warmEnd = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      for (int i = 0; i < Math.max(20, 20_000_000 / n) && System.nanoTime() < warmEnd; i++) {
        call(system, collector, replyTo, x, all);
      }
      long before = config.messagesSent().sum();
      call(system, collector, replyTo, x, all);
      long messages = config.messagesSent().sum() - before;
      double[] identical = time(reps, () -> check(call(system, collector, replyTo, x, all), 1));
      CommandBody distinct = evaluate("distinct");
      double[] distinctMs =
          time(
              Math.max(3, reps / 3),
              () -> check(call(system, collector, replyTo, distinct, all), n));

      for (String f : List.of("compute", "exchange")) {
        call(
            system,
            collector,
            replyTo,
            CommandBody.newBuilder().setSetBreakpoint(Protos.toProto(BreakpointSpec.at(f))).build(),
            all);
      }
      collector.stopped = 0;
      collector.expectedStops = n;
      collector.stops = new CompletableFuture<>();
      long goStart = System.nanoTime();
      call(
          system,
          collector,
          replyTo,
          CommandBody.newBuilder().setRun(Empty.getDefaultInstance()).build(),
          all);
      collector.stops.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      double goMs = (System.nanoTime() - goStart) / 1e6;
      CommandBody frames =
          CommandBody.newBuilder().setListFrames(Empty.getDefaultInstance()).build();
      double[] stacks =
          time(
              Math.max(3, reps / 2),
              () -> {
                StackTree.Builder tree = StackTree.builder();
                for (SessionEvent.Reply r : call(system, collector, replyTo, frames, all)) {
                  tree.add(Protos.fromProto(r.body().getFrames()), r.ranks());
                }
                StackTree t = tree.build();
                if (t.pathCount() != Math.min(10, n)) {
                  throw new IllegalStateException("expected 10 paths, got " + t.pathCount());
                }
              });
      System.out.printf(
          Locale.ROOT,
          "ranks=%d depth=%d identical_p50_ms=%.2f identical_p99_ms=%.2f distinct_p50_ms=%.2f"
              + " stacks_p50_ms=%.2f messages=%d heap_bytes_per_rank=%d go_until_all_stopped_ms=%.0f%n",
          n,
          BinomialTree.depth(n + 1),
          RunnerOptions.percentile(identical, 50),
          RunnerOptions.percentile(identical, 99),
          RunnerOptions.percentile(distinctMs, 50),
          RunnerOptions.percentile(stacks, 50),
          messages,
          heapPerRank,
          goMs);
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(1, TimeUnit.MINUTES);
    }
  }

  private interface Step {
    void run() throws Exception;
  }

  private static double[] time(int reps, Step step) throws Exception {
    double[] ms = new double[reps];
    for (int i = 0; i < reps; i++) {
      long start = System.nanoTime();
      step.run();
      ms[i] = (System.nanoTime() - start) / 1e6;
    }
    Arrays.sort(ms);
    return ms;
  }

  private static void check(List<SessionEvent.Reply> replies, int expectedGroups) {
    if (replies.size() != expectedGroups) {
      throw new IllegalStateException(
          "expected " + expectedGroups + " groups, got " + replies.size());
    }
  }

  private static List<SessionEvent.Reply> call(
      ActorSystem<Session.Command> session,
      Collector collector,
      ActorRef<SessionEvent> replyTo,
      CommandBody body,
      RankSet dest)
      throws Exception {
    collector.current = new CompletableFuture<>();
    session.tell(new Session.Submit(body, dest, Duration.ZERO, replyTo));
    return collector.current.get(WAIT.toSeconds(), TimeUnit.SECONDS);
  }

  private static CommandBody load() {
    return CommandBody.newBuilder()
        .setStartSession(
            StartSessionCmd.newBuilder().setLaunch(Protos.toProto(LaunchSpec.of("/bin/sim"))))
        .build();
  }

  private static CommandBody evaluate(String expression) {
    return CommandBody.newBuilder()
        .setEvaluate(ExpressionCmd.newBuilder().setExpression(expression))
        .build();
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
