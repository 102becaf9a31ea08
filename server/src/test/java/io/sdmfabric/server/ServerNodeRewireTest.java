package io.sdmfabric.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.CanonicalBytes;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A wired (detached) tree rewired around a dead node, as the master's rendezvous does: commands in
 * flight complete, and later ones reach the live ranks below the dead node.
 */
class ServerNodeRewireTest {
  private static final ActorTestKit testKit = ActorTestKit.create(TreeTestKit.serializing());
  private static final CommandBody PRINT_X = Commands.evaluate("x");
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final FabricConfig CONFIG = FabricConfig.defaults();
  private static final EventBody LOST = EventBodies.rankLost();
  private static final EventBody REPLY_LOST = EventBodies.error(ServerNode.REPLY_LOST);

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** A node serving one rank, {@code rank}, its reply held until {@code release}. */
  private static ActorRef<ServerNode.Command> node(int rank, CompletableFuture<Void> release) {
    return node(rank, release, ScriptedBackend.newLog());
  }

  private static ActorRef<ServerNode.Command> node(
      int rank, CompletableFuture<Void> release, Set<Integer> executed) {
    return testKit.spawn(
        ServerNode.detached(
            CONFIG,
            RankBackends.of(
                RankSet.of(rank),
                r -> new ScriptedBackend(r, ScriptedBackend::ok, release, executed))));
  }

  /** Node {@code node} of a tree of four nodes serving ranks 0-3, one each. */
  private static ChildLink link(ActorRef<ServerNode.Command> ref, int node) {
    int end = BinomialTree.subtreeEnd(node, 5);
    return new ChildLink(ref, node, end, RankSet.range(node - 1, end - 1));
  }

  private static ServerNode.Attach attach(
      ActorRef<ServerNode.Command> to,
      int node,
      ActorRef<ServerNode.Up> parent,
      List<ChildLink> children) {
    return new ServerNode.Attach(
        to, node, node == 0 ? RankSet.empty() : RankSet.of(node - 1), parent, children);
  }

  /** Collects replies to {@code id} until they cover {@code dest}; no rank may come twice. */
  private static Map<EventBody, RankSet> await(TestProbe<ServerNode.Up> up, long id, RankSet dest) {
    Map<EventBody, RankSet> byBody = new HashMap<>();
    RankSet covered = RankSet.empty();
    while (!covered.equals(dest)) {
      ServerNode.Replies r = up.expectMessageClass(ServerNode.Replies.class, WAIT);
      assertEquals(id, r.id());
      for (ReplyGroup g : r.groups()) {
        assertTrue(g.ranks().intersect(covered).isEmpty(), "a rank replied twice: " + g);
        covered = covered.union(g.ranks());
        byBody.merge(CanonicalBytes.eventBody(g.body()), g.ranks(), RankSet::union);
      }
    }
    return byBody;
  }

  @Test
  void aCommandInFlightGivesUpTheDeadChildsRanksAndLaterOnesRouteThroughItsStandIn() {
    // Four ranks: the root's children are nodes 1, 2 and 4; node 2 (rank 1) has node 3 (rank 2).
    TestProbe<ServerNode.Up> up = testKit.createTestProbe();
    CompletableFuture<Void> now = CompletableFuture.completedFuture(null);
    ActorRef<ServerNode.Command> root = testKit.spawn(ServerNode.detached(CONFIG, null));
    ActorRef<ServerNode.Command> n1 = node(0, now);
    ActorRef<ServerNode.Command> n2 = node(1, new CompletableFuture<>());
    ActorRef<ServerNode.Command> n3 = node(2, now);
    ActorRef<ServerNode.Command> n4 = node(3, now);
    root.tell(attach(root, 0, up.ref(), List.of(link(n1, 1), link(n2, 2), link(n4, 4))));
    n1.tell(attach(n1, 1, root.narrow(), List.of()));
    n2.tell(attach(n2, 2, root.narrow(), List.of(link(n3, 3))));
    n3.tell(attach(n3, 3, n2.narrow(), List.of()));
    n4.tell(attach(n4, 4, root.narrow(), List.of()));

    // Rank 1 never answers; rank 2's reply waits in node 2 when node 2 dies.
    root.tell(new ServerNode.Execute(1, RankSet.all(4), 0, PRINT_X));
    testKit.stop(n2, WAIT);

    // The rendezvous' part: a stand-in answering "lost" in node 2's place, and new routing.
    ActorRef<ServerNode.Command> standIn =
        testKit.spawn(ServerNode.detached(CONFIG, UnavailableRanks.lost()));
    standIn.tell(attach(standIn, 2, root.narrow(), List.of(link(n3, 3))));
    n3.tell(new ServerNode.Rewire(n3, standIn.narrow(), List.of(), RankSet.of(1)));
    root.tell(
        new ServerNode.Rewire(
            root, up.ref(), List.of(link(n1, 1), link(standIn, 2), link(n4, 4)), RankSet.of(1)));

    Map<EventBody, RankSet> inFlight = await(up, 1, RankSet.all(4));
    assertEquals(RankSet.of(0, 3), inFlight.get(EventBodies.ok()));
    assertEquals(RankSet.of(1), inFlight.get(LOST));
    assertEquals(RankSet.of(2), inFlight.get(REPLY_LOST));

    root.tell(new ServerNode.Execute(2, RankSet.all(4), 0, PRINT_X));
    Map<EventBody, RankSet> after = await(up, 2, RankSet.all(4));
    assertEquals(RankSet.of(0, 2, 3), after.get(EventBodies.ok()));
    assertEquals(RankSet.of(1), after.get(LOST));
  }

