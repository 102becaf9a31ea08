package io.sdmfabric.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.CanonicalBytes;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The tree's routing and aggregation rules, on scripted backends, every message serialized. */
class ServerNodeTest {
  private static final ActorTestKit testKit = ActorTestKit.create(TreeTestKit.serializing());
  private static final CommandBody PRINT_X = Commands.evaluate("x");
  private static final Duration WAIT = Duration.ofSeconds(20);

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private record Tree(
      ActorRef<ServerNode.Command> root,
      TestProbe<ServerNode.Up> parent,
      Set<Integer> executed,
      Map<Integer, ScriptedBackend> backends,
      FabricConfig config) {}

  /** A tree of {@code ranks}, each node serving {@code perNode} of them, one backend per rank. */
  private static Tree tree(
      int ranks,
      int perNode,
      FabricConfig config,
      BiFunction<Integer, CommandBody, EventBody> replies,
      Map<Integer, CompletableFuture<Void>> held) {
    TestProbe<ServerNode.Up> parent = testKit.createTestProbe();
    Set<Integer> executed = ScriptedBackend.newLog();
    Map<Integer, ScriptedBackend> backends = new java.util.concurrent.ConcurrentHashMap<>();
    RankBlocks blocks = new RankBlocks(ranks, perNode);
    ActorRef<ServerNode.Command> root =
        testKit.spawn(
            ServerNode.embedded(
                config,
                blocks,
                RankBackends.perNode(
                    blocks,
                    rank -> {
                      ScriptedBackend b =
                          new ScriptedBackend(
                              rank,
                              replies,
                              held.getOrDefault(rank, CompletableFuture.completedFuture(null)),
                              executed);
                      backends.put(rank, b);
                      return b;
                    }),
                parent.ref()));
    return new Tree(root, parent, executed, backends, config);
  }

  private static Tree tree(
      int ranks,
      FabricConfig config,
      BiFunction<Integer, CommandBody, EventBody> replies,
      Map<Integer, CompletableFuture<Void>> held) {
    return tree(ranks, 1, config, replies, held);
  }

  private static Tree tree(int ranks, BiFunction<Integer, CommandBody, EventBody> replies) {
    return tree(ranks, FabricConfig.defaults(), replies, Map.of());
  }

  private static Tree tree(
      int ranks, int perNode, BiFunction<Integer, CommandBody, EventBody> replies) {
    return tree(ranks, perNode, FabricConfig.defaults(), replies, Map.of());
  }

  /** Collects replies to {@code id} until they cover {@code dest}. */
  private static Map<EventBody, RankSet> await(Tree t, long id, RankSet dest) {
    Map<EventBody, RankSet> byBody = new HashMap<>();
    RankSet covered = RankSet.empty();
    while (!covered.equals(dest)) {
      ServerNode.Replies r = t.parent().expectMessageClass(ServerNode.Replies.class, WAIT);
      assertEquals(id, r.id());
      for (ReplyGroup g : r.groups()) {
        assertTrue(g.ranks().intersect(covered).isEmpty(), "a rank replied twice: " + g);
        covered = covered.union(g.ranks());
        byBody.merge(CanonicalBytes.eventBody(g.body()), g.ranks(), RankSet::union);
      }
    }
    return byBody;
  }

  @ParameterizedTest
  @CsvSource({
    "1,1",
    "2,1",
    "3,1",
    "7,1",
    "8,1",
    "9,1",
    "1000,1",
    "1,4",
    "9,4",
    "1000,16",
    "1000,1000"
  })
  void identicalRepliesFromEveryRankArriveAsOneGroup(int ranks, int perNode) {
    Tree t = tree(ranks, perNode, ScriptedBackend::ok);
    t.root().tell(new ServerNode.Execute(1, RankSet.all(ranks), 0, PRINT_X));
    ServerNode.Replies r = t.parent().expectMessageClass(ServerNode.Replies.class, WAIT);
    List<ReplyGroup> all =
        List.of(new ReplyGroup(RankSet.all(ranks), CanonicalBytes.of(EventBodies.ok())));
    assertEquals(all, r.groups());
    // A fence: the next command's reply must be the next message, since every node answers the
    // first command before the second. A stray reply to the first would come before it.
    t.root().tell(new ServerNode.Execute(2, RankSet.all(ranks), 0, PRINT_X));
    assertEquals(
        new ServerNode.Replies(t.parent().ref(), 2, all),
        t.parent().expectMessageClass(ServerNode.Up.class, WAIT));
  }

