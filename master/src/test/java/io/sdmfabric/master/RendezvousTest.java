package io.sdmfabric.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.RankBackend;
import io.sdmfabric.server.ReplyBody;
import io.sdmfabric.server.ServerNode;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.SessionSecret;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A distributed session whose "agents" are actors of this JVM, every message serialized: the tree
 * is repaired around servers that stop.
 *
 * <p>Eight ranks: node r + 1 serves rank r; node 4 (rank 3) has nodes 5 and 6 below it (ranks 4 and
 * 5), and node 6 has node 7 (rank 6). Agent B serves ranks 3 and 5, whose children live in agent C
 * (ranks 4, 6, 7); agent A has ranks 0-2.
 */
class RendezvousTest {
  private static final ActorTestKit testKit =
      ActorTestKit.create(
          ConfigFactory.parseString("pekko.actor.serialize-messages = on")
              .withFallback(ConfigFactory.load()));
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final int SIZE = 8;
  private static final RankSet AGENT_B = RankSet.of(3, 5);
  private static final EventBody LOST = Protos.rankLost();
  private static final CommandBody PRINT_RANK = Commands.evaluate("r");
  private static int sessions;

  private final SessionSecret secret = SessionSecret.random();
  private final Map<Integer, CompletableFuture<Void>> held = new HashMap<>();
  private final Map<Integer, ActorRef<ServerNode.Command>> servers = new HashMap<>();
  private ActorRef<Session.Command> session;
  private TestProbe<SessionEvent> events;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** Answers every command with its rank's text, once released. */
  private record Rank(int rank, CompletableFuture<Void> release) implements RankBackend {
    @Override
    public CompletionStage<ReplyBody> execute(CommandBody command) {
      return release.thenApply(v -> ReplyBody.of(text(rank)));
    }

    @Override
    public void subscribe(Consumer<EventBody> events) {}

    @Override
    public void close() {}
  }

  private static EventBody text(int rank) {
    return Protos.text("rank " + rank);
  }

  /** Starts the session and its three agents, and waits for the tree. */
  private void start() {
    int n = ++sessions;
    ActorRef<Rendezvous.Command> rendezvous =
        startSession(Session.distributed(SIZE, FabricConfig.defaults(), WAIT, secret), n);
    agent(rendezvous, "A-" + n, RankSet.range(0, 3));
    agent(rendezvous, "B-" + n, AGENT_B);
    agent(rendezvous, "C-" + n, RankSet.of(4, 6, 7));
    assertEquals(
        RankSet.empty(), events.expectMessageClass(SessionEvent.TreeReady.class, WAIT).missing());
  }

  /** Starts a session, subscribes to its events, and finds its rendezvous. */
  private ActorRef<Rendezvous.Command> startSession(Behavior<Session.Command> behavior, int n) {
    session = testKit.spawn(behavior, "session-" + n);
    events = testKit.createTestProbe();
    session.tell(new Session.Subscribe(events.ref()));
    // Once the session has answered something, it has made its rendezvous.
    TestProbe<SessionEvent> started = testKit.createTestProbe();
    session.tell(new Session.Submit(PRINT_RANK, RankSet.empty(), Duration.ZERO, started.ref()));
    started.expectMessageClass(SessionEvent.Rejected.class, WAIT);
    return Adapter.toTyped(
        Adapter.toClassic(testKit.system())
            .actorSelection(Adapter.toClassic(session).path().child(Session.RENDEZVOUS))
            .resolveOne(WAIT)
            .toCompletableFuture()
            .join());
  }

  private void agent(ActorRef<Rendezvous.Command> rendezvous, String name, RankSet ranks) {
    Map<Integer, ActorRef<ServerNode.Command>> nodes = new HashMap<>();
    ranks.forEach(
        rank -> {
          CompletableFuture<Void> release =
              held.getOrDefault(rank, CompletableFuture.completedFuture(null));
          ActorRef<ServerNode.Command> node =
              testKit.spawn(
                  ServerNode.detached(FabricConfig.defaults(), rank + 1, new Rank(rank, release)),
                  name + "-rank-" + rank);
          nodes.put(rank, node);
          servers.put(rank, node);
        });
    rendezvous.tell(register(name, nodes, challenge(rendezvous, name), 1, secret));
  }

