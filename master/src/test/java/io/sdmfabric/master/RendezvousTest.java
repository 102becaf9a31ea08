package io.sdmfabric.master;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.RankBackend;
import io.sdmfabric.server.RankBackends;
import io.sdmfabric.server.ReplyBody;
import io.sdmfabric.server.ServerNode;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.EventBodies;
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
 * <p>Eight ranks over three agents, one server node each, laid out in the order of their first
 * ranks: agent A (ranks 0-2) is node 1, agent B (ranks 3 and 5) node 2, agent C (ranks 4, 6, 7)
 * node 3, below B.
 */
class RendezvousTest {
  private static final ActorTestKit testKit =
      ActorTestKit.create(
          ConfigFactory.parseString("pekko.actor.serialize-messages = on")
              .withFallback(ConfigFactory.load()));
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final int SIZE = 8;
  private static final RankSet AGENT_B = RankSet.of(3, 5);
  private static final EventBody LOST = EventBodies.rankLost();
  private static final CommandBody PRINT_RANK = Commands.evaluate("r");
  private static int sessions;

  private final SessionSecret secret = SessionSecret.random();
  private final Map<Integer, CompletableFuture<Void>> held = new HashMap<>();
  private final Map<String, ActorRef<ServerNode.Command>> agents = new HashMap<>();
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
    return EventBodies.text("rank " + rank);
  }

  /** Starts the session and its three agents, and waits for the tree. */
  private void start() {
    int n = ++sessions;
    ActorRef<Rendezvous.Command> rendezvous =
        startSession(Session.distributed(SIZE, FabricConfig.defaults(), WAIT, secret), n);
    agent(rendezvous, "A-" + n, RankSet.range(0, 3));
    agent(rendezvous, "B-" + n, AGENT_B);
    agent(rendezvous, "C-" + n, RankSet.of(4, 6, 7));
    agents.put("B", agents.get("B-" + n));
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

  /** Agent {@code name}'s server node, serving {@code ranks}. */
  private ActorRef<ServerNode.Command> node(String name, RankSet ranks) {
    ActorRef<ServerNode.Command> node =
        testKit.spawn(
            ServerNode.detached(
                FabricConfig.defaults(),
                RankBackends.of(
                    ranks,
                    rank ->
                        new Rank(
                            rank,
                            held.getOrDefault(rank, CompletableFuture.completedFuture(null))))),
            name + "-node");
    agents.put(name, node);
    return node;
  }

  /** An agent that registers all its ranks at once. */
  private void agent(ActorRef<Rendezvous.Command> rendezvous, String name, RankSet ranks) {
    rendezvous.tell(
        register(name, node(name, ranks), ranks, challenge(rendezvous, name), 1, secret));
  }

  /**
   * Knocks as agent {@code name}; the challenge's nonce. The challenge names the agent, which
   * refuses one meant for another (a copy, replayed to it over aeron-udp).
   */
  private static byte[] challenge(ActorRef<Rendezvous.Command> rendezvous, String name) {
    TestProbe<Rendezvous.Challenge> door = testKit.createTestProbe();
    rendezvous.tell(new Rendezvous.Knock(name, door.ref()));
    Rendezvous.Challenge challenge = door.expectMessageClass(Rendezvous.Challenge.class, WAIT);
    assertEquals(name, challenge.agent());
    return challenge.nonce();
  }

  private static Rendezvous.Register register(
      String name,
      ActorRef<ServerNode.Command> node,
      RankSet ranks,
      byte[] nonce,
      long counter,
      SessionSecret key) {
    String ref = ActorRefResolver.get(testKit.system()).toSerializationFormat(node);
    return new Rendezvous.Register(
        name, node, ranks, counter, RegistrationProof.of(key, nonce, name, counter, ref, ranks));
  }

  @Test
  void aRegistrationIsRefusedUnlessItProvesTheSecretAgainstTheAgentsChallengeOnce() {
    int n = ++sessions;
    ActorRef<Rendezvous.Command> rendezvous =
        startSession(
            Session.distributed(4, FabricConfig.defaults(), Duration.ofSeconds(3), secret), n);
    String name = "agent-" + n;
    ActorRef<ServerNode.Command> node = node(name, RankSet.range(0, 4));
    byte[] others = challenge(rendezvous, "other-" + name);
    byte[] latest = challenge(rendezvous, name);
    // Knocking again, the agent is given the same challenge.
    assertArrayEquals(latest, challenge(rendezvous, name));
    // Rank 0 against another agent's challenge, rank 1 with another session's secret, rank 2 with
    // no challenge at all (zeros), rank 3 as it should.
    rendezvous.tell(register(name, node, RankSet.of(0), others, 1, secret));
    rendezvous.tell(register(name, node, RankSet.of(1), latest, 1, SessionSecret.random()));
    rendezvous.tell(register("never-knocked", node, RankSet.of(2), new byte[32], 1, secret));
    Rendezvous.Register good = register(name, node, RankSet.of(3), latest, 1, secret);
    rendezvous.tell(good);
    // The same registration again, for rank 0 this time: its proof names rank 3, so it fails.
    rendezvous.tell(
        new Rendezvous.Register(name, node, RankSet.of(0), good.counter(), good.proof()));
    // And a counter used before, properly proved: refused too.
    rendezvous.tell(register(name, node, RankSet.of(0), latest, 1, secret));

    assertEquals(
        RankSet.range(0, 3),
        events.expectMessageClass(SessionEvent.TreeReady.class, WAIT).missing());
    // The ranks that never registered answer why, in one group; rank 3 answers itself.
    Map<EventBody, RankSet> replies =
        SessionProbes.call(testKit, session, PRINT_RANK, RankSet.all(4), WAIT);
    assertEquals(RankSet.of(3), replies.get(text(3)), replies.toString());
    assertEquals(2, replies.size(), replies.toString());
  }

  @Test
  void anAgentsRanksRegisteredOneByOneAreServedByItsOneNode() {
    int n = ++sessions;
    ActorRef<Rendezvous.Command> rendezvous =
        startSession(
            Session.distributed(5, FabricConfig.defaults(), Duration.ofHours(1), secret), n);
    String name = "agent-" + n;
    ActorRef<ServerNode.Command> node = node(name, RankSet.range(0, 5));
    byte[] nonce = challenge(rendezvous, name);
    for (int rank = 0; rank < 4; rank++) {
      rendezvous.tell(register(name, node, RankSet.of(rank), nonce, rank + 1, secret));
    }
    // A second node of the same agent is not taken: rank 4 must come from the agent's own node.
    ActorRef<ServerNode.Command> second = node(name + "-second", RankSet.of(4));
    rendezvous.tell(register(name, second, RankSet.of(4), nonce, 5, secret));
    rendezvous.tell(register(name, node, RankSet.of(4), nonce, 6, secret));
    assertEquals(
        RankSet.empty(), events.expectMessageClass(SessionEvent.TreeReady.class, WAIT).missing());
    Map<EventBody, RankSet> replies =
        SessionProbes.call(testKit, session, PRINT_RANK, RankSet.all(5), WAIT);
    for (int rank = 0; rank < 5; rank++) {
      assertEquals(RankSet.of(rank), replies.get(text(rank)), replies.toString());
    }
  }

  private void killAgentB() {
    testKit.stop(agents.get("B"), WAIT);
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
    return SessionProbes.submit(testKit, session, body, RankSet.all(SIZE), WAIT);
  }

  private static Map<EventBody, RankSet> replies(TestProbe<SessionEvent> probe) {
    return SessionProbes.replies(probe, WAIT);
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

    Map<EventBody, RankSet> replies =
        SessionProbes.call(testKit, session, PRINT_RANK, RankSet.all(16), WAIT);
    assertEquals(
        Map.of(
            text(5),
            RankSet.of(5),
            text(9),
            RankSet.of(9),
            EventBodies.error(EventBodies.NOT_ATTACHED),
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
    EventBody fence = EventBodies.text("fence");
    session.tell(new Session.Publish(RankSet.of(0), fence));
    assertEquals(
        new SessionEvent.Unsolicited(RankSet.of(0), fence),
        events.expectMessageClass(SessionEvent.class, WAIT));
  }

  @Test
  void aCommandInFlightWhenAnAgentDiesCompletesAndTheSurvivorsAnswerTheNextOne() {
    // Rank 3 (agent B) and rank 4 (agent C, below B) have not answered when B dies.
    CompletableFuture<Void> rank4 = new CompletableFuture<>();
    held.put(3, new CompletableFuture<>());
    held.put(4, rank4);
    start();
    TestProbe<SessionEvent> inFlight = submit(PRINT_RANK);
    killAgentB();
    expectAgentBLost();
    Map<EventBody, RankSet> replies = replies(inFlight);
    assertEquals(AGENT_B, replies.get(LOST), replies.toString());
    // Agent C's ranks are alive, but their replies were to go up through agent B.
    assertEquals(
        RankSet.of(4, 6, 7),
        replies.get(EventBodies.error(ServerNode.REPLY_LOST)),
        replies.toString());
    for (int rank : List.of(0, 1, 2)) {
      assertEquals(RankSet.of(rank), replies.get(text(rank)), replies.toString());
    }
    rank4.complete(null);
    assertSurvivorsAnswer(replies(submit(PRINT_RANK)));
  }
}