  @Test
  void routingMeantForAnotherNodeIsRefused() {
    TestProbe<ServerNode.Up> parent = testKit.createTestProbe();
    TestProbe<ServerNode.Up> stranger = testKit.createTestProbe();
    ActorRef<ServerNode.Command> leaf = node(2, CompletableFuture.completedFuture(null));
    ActorRef<ServerNode.Command> other = node(4, CompletableFuture.completedFuture(null));
    // Another node's wiring and rewiring, replayed to this one: refused, so it stays unwired and
    // then is wired by its own Attach.
    leaf.tell(new ServerNode.Attach(other, 5, RankSet.of(2), stranger.ref(), List.of()));
    leaf.tell(attach(leaf, 3, parent.ref(), List.of()));
    leaf.tell(new ServerNode.Rewire(other, stranger.ref(), List.of(), RankSet.empty()));
    leaf.tell(new ServerNode.Execute(9, RankSet.of(2), 0, PRINT_X));
    List<ReplyGroup> ok =
        List.of(new ReplyGroup(RankSet.of(2), CanonicalBytes.of(EventBodies.ok())));
    assertEquals(
        new ServerNode.Replies(parent.ref(), 9, ok),
        parent.expectMessageClass(ServerNode.Replies.class, WAIT));
    stranger.expectNoMessage(Duration.ofMillis(200));
  }

  /** One group of {@code ranks} answering the text {@code text}. */
  private static List<ReplyGroup> saying(RankSet ranks, String text) {
    return List.of(new ReplyGroup(ranks, CanonicalBytes.of(EventBodies.text(text))));
  }

  /**
   * Over aeron-udp an eavesdropper can copy a sealed reply from one JVM's traffic and give it to
   * another JVM of the session, whose seal has not seen it. Replies name the node they are for: a
   * copy meant for another node is refused, before the node is wired (it is not kept for later) and
   * after (it is not merged into the command it awaits); the node's own replies are merged once.
   */
  @Test
  void repliesMeantForAnotherNodeAreRefusedAndTheNodesOwnAreMergedOnce() {
    TestProbe<ServerNode.Up> parent = testKit.createTestProbe();
    TestProbe<ServerNode.Command> child = testKit.createTestProbe();
    ActorRef<ServerNode.Command> root = testKit.spawn(ServerNode.detached(CONFIG, null));
    ActorRef<ServerNode.Command> other = node(4, CompletableFuture.completedFuture(null));
    root.tell(new ServerNode.Replies(other.narrow(), 1, saying(RankSet.of(0, 1), "early copy")));
    root.tell(
        attach(root, 0, parent.ref(), List.of(new ChildLink(child.ref(), 1, 3, RankSet.of(0, 1)))));
    root.tell(new ServerNode.Execute(1, RankSet.of(0, 1), 0, PRINT_X));
    child.expectMessageClass(ServerNode.Execute.class, WAIT);
    // Another node's replies to the same command: were they merged, they would complete it.
    root.tell(new ServerNode.Replies(other.narrow(), 1, saying(RankSet.of(0, 1), "copy")));
    root.tell(new ServerNode.Replies(root.narrow(), 1, saying(RankSet.of(0, 1), "own")));
    assertEquals(
        new ServerNode.Replies(parent.ref(), 1, saying(RankSet.of(0, 1), "own")),
        parent.expectMessageClass(ServerNode.Up.class, WAIT));
    // Nor does a copy go on as a straggler once the command is complete.
    root.tell(new ServerNode.Replies(other.narrow(), 1, saying(RankSet.of(0, 1), "late copy")));
    parent.expectNoMessage(Duration.ofMillis(300));
  }