  /** Knocks as agent {@code name}; the challenge's nonce. */
  private static byte[] challenge(ActorRef<Rendezvous.Command> rendezvous, String name) {
    TestProbe<Rendezvous.Challenge> door = testKit.createTestProbe();
    rendezvous.tell(new Rendezvous.Knock(name, door.ref()));
    return door.expectMessageClass(Rendezvous.Challenge.class, WAIT).nonce();
  }

  private static Rendezvous.Register register(
      String name,
      Map<Integer, ActorRef<ServerNode.Command>> nodes,
      byte[] nonce,
      long counter,
      SessionSecret key) {
    Map<Integer, String> refs = new HashMap<>();
    ActorRefResolver resolver = ActorRefResolver.get(testKit.system());
    nodes.forEach((rank, ref) -> refs.put(rank, resolver.toSerializationFormat(ref)));
    return new Rendezvous.Register(
        name, nodes, counter, Rendezvous.proof(key, nonce, name, counter, refs));
  }

  @Test
  void aRegistrationIsRefusedUnlessItProvesTheSecretAgainstTheAgentsLatestChallengeOnce() {
    int n = ++sessions;
    ActorRef<Rendezvous.Command> rendezvous =
        startSession(
            Session.distributed(4, FabricConfig.defaults(), Duration.ofSeconds(3), secret), n);
    Map<Integer, ActorRef<ServerNode.Command>> nodes = new HashMap<>();
    for (int rank = 0; rank < 4; rank++) {
      nodes.put(
          rank,
          testKit.spawn(
              ServerNode.detached(
                  FabricConfig.defaults(),
                  rank + 1,
                  new Rank(rank, CompletableFuture.completedFuture(null))),
              "refused-" + n + "-rank-" + rank));
    }
    String name = "agent-" + n;
    byte[] old = challenge(rendezvous, name);
    byte[] latest = challenge(rendezvous, name);
    // Rank 0 against an old challenge (a registration recorded and replayed later), rank 1 with
    // another session's secret, rank 2 with no challenge at all (zeros), rank 3 as it should.
    rendezvous.tell(register(name, Map.of(0, nodes.get(0)), old, 1, secret));
    rendezvous.tell(register(name, Map.of(1, nodes.get(1)), latest, 1, SessionSecret.random()));
    rendezvous.tell(register("never-knocked", Map.of(2, nodes.get(2)), new byte[32], 1, secret));
    Rendezvous.Register good = register(name, Map.of(3, nodes.get(3)), latest, 1, secret);
    rendezvous.tell(good);
    // The same registration again, for rank 0 this time: its proof names rank 3, so it fails.
    rendezvous.tell(
        new Rendezvous.Register(name, Map.of(0, nodes.get(0)), good.counter(), good.proof()));
    // And a counter used before, properly proved: refused too.
    rendezvous.tell(register(name, Map.of(0, nodes.get(0)), latest, 1, secret));

    assertEquals(
        RankSet.range(0, 3),
        events.expectMessageClass(SessionEvent.TreeReady.class, WAIT).missing());
  }

  private void killAgentB() {
    AGENT_B.forEach(rank -> testKit.stop(servers.get(rank), WAIT));
  }

  /** Waits for the lost ranks to add up to agent B's, each reported once. */
  private void expectAgentBLost() {
    RankSet lost = RankSet.empty();
    while (!lost.equals(AGENT_B)) {
      RankSet more = events.expectMessageClass(SessionEvent.RanksLost.class, WAIT).ranks();
      assertTrue(more.intersect(lost).isEmpty(), "reported twice: " + more);
      lost = lost.union(more);
      assertTrue(AGENT_B.containsAll(lost), "not agent B's ranks: " + lost);
    }
  }

  private TestProbe<SessionEvent> submit(CommandBody body) {
    TestProbe<SessionEvent> probe = testKit.createTestProbe();
    session.tell(new Session.Submit(body, RankSet.all(SIZE), Duration.ZERO, probe.ref()));
    probe.expectMessageClass(SessionEvent.Accepted.class, WAIT);
    return probe;
  }

  private static Map<EventBody, RankSet> replies(TestProbe<SessionEvent> probe) {
    Map<EventBody, RankSet> replies = new HashMap<>();
    while (true) {
      SessionEvent e = probe.expectMessageClass(SessionEvent.class, WAIT);
      if (e instanceof SessionEvent.Completed) {
        return replies;
      }
      SessionEvent.Reply r = (SessionEvent.Reply) e;
      replies.merge(r.body(), r.ranks(), RankSet::union);
    }
  }

