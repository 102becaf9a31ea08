package io.sdmfabric.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.CanonicalBytes;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.Protos;
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

  private static Tree tree(
      int ranks,
      FabricConfig config,
      BiFunction<Integer, CommandBody, EventBody> replies,
      Map<Integer, CompletableFuture<Void>> held) {
    TestProbe<ServerNode.Up> parent = testKit.createTestProbe();
    Set<Integer> executed = ScriptedBackend.newLog();
    Map<Integer, ScriptedBackend> backends = new java.util.concurrent.ConcurrentHashMap<>();
    ActorRef<ServerNode.Command> root =
        testKit.spawn(
            ServerNode.embedded(
                config,
                0,
                ranks + 1,
                rank -> {
                  ScriptedBackend b =
                      new ScriptedBackend(
                          rank,
                          replies,
                          held.getOrDefault(rank, CompletableFuture.completedFuture(null)),
                          executed);
                  backends.put(rank, b);
                  return b;
                },
                parent.ref()));
    return new Tree(root, parent, executed, backends, config);
  }

  private static Tree tree(int ranks, BiFunction<Integer, CommandBody, EventBody> replies) {
    return tree(ranks, FabricConfig.defaults(), replies, Map.of());
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
  @ValueSource(ints = {1, 2, 3, 7, 8, 9, 1000})
  void identicalRepliesFromEveryRankArriveAsOneGroup(int ranks) {
    Tree t = tree(ranks, ScriptedBackend::ok);
    t.root().tell(new ServerNode.Execute(1, RankSet.all(ranks), 0, PRINT_X));
    ServerNode.Replies r = t.parent().expectMessageClass(ServerNode.Replies.class, WAIT);
    List<ReplyGroup> all =
        List.of(new ReplyGroup(RankSet.all(ranks), CanonicalBytes.of(Protos.ok())));
    assertEquals(all, r.groups());
    // A fence: the next command's reply must be the next message, since every node answers the
    // first command before the second. A stray reply to the first would come before it.
    t.root().tell(new ServerNode.Execute(2, RankSet.all(ranks), 0, PRINT_X));
    assertEquals(
        new ServerNode.Replies(2, all), t.parent().expectMessageClass(ServerNode.Up.class, WAIT));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 7, 8, 9, 1000})
  void distinctRepliesKeepEveryRankOnce(int ranks) {
    Tree t = tree(ranks, ScriptedBackend::byRank);
    t.root().tell(new ServerNode.Execute(7, RankSet.all(ranks), 0, PRINT_X));
    Map<EventBody, RankSet> byBody = await(t, 7, RankSet.all(ranks));
    assertEquals(ranks, byBody.size());
    byBody.forEach((body, set) -> assertEquals("rank " + set.first(), body.getText().getText()));
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

  @Test
  void commandsReachOnlyTheirDestinationAndTheSubtreesOnTheWay() {
    int ranks = 1000;
    for (RankSet dest : List.of(RankSet.of(517), RankSet.of(1, 17, 400, 999), RankSet.all(ranks))) {
      Tree t = tree(ranks, ScriptedBackend::ok);
      long before = t.config().messagesSent().sum();
      t.root().tell(new ServerNode.Execute(3, dest, 0, PRINT_X));
      assertEquals(dest, await(t, 3, dest).values().iterator().next());
      assertEquals(dest, RankSet.of(t.executed().stream().mapToInt(i -> i).toArray()));
      long messages = t.config().messagesSent().sum() - before;
      if (dest.size() == 1) {
        // Down the path to the rank and back up: at most twice the depth.
        assertTrue(messages <= 2L * BinomialTree.depth(ranks + 1), messages + " messages");
      }
    }
  }

  @Test
  void differentBodiesForcedIntoOneHashBucketDoNotMerge() {
    FabricConfig collide = FabricConfig.defaults().withHasher(bytes -> 42);
    Tree t =
        tree(
            9,
            collide,
            (rank, cmd) -> Protos.text(rank % 3 == 0 ? "zero" : rank % 3 == 1 ? "one" : "two"),
            Map.of());
    t.root().tell(new ServerNode.Execute(1, RankSet.all(9), 0, PRINT_X));
    Map<EventBody, RankSet> byBody = await(t, 1, RankSet.all(9));
    assertEquals(3, byBody.size());
    assertEquals(RankSet.of(0, 3, 6), byBody.get(Protos.text("zero")));
    assertEquals(RankSet.of(1, 4, 7), byBody.get(Protos.text("one")));
  }

  @Test
  void aTimeoutFlushesPartialRepliesAndTheStragglerFollows() {
    CompletableFuture<Void> slow = new CompletableFuture<>();
    Tree t = tree(8, FabricConfig.defaults(), ScriptedBackend::ok, Map.of(5, slow));
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

  @Test
  void everyPendingCommandHasItsOwnTimeoutNotOnlyTheOldest() {
    CompletableFuture<Void> slow = new CompletableFuture<>();
    Tree t = tree(8, FabricConfig.defaults(), ScriptedBackend::ok, Map.of(5, slow));
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
    assertEquals(RankSet.range(3, 7), byBody.get(Protos.rankLost()));
    assertEquals(RankSet.of(0, 1, 2, 7), byBody.get(Protos.ok()));
    assertEquals(RankSet.range(3, 7), lost);
    // Later commands to the lost ranks are answered at once.
    t.root().tell(new ServerNode.Execute(5, RankSet.of(4, 7), 0, PRINT_X));
    Map<EventBody, RankSet> after = await(t, 5, RankSet.of(4, 7));
    assertEquals(RankSet.of(4), after.get(Protos.rankLost()));
  }

  private static void stopChild(Tree t, String name) {
    org.apache.pekko.actor.ActorRef classic =
        org.apache.pekko.actor.typed.javadsl.Adapter.toClassic(t.root());
    org.apache.pekko.actor.typed.javadsl.Adapter.toClassic(testKit.system())
        .actorSelection(classic.path().child(name))
        .tell(
            org.apache.pekko.actor.PoisonPill.getInstance(),
            org.apache.pekko.actor.ActorRef.noSender());
  }

  @Test
  void aThousandCommandsInFlightEachCompleteExactlyOnce() {
    int ranks = 64;
    Tree t = tree(ranks, (rank, cmd) -> Protos.text(cmd.getEvaluate().getExpression()));
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

  @Test
  void unsolicitedEventsFromManyRanksMergeWithinTheWindow() {
    int ranks = 64;
    Tree t =
        tree(
            ranks,
            FabricConfig.defaults().withEventWindow(Duration.ofMillis(300)),
            ScriptedBackend::ok,
            Map.of());
    t.root().tell(new ServerNode.Execute(1, RankSet.all(ranks), 0, PRINT_X));
    t.parent().expectMessageClass(ServerNode.Replies.class, WAIT);
    EventBody stopped = Protos.text("stopped at main");
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
}