  /** As for replies: events and lost ranks meant for another node are refused, its own go on. */
  @Test
  void eventsAndLostRanksMeantForAnotherNodeAreRefusedAndTheNodesOwnGoOnOnce() {
    TestProbe<ServerNode.Up> parent = testKit.createTestProbe();
    TestProbe<ServerNode.Command> child = testKit.createTestProbe();
    Duration window = Duration.ofMillis(50);
    ActorRef<ServerNode.Command> root =
        testKit.spawn(ServerNode.detached(CONFIG.withEventWindow(window), null));
    ActorRef<ServerNode.Command> other = node(4, CompletableFuture.completedFuture(null));
    root.tell(
        attach(root, 0, parent.ref(), List.of(new ChildLink(child.ref(), 1, 3, RankSet.of(0, 1)))));
    root.tell(new ServerNode.Events(other.narrow(), saying(RankSet.of(0), "copy"), 0));
    root.tell(new ServerNode.RanksLost(other.narrow(), RankSet.of(0), "copy"));
    root.tell(new ServerNode.Events(root.narrow(), saying(RankSet.of(1), "own"), 0));
    root.tell(new ServerNode.RanksLost(root.narrow(), RankSet.of(1), "own"));
    assertEquals(
        new ServerNode.RanksLost(parent.ref(), RankSet.of(1), "own"),
        parent.expectMessageClass(ServerNode.Up.class, WAIT));
    ServerNode.Events events = parent.expectMessageClass(ServerNode.Events.class, WAIT);
    assertEquals(parent.ref(), events.to());
    assertEquals(saying(RankSet.of(1), "own"), events.groups());
    // Nothing more: the copies were not held for a later batch.
    parent.expectNoMessage(window.multipliedBy(6));
  }

  @Test
  void aRewiredNodeKeepsItsPendingCommandAndAnswersItsNewParent() {
    TestProbe<ServerNode.Up> oldParent = testKit.createTestProbe();
    TestProbe<ServerNode.Up> newParent = testKit.createTestProbe();
    CompletableFuture<Void> release = new CompletableFuture<>();
    Set<Integer> executed = ScriptedBackend.newLog();
    ActorRef<ServerNode.Command> leaf = node(2, release, executed);
    leaf.tell(attach(leaf, 3, oldParent.ref(), List.of()));
    leaf.tell(new ServerNode.Execute(7, RankSet.of(2), 0, PRINT_X));
    leaf.tell(new ServerNode.Rewire(leaf, newParent.ref(), List.of(), RankSet.of(1)));
    // Released only once the command is pending in the node: its reply then queues behind the
    // Rewire. Released earlier, the reply is ready as the command arrives and goes out at once.
    newParent.awaitAssert(
        WAIT,
        Duration.ofMillis(1),
        () -> {
          assertTrue(executed.contains(2), "the command has not reached the backend");
          return null;
        });
    release.complete(null);
    List<ReplyGroup> ok =
        List.of(new ReplyGroup(RankSet.of(2), CanonicalBytes.of(EventBodies.ok())));
    assertEquals(
        new ServerNode.Replies(newParent.ref(), 7, ok),
        newParent.expectMessageClass(ServerNode.Replies.class, WAIT));
    // A fence for the old parent: wired back to it, the node's next reply goes there, after
    // anything the node sent it before. Nothing must come before it.
    leaf.tell(new ServerNode.Rewire(leaf, oldParent.ref(), List.of(), RankSet.of(1)));
    leaf.tell(new ServerNode.Execute(8, RankSet.of(2), 0, PRINT_X));
    assertEquals(
        new ServerNode.Replies(oldParent.ref(), 8, ok),
        oldParent.expectMessageClass(ServerNode.Up.class, WAIT));
  }
}