  private static void assertSurvivorsAnswer(Map<EventBody, RankSet> replies) {
    assertEquals(AGENT_B, replies.get(LOST), replies.toString());
    List<Integer> survivors = new ArrayList<>();
    RankSet.all(SIZE).minus(AGENT_B).forEach(survivors::add);
    for (int rank : survivors) {
      assertEquals(RankSet.of(rank), replies.get(text(rank)), replies.toString());
    }
    assertEquals(survivors.size() + 1, replies.size(), replies.toString());
  }

  @Test
  void aSessionOfSomeRanksIsWiredOnceTheyRegisterAndTheOthersAnswerNotAttached() {
    int n = ++sessions;
    RankSet attached = RankSet.of(5, 9);
    // A wire-up timeout far beyond the test's bounds: the tree must not wait for it.
    ActorRef<Rendezvous.Command> rendezvous =
        startSession(
            Session.distributed(16, attached, FabricConfig.defaults(), Duration.ofHours(1), secret),
            n);
    agent(rendezvous, "A-" + n, RankSet.of(3)); // not expected: ignored
    agent(rendezvous, "B-" + n, RankSet.of(5));
    agent(rendezvous, "C-" + n, RankSet.of(9));
    // C's registration is the fence: a tree wired before it would have been reported ready first,
    // with rank 9 missing, and C would have been turned away.
    assertEquals(
        RankSet.empty(), events.expectMessageClass(SessionEvent.TreeReady.class, WAIT).missing());

    TestProbe<SessionEvent> probe = testKit.createTestProbe();
    session.tell(new Session.Submit(PRINT_RANK, RankSet.all(16), Duration.ZERO, probe.ref()));
    probe.expectMessageClass(SessionEvent.Accepted.class, WAIT);
    Map<EventBody, RankSet> replies = replies(probe);
    assertEquals(
        Map.of(
            text(5),
            RankSet.of(5),
            text(9),
            RankSet.of(9),
            Protos.error(Protos.NOT_ATTACHED),
            RankSet.all(16).minus(attached)),
        replies);
  }

  @Test
  void expectedRanksMustBeSomeOfTheJobs() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            Session.distributed(
                4, RankSet.of(4), FabricConfig.defaults(), Duration.ofSeconds(1), secret));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            Session.distributed(
                4, RankSet.empty(), FabricConfig.defaults(), Duration.ofSeconds(1), secret));
  }

  @Test
  void onlyADeadAgentsRanksAreLostAndTheRanksBelowThemStillAnswer() {
    start();
    assertEquals(SIZE, replies(submit(PRINT_RANK)).size());
    killAgentB();
    expectAgentBLost();
    assertSurvivorsAnswer(replies(submit(PRINT_RANK)));
    assertSurvivorsAnswer(replies(submit(PRINT_RANK)));
    // A fence: an event published now must be the next one; a second report of lost ranks
    // would come before it.
    EventBody fence = Protos.text("fence");
    session.tell(new Session.Publish(RankSet.of(0), fence));
    assertEquals(
        new SessionEvent.Unsolicited(RankSet.of(0), fence),
        events.expectMessageClass(SessionEvent.class, WAIT));
  }

  @Test
  void aCommandInFlightWhenAnAgentDiesCompletesAndTheSurvivorsAnswerTheNextOne() {
    // Rank 3 (agent B) and rank 4 below it (agent C) have not answered when B dies.
    CompletableFuture<Void> rank4 = new CompletableFuture<>();
    held.put(3, new CompletableFuture<>());
    held.put(4, rank4);
    start();
    TestProbe<SessionEvent> inFlight = submit(PRINT_RANK);
    killAgentB();
    expectAgentBLost();
    Map<EventBody, RankSet> replies = replies(inFlight);
    assertEquals(AGENT_B, replies.get(LOST), replies.toString());
    // Ranks 4 and 6 are alive, but their replies were on their way through agent B.
    assertEquals(
        RankSet.of(4, 6), replies.get(Protos.error(ServerNode.REPLY_LOST)), replies.toString());
    for (int rank : List.of(0, 1, 2, 7)) {
      assertEquals(RankSet.of(rank), replies.get(text(rank)), replies.toString());
    }
    rank4.complete(null);
    assertSurvivorsAnswer(replies(submit(PRINT_RANK)));
  }
}