  @ParameterizedTest
  @CsvSource({"1,1", "2,1", "3,1", "7,1", "8,1", "9,1", "1000,1", "9,4", "1000,16"})
  void distinctRepliesKeepEveryRankOnce(int ranks, int perNode) {
    Tree t = tree(ranks, perNode, ScriptedBackend::byRank);
    t.root().tell(new ServerNode.Execute(7, RankSet.all(ranks), 0, PRINT_X));
    Map<EventBody, RankSet> byBody = await(t, 7, RankSet.all(ranks));
    assertEquals(ranks, byBody.size());
    byBody.forEach((body, set) -> assertEquals("rank " + set.first(), body.getText().getText()));
  }

  @ParameterizedTest
  @CsvSource({"1000,1", "1000,16", "1000,1000"})
  void distinctValuesPastTheCapComeAsTheLowestRanksValuesAndOneSummary(int ranks, int perNode) {
    BiFunction<Integer, CommandBody, EventBody> values =
        (rank, body) ->
            EventBodies.value(
                Value.scalar("x", "int", Value.Kind.INTEGER, 4, Integer.toString(rank * 7 + 1)));
    Tree t = tree(ranks, perNode, FabricConfig.defaults().withValueClasses(10), values, Map.of());

    t.root().tell(new ServerNode.Execute(1, RankSet.all(ranks), 0, PRINT_X));
    Map<EventBody, RankSet> capped = await(t, 1, RankSet.all(ranks));

    assertEquals(11, capped.size());
    EventBody summary =
        capped.keySet().stream().filter(EventBody::hasValueSummary).findFirst().orElseThrow();
    assertEquals(RankSet.range(10, ranks), capped.get(summary));
    Reply.ValuesSummarized s = (Reply.ValuesSummarized) Reply.decode(summary);
    assertEquals(ranks - 10, s.classes());
    assertEquals(RankSet.of(10), s.least().orElseThrow().ranks());
    assertEquals(Integer.toString((ranks - 1) * 7 + 1), s.greatest().orElseThrow().value().text());

    // A command that asks for more classes gets every value.
    t.root()
        .tell(
            new ServerNode.Execute(
                2, RankSet.all(ranks), 0, Commands.withValueClasses(PRINT_X, 100_000)));
    Map<EventBody, RankSet> all = await(t, 2, RankSet.all(ranks));
    assertEquals(ranks, all.size());
    assertTrue(all.keySet().stream().allMatch(EventBody::hasValue));
  }

