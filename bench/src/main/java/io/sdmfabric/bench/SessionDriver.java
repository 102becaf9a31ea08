package io.sdmfabric.bench;

import io.sdmfabric.master.Session;
import io.sdmfabric.master.SessionEvent;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.RankSet;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Drives a session from outside its actors, as the runners need it: one command at a time,
 * returning its merged replies once the master reports it complete; waiting for the tree (a
 * distributed session) and for every rank's stop. A subscriber actor in the session's actor system
 * collects the events; the calling thread blocks on futures it completes.
 */
final class SessionDriver {
  /** Fails a wait that takes longer than this. */
  static final Duration WAIT = Duration.ofMinutes(5);

  private final ActorSystem<Session.Command> session;
  private final ActorRef<SessionEvent> events;
  private final CompletableFuture<RankSet> treeReady = new CompletableFuture<>();
  // Read by the subscriber actor, replaced by the calling thread before each command.
  private volatile CompletableFuture<List<SessionEvent.Reply>> current;
  private volatile StopCount stops;
  // Only the subscriber actor touches this list.
  private final List<SessionEvent.Reply> replies = new ArrayList<>();

  /** Ranks still to report a stop, and the future their last stop completes. */
  private record StopCount(AtomicInteger remaining, CompletableFuture<Void> done) {}

  /** Subscribes to {@code session}'s events (before any agent registers: no event is missed). */
  SessionDriver(ActorSystem<Session.Command> session) {
    this.session = session;
    this.events = session.systemActorOf(subscriber(), "bench-driver", Props.empty());
    session.tell(new Session.Subscribe(events));
  }

  private Behavior<SessionEvent> subscriber() {
    return Behaviors.receive(SessionEvent.class)
        .onMessage(SessionEvent.Reply.class, this::onReply)
        .onMessage(SessionEvent.Completed.class, this::onCompleted)
        .onMessage(SessionEvent.Rejected.class, this::onRejected)
        .onMessage(SessionEvent.Unsolicited.class, this::onUnsolicited)
        .onMessage(SessionEvent.TreeReady.class, this::onTreeReady)
        .onAnyMessage(m -> Behaviors.same())
        .build();
  }

  private Behavior<SessionEvent> onReply(SessionEvent.Reply r) {
    replies.add(r);
    return Behaviors.same();
  }

  private Behavior<SessionEvent> onCompleted(SessionEvent.Completed c) {
    List<SessionEvent.Reply> done = List.copyOf(replies);
    replies.clear();
    current.complete(done);
    return Behaviors.same();
  }

  private Behavior<SessionEvent> onRejected(SessionEvent.Rejected r) {
    current.completeExceptionally(new IllegalStateException(r.reason()));
    return Behaviors.same();
  }

  private Behavior<SessionEvent> onUnsolicited(SessionEvent.Unsolicited u) {
    StopCount s = stops;
    if (s != null && u.body().hasSuspended() && s.remaining().addAndGet(-u.ranks().size()) <= 0) {
      s.done().complete(null);
    }
    return Behaviors.same();
  }

  private Behavior<SessionEvent> onTreeReady(SessionEvent.TreeReady t) {
    treeReady.complete(t.missing());
    return Behaviors.same();
  }

  /** Waits for a distributed session's tree; returns the ranks that never registered. */
  RankSet awaitTreeReady(Duration wait) throws Exception {
    return treeReady.get(wait.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Sends {@code body} to {@code dest} and returns its reply groups once it has completed. */
  List<SessionEvent.Reply> call(CommandBody body, RankSet dest) throws Exception {
    current = new CompletableFuture<>();
    session.tell(new Session.Submit(body, dest, Duration.ZERO, events));
    return current.get(WAIT.toSeconds(), TimeUnit.SECONDS);
  }

  /** Sends {@code body} (a resuming command) and waits until every rank of {@code dest} stops. */
  void callUntilStopped(CommandBody body, RankSet dest) throws Exception {
    StopCount s = new StopCount(new AtomicInteger(dest.size()), new CompletableFuture<>());
    stops = s;
    call(body, dest);
    s.done().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    stops = null;
  }

  /** Loads the simulated program on {@code dest}, breaks at both leaves and runs until stopped. */
  void loadAndStop(RankSet dest) throws Exception {
    call(load(), dest);
    for (String f : List.of("compute", "exchange")) {
      call(breakAt(f), dest);
    }
    callUntilStopped(CommandBody.newBuilder().setRun(Empty.getDefaultInstance()).build(), dest);
  }

  /** Lists every rank's stack and merges the reply groups into a call-prefix tree. */
  StackTree stackTree(RankSet dest) throws Exception {
    StackTree.Builder tree = StackTree.builder();
    for (SessionEvent.Reply r : call(FRAMES, dest)) {
      tree.add(Protos.fromProto(r.body().getFrames()), r.ranks());
    }
    return tree.build();
  }

  /** One step of a timed loop. */
  interface Step {
    void run() throws Exception;
  }

  /** Runs {@code step} {@code reps} times; returns the times in ms, sorted. */
  static double[] time(int reps, Step step) throws Exception {
    double[] ms = new double[reps];
    for (int i = 0; i < reps; i++) {
      long start = System.nanoTime();
      step.run();
      ms[i] = (System.nanoTime() - start) / 1e6;
    }
    Arrays.sort(ms);
    return ms;
  }

  /** Fails unless there are {@code expectedGroups} reply groups. */
  static void check(List<SessionEvent.Reply> replies, int expectedGroups) {
    if (replies.size() != expectedGroups) {
      throw new IllegalStateException(
          "expected " + expectedGroups + " groups, got " + replies.size() + ": " + replies);
    }
  }

  /** {@code -stack-list-frames} on every rank. */
  static final CommandBody FRAMES =
      CommandBody.newBuilder().setListFrames(Empty.getDefaultInstance()).build();

  /** Starts the simulated program's session on each rank. */
  static CommandBody load() {
    return CommandBody.newBuilder()
        .setStartSession(
            StartSessionCmd.newBuilder().setLaunch(Protos.toProto(LaunchSpec.of("/bin/sim"))))
        .build();
  }

  static CommandBody breakAt(String function) {
    return CommandBody.newBuilder()
        .setSetBreakpoint(Protos.toProto(BreakpointSpec.at(function)))
        .build();
  }

  static CommandBody evaluate(String expression) {
    return CommandBody.newBuilder()
        .setEvaluate(ExpressionCmd.newBuilder().setExpression(expression))
        .build();
  }
}