  @Test
  void aCopyOfACommandAlreadyTakenOrAnOlderOneIsRefused() {
    java.util.concurrent.atomic.AtomicInteger runs =
        new java.util.concurrent.atomic.AtomicInteger();
    Tree t =
        tree(
            3,
            (rank, body) -> {
              runs.incrementAndGet();
              return ScriptedBackend.ok(rank, body);
            });
    ServerNode.Execute five = new ServerNode.Execute(5, RankSet.all(3), 0, PRINT_X);
    t.root().tell(five);
    await(t, 5, RankSet.all(3));
    t.root().tell(five);
    t.root().tell(new ServerNode.Execute(4, RankSet.all(3), 0, PRINT_X));
    // A fence: await fails on any reply to 5 or 4 before 6's.
    t.root().tell(new ServerNode.Execute(6, RankSet.all(3), 0, PRINT_X));
    await(t, 6, RankSet.all(3));
    assertEquals(6, runs.get());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 16})
  void commandsReachOnlyTheirDestinationAndTheSubtreesOnTheWay(int perNode) {
    int ranks = 1000;
    for (RankSet dest : List.of(RankSet.of(517), RankSet.of(1, 17, 400, 999), RankSet.all(ranks))) {
      Tree t = tree(ranks, perNode, ScriptedBackend::ok);
      long before = t.config().messagesSent().sum();
      t.root().tell(new ServerNode.Execute(3, dest, 0, PRINT_X));
      assertEquals(dest, await(t, 3, dest).values().iterator().next());
      assertEquals(dest, RankSet.of(t.executed().stream().mapToInt(i -> i).toArray()));
      long messages = t.config().messagesSent().sum() - before;
      if (dest.size() == 1) {
        // Down the path to the rank and back up: at most twice the depth.
        assertTrue(
            messages <= 2L * BinomialTree.depth(new RankBlocks(ranks, perNode).size()),
            messages + " messages");
      }
    }
  }

  @Test
  void aNodesRanksMergeBeforeTheirFirstHop() {
    int ranks = 64;
    RankBlocks blocks = new RankBlocks(ranks, 16);
    Tree t = tree(ranks, 16, ScriptedBackend::ok);
    long before = t.config().messagesSent().sum();
    t.root().tell(new ServerNode.Execute(1, RankSet.all(ranks), 0, PRINT_X));
    assertEquals(Map.of(EventBodies.ok(), RankSet.all(ranks)), await(t, 1, RankSet.all(ranks)));
    // One command down each edge of the tree of 4 nodes, one merged reply up each, one to the
    // parent: no message per rank.
    long messages = t.config().messagesSent().sum() - before;
    assertEquals(2L * blocks.nodes() + 1, messages);
  }

  @Test
  void differentBodiesForcedIntoOneHashBucketDoNotMerge() {
    FabricConfig collide = FabricConfig.defaults().withHasher(bytes -> 42);
    Tree t =
        tree(
            9,
            collide,
            (rank, cmd) -> EventBodies.text(rank % 3 == 0 ? "zero" : rank % 3 == 1 ? "one" : "two"),
            Map.of());
    t.root().tell(new ServerNode.Execute(1, RankSet.all(9), 0, PRINT_X));
    Map<EventBody, RankSet> byBody = await(t, 1, RankSet.all(9));
    assertEquals(3, byBody.size());
    assertEquals(RankSet.of(0, 3, 6), byBody.get(EventBodies.text("zero")));
    assertEquals(RankSet.of(1, 4, 7), byBody.get(EventBodies.text("one")));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void aTimeoutFlushesPartialRepliesAndTheStragglerFollows(int perNode) {
    CompletableFuture<Void> slow = new CompletableFuture<>();
    Tree t = tree(8, perNode, FabricConfig.defaults(), ScriptedBackend::ok, Map.of(5, slow));
    t.root().tell(new ServerNode.Execute(9, RankSet.all(8), 200, PRINT_X));
    RankSet early = RankSet.empty();
    while (early.size() < 7) {
      ServerNode.Replies r = t.parent().expectMessageClass(ServerNode.Replies.class, WAIT);
      for (ReplyGroup g : r.groups()) {
        early = early.union(g.ranks());
      }
    }
    assertEquals(RankSet.all(8).minus(RankSet.of(5)), early);
    slow.complete(null);
    ServerNode.Replies late = t.parent().expectMessageClass(ServerNode.Replies.class, WAIT);
    assertEquals(9, late.id());
    assertEquals(RankSet.of(5), late.groups().get(0).ranks());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void everyPendingCommandHasItsOwnTimeoutNotOnlyTheOldest(int perNode) {
    CompletableFuture<Void> slow = new CompletableFuture<>();
    Tree t = tree(8, perNode, FabricConfig.defaults(), ScriptedBackend::ok, Map.of(5, slow));
    // The older command waits a minute; the newer one's short timeout must still fire.
    t.root().tell(new ServerNode.Execute(1, RankSet.all(8), 60_000, PRINT_X));
    t.root().tell(new ServerNode.Execute(2, RankSet.all(8), 200, PRINT_X));
    RankSet partial = RankSet.empty();
    while (partial.size() < 7) {
      ServerNode.Replies r = t.parent().expectMessageClass(ServerNode.Replies.class, WAIT);
      assertEquals(2, r.id(), "the older command flushed first: " + r);
      for (ReplyGroup g : r.groups()) {
        partial = partial.union(g.ranks());
      }
    }
    assertEquals(RankSet.all(8).minus(RankSet.of(5)), partial);
    slow.complete(null);
  }

  @Test
  void aChildStoppedMidCommandTurnsItsRanksIntoRankLostAndTheCommandCompletes() {
    CompletableFuture<Void> never = new CompletableFuture<>();
    // Rank 3 is node 4, a child of the root whose subtree is ranks 3-6; it never answers.
    Tree t = tree(8, FabricConfig.defaults(), ScriptedBackend::ok, Map.of(3, never));
    t.root().tell(new ServerNode.Execute(4, RankSet.all(8), 0, PRINT_X));
    // Mid-command: node 4 stops once rank 3 has the command (and its node waits for its reply).
    t.parent()
        .awaitAssert(
            WAIT,
            Duration.ofMillis(5),
            () -> {
              assertTrue(t.executed().contains(3), "rank 3 has not run the command yet");
              return null;
            });
    stopChild(t, "n4");
    // The other ranks' replies may reach the root before or after the loss: either order.
    Map<EventBody, RankSet> byBody = new HashMap<>();
    RankSet covered = RankSet.empty();
    RankSet lost = null;
    while (!covered.equals(RankSet.all(8)) || lost == null) {
      ServerNode.Up up = t.parent().expectMessageClass(ServerNode.Up.class, WAIT);
      if (up instanceof ServerNode.RanksLost l) {
        assertEquals(null, lost, "lost twice: " + l);
        lost = l.ranks();
        continue;
      }
      for (ReplyGroup g : ((ServerNode.Replies) up).groups()) {
        covered = covered.union(g.ranks());
        byBody.merge(CanonicalBytes.eventBody(g.body()), g.ranks(), RankSet::union);
      }
    }
    assertEquals(RankSet.range(3, 7), byBody.get(EventBodies.rankLost()));
    assertEquals(RankSet.of(0, 1, 2, 7), byBody.get(EventBodies.ok()));
    assertEquals(RankSet.range(3, 7), lost);
    // Later commands to the lost ranks are answered at once.
    t.root().tell(new ServerNode.Execute(5, RankSet.of(4, 7), 0, PRINT_X));
    Map<EventBody, RankSet> after = await(t, 5, RankSet.of(4, 7));
    assertEquals(RankSet.of(4), after.get(EventBodies.rankLost()));
  }

  @Test
  void aNodeServerStoppedMidCommandLosesExactlyItsRanks() {
    CompletableFuture<Void> never = new CompletableFuture<>();
    // Two nodes of four ranks under the root: node 2 serves ranks 4-7; rank 5 never answers.
    Tree t = tree(8, 4, FabricConfig.defaults(), ScriptedBackend::ok, Map.of(5, never));
    t.root().tell(new ServerNode.Execute(4, RankSet.all(8), 0, PRINT_X));
    t.parent()
        .awaitAssert(
            WAIT,
            Duration.ofMillis(5),
            () -> {
              assertTrue(t.executed().contains(5), "rank 5 has not run the command yet");
              return null;
            });
    stopChild(t, "n2");
    Map<EventBody, RankSet> byBody = new HashMap<>();
    RankSet covered = RankSet.empty();
    RankSet lost = null;
    while (!covered.equals(RankSet.all(8)) || lost == null) {
      ServerNode.Up up = t.parent().expectMessageClass(ServerNode.Up.class, WAIT);
      if (up instanceof ServerNode.RanksLost l) {
        assertEquals(null, lost, "lost twice: " + l);
        lost = l.ranks();
        continue;
      }
      for (ReplyGroup g : ((ServerNode.Replies) up).groups()) {
        covered = covered.union(g.ranks());
        byBody.merge(CanonicalBytes.eventBody(g.body()), g.ranks(), RankSet::union);
      }
    }
    assertEquals(RankSet.range(4, 8), lost);
    assertEquals(RankSet.range(4, 8), byBody.get(EventBodies.rankLost()));
    assertEquals(RankSet.range(0, 4), byBody.get(EventBodies.ok()));
  }

  @Test
  void aNodeThatLostAChildStillAnswersForItsOwnRanksAndTheLostOnes() {
    // Four nodes of four ranks: node 2 (ranks 4-7) has node 3 (ranks 8-11) below it.
    Tree t = tree(16, 4, ScriptedBackend::ok);
    // Once every rank has answered, every node exists and can be stopped by its path.
    t.root().tell(new ServerNode.Execute(1, RankSet.all(16), 0, PRINT_X));
    await(t, 1, RankSet.all(16));
    stopChild(t, "n2/n3");
    assertEquals(
        RankSet.range(8, 12),
        t.parent().expectMessageClass(ServerNode.RanksLost.class, WAIT).ranks());
    t.root().tell(new ServerNode.Execute(2, RankSet.all(16), 0, PRINT_X));
    Map<EventBody, RankSet> byBody = await(t, 2, RankSet.all(16));
    assertEquals(RankSet.range(8, 12), byBody.get(EventBodies.rankLost()));
    assertEquals(RankSet.all(16).minus(RankSet.range(8, 12)), byBody.get(EventBodies.ok()));
    t.root().tell(new ServerNode.Execute(3, RankSet.range(4, 10), 0, PRINT_X));
    byBody = await(t, 3, RankSet.range(4, 10));
    assertEquals(RankSet.range(8, 10), byBody.get(EventBodies.rankLost()));
    assertEquals(RankSet.range(4, 8), byBody.get(EventBodies.ok()));
  }

  /** A node backend that answers the first half of its ranks at once and then throws. */
  private static final class HalfThenThrow implements NodeBackend {
    @Override
    public void execute(RankSet ranks, CommandBody command, ReplySink replies) {
      ranks.forEach(
          rank -> {
            if (rank % 2 == 1) {
              throw new IllegalStateException("the backend broke at rank " + rank);
            }
            replies.reply(rank, ReplyBody.of(EventBodies.ok()));
          });
    }

    @Override
    public void subscribe(EventSink events) {}

    @Override
    public void close() {}
  }

  @Test
  void aBackendThatThrowsHasEveryRankItDidNotAnswerAnswerWithTheError() {
    TestProbe<ServerNode.Up> parent = testKit.createTestProbe();
    ActorRef<ServerNode.Command> root =
        testKit.spawn(
            ServerNode.embedded(
                FabricConfig.defaults(),
                new RankBlocks(6, 6),
                node -> new HalfThenThrow(),
                parent.ref()));
    root.tell(new ServerNode.Execute(1, RankSet.all(6), 0, PRINT_X));
    ServerNode.Replies r = parent.expectMessageClass(ServerNode.Replies.class, WAIT);
    Map<EventBody, RankSet> byBody = new HashMap<>();
    r.groups()
        .forEach(g -> byBody.merge(CanonicalBytes.eventBody(g.body()), g.ranks(), RankSet::union));
    assertEquals(RankSet.of(0), byBody.get(EventBodies.ok()));
    assertEquals(RankSet.range(1, 6), byBody.get(EventBodies.error("the backend broke at rank 1")));
  }

  /** A node backend that answers later, from threads of its own, some ranks together. */
  private static final class AnswersLater implements NodeBackend {
    @Override
    public void execute(RankSet ranks, CommandBody command, ReplySink replies) {
      RankSet even = RankSet.of(ranks.stream().filter(r -> r % 2 == 0).toArray());
      new Thread(() -> replies.reply(even, ReplyBody.of(EventBodies.text("even")))).start();
      ranks.forEach(
          rank -> {
            if (rank % 2 == 1) {
              new Thread(() -> replies.reply(rank, ReplyBody.of(EventBodies.text("odd")))).start();
            }
          });
    }

    @Override
    public void subscribe(EventSink events) {}

    @Override
    public void close() {}
  }

  @Test
  void answersThatComeLaterFromOtherThreadsMergeAtTheNode() {
    TestProbe<ServerNode.Up> parent = testKit.createTestProbe();
    RankBlocks blocks = new RankBlocks(40, 10);
    ActorRef<ServerNode.Command> root =
        testKit.spawn(
            ServerNode.embedded(
                FabricConfig.defaults(), blocks, node -> new AnswersLater(), parent.ref()));
    root.tell(new ServerNode.Execute(1, RankSet.all(40), 0, PRINT_X));
    ServerNode.Replies r = parent.expectMessageClass(ServerNode.Replies.class, WAIT);
    Map<EventBody, RankSet> byBody = new HashMap<>();
    r.groups()
        .forEach(g -> byBody.merge(CanonicalBytes.eventBody(g.body()), g.ranks(), RankSet::union));
    assertEquals(2, r.groups().size(), "one group per distinct answer: " + r.groups());
    assertEquals(
        RankSet.of(RankSet.all(40).stream().filter(x -> x % 2 == 0).toArray()),
        byBody.get(EventBodies.text("even")));
    assertEquals(
        RankSet.of(RankSet.all(40).stream().filter(x -> x % 2 == 1).toArray()),
        byBody.get(EventBodies.text("odd")));
  }

  private static void stopChild(Tree t, String name) {
    org.apache.pekko.actor.ActorRef classic =
        org.apache.pekko.actor.typed.javadsl.Adapter.toClassic(t.root());
    org.apache.pekko.actor.typed.javadsl.Adapter.toClassic(testKit.system())
        .actorSelection(classic.path() + "/" + name)
        .tell(
            org.apache.pekko.actor.PoisonPill.getInstance(),
            org.apache.pekko.actor.ActorRef.noSender());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 8})
  void aThousandCommandsInFlightEachCompleteExactlyOnce(int perNode) {
    int ranks = 64;
    Tree t =
        tree(ranks, perNode, (rank, cmd) -> EventBodies.text(cmd.getEvaluate().getExpression()));
    Map<Long, RankSet> dests = new HashMap<>();
    for (long id = 1; id <= 1000; id++) {
      RankSet dest =
          id % 3 == 0
              ? RankSet.all(ranks)
              : id % 3 == 1
                  ? RankSet.of((int) (id % ranks))
                  : RankSet.range(0, (int) (id % ranks) + 1);
      dests.put(id, dest);
      CommandBody body = Commands.evaluate("e" + id);
      t.root().tell(new ServerNode.Execute(id, dest, 0, body));
    }
    Map<Long, RankSet> covered = new HashMap<>();
    int done = 0;
    while (done < 1000) {
      ServerNode.Replies r = t.parent().expectMessageClass(ServerNode.Replies.class, WAIT);
      for (ReplyGroup g : r.groups()) {
        assertEquals("e" + r.id(), CanonicalBytes.eventBody(g.body()).getText().getText());
        RankSet before = covered.getOrDefault(r.id(), RankSet.empty());
        assertTrue(before.intersect(g.ranks()).isEmpty());
        covered.put(r.id(), before.union(g.ranks()));
      }
      if (covered.get(r.id()).equals(dests.get(r.id()))) {
        done++;
      }
    }
    assertEquals(dests, covered);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 16})
  void unsolicitedEventsFromManyRanksMergeWithinTheWindow(int perNode) {
    int ranks = 64;
    Tree t =
        tree(
            ranks,
            perNode,
            FabricConfig.defaults().withEventWindow(Duration.ofMillis(300)),
            ScriptedBackend::ok,
            Map.of());
    t.root().tell(new ServerNode.Execute(1, RankSet.all(ranks), 0, PRINT_X));
    t.parent().expectMessageClass(ServerNode.Replies.class, WAIT);
    EventBody stopped = EventBodies.text("stopped at main");
    t.backends().values().forEach(b -> b.report(stopped));
    RankSet seen = RankSet.empty();
    int messages = 0;
    while (seen.size() < ranks) {
      ServerNode.Events e = t.parent().expectMessageClass(ServerNode.Events.class, WAIT);
      messages++;
      assertEquals(1, e.groups().size());
      assertEquals(stopped, CanonicalBytes.eventBody(e.groups().get(0).body()));
      seen = seen.union(e.groups().get(0).ranks());
    }
    assertEquals(RankSet.all(ranks), seen);
    // Reported together, they meet on the way up: one message at the master, but allow for a
    // pause of the machine splitting them.
    assertTrue(messages <= 3, "64 identical events came as " + messages + " messages");
  }

  // A step's stops go up as soon as the last rank it set running has stopped: the window here is
  // an hour, so only that rule can bring them within the test's wait.

  private static final FabricConfig HOUR_WINDOW =
      FabricConfig.defaults().withEventWindow(Duration.ofHours(1));
  private static final EventBody STEPPED =
      EventBodies.event(
          new DebugEvent.Stopped(StopReason.END_STEPPING_RANGE, "", Frame.UNKNOWN, 1, 0));

  /** The ranks of the events that come up until they cover {@code ranks}. */
  private static void expectStops(Tree t, RankSet ranks) {
    RankSet seen = RankSet.empty();
    while (!seen.equals(ranks)) {
      ServerNode.Events e = t.parent().expectMessageClass(ServerNode.Events.class, WAIT);
      for (ReplyGroup g : e.groups()) {
        if (CanonicalBytes.kindOf(g.body()) == EventBody.KindCase.SUSPENDED) {
          seen = seen.union(g.ranks());
        }
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 16})
  void theStopsOfRanksAStepSetRunningGoUpWhenTheLastHasStoppedNotAtTheWindow(int perNode) {
    int ranks = 64;
    Tree t = tree(ranks, perNode, HOUR_WINDOW, (r, c) -> EventBodies.running(), Map.of());
    t.root().tell(new ServerNode.Execute(1, RankSet.all(ranks), 0, Commands.step(StepKind.OVER)));
    await(t, 1, RankSet.all(ranks));
    t.backends().values().forEach(b -> b.report(STEPPED));
    expectStops(t, RankSet.all(ranks));
  }

  @Test
  void stopsWaitForTheWindowWhileARankTheStepAddressedStillRuns() {
    Tree t = tree(8, 1, HOUR_WINDOW, (r, c) -> EventBodies.running(), Map.of());
    t.root().tell(new ServerNode.Execute(1, RankSet.range(0, 4), 0, Commands.go()));
    await(t, 1, RankSet.range(0, 4));
    for (int rank = 0; rank < 3; rank++) {
      t.backends().get(rank).report(STEPPED);
    }
    t.parent().expectNoMessage(Duration.ofMillis(300));
    t.backends().get(3).report(STEPPED);
    expectStops(t, RankSet.range(0, 4));
    // A stop that no command asked for (rank 6 was not resumed) waits for its window.
    t.backends().get(6).report(STEPPED);
    t.parent().expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void aRankThatAnswersTheStepWithAnErrorIsNotAwaited() {
    Tree t =
        tree(
            8,
            2,
            HOUR_WINDOW,
            (r, c) ->
                r == 5 ? EventBodies.error("The program is not being run.") : EventBodies.running(),
            Map.of());
    t.root().tell(new ServerNode.Execute(1, RankSet.all(8), 0, Commands.step(StepKind.INTO)));
    await(t, 1, RankSet.all(8));
    for (int rank = 0; rank < 8; rank++) {
      if (rank != 5) {
        t.backends().get(rank).report(STEPPED);
      }
    }
    expectStops(t, RankSet.all(8).minus(RankSet.of(5)));
  }

  @Test
  void ranksLostMidStepAreNotAwaited() {
    Tree t = tree(4, 1, HOUR_WINDOW, (r, c) -> EventBodies.running(), Map.of());
    t.root().tell(new ServerNode.Execute(1, RankSet.all(4), 0, Commands.step(StepKind.RETURN)));
    await(t, 1, RankSet.all(4));
    for (int rank = 0; rank < 3; rank++) {
      t.backends().get(rank).report(STEPPED);
    }
    stopChild(t, "n4"); // rank 3's node (node 0 is the root)
    assertEquals(
        RankSet.of(3), t.parent().expectMessageClass(ServerNode.RanksLost.class, WAIT).ranks());
    expectStops(t, RankSet.of(0, 1, 2));
  }
}
