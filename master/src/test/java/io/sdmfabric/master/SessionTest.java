package io.sdmfabric.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.DebuggerBackend;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.sim.SimulatedDebugger;
import io.sdmfabric.sim.SimulatedProgram;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** A whole embedded session on simulated ranks, every tree message serialized. */
class SessionTest {
  private static final ActorTestKit testKit =
      ActorTestKit.create(
          ConfigFactory.parseString("pekko.actor.serialize-messages = on")
              .withFallback(ConfigFactory.load()));
  private static final Duration WAIT = Duration.ofSeconds(20);

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private static ActorRef<Session.Command> session(int ranks, SimulatedProgram program) {
    return session(ranks, program, Duration.ofMillis(50));
  }

  private static ActorRef<Session.Command> session(
      int ranks, SimulatedProgram program, Duration eventWindow) {
    return testKit.spawn(
        Session.embedded(
            ranks,
            FabricConfig.defaults().withEventWindow(eventWindow),
            rank -> new DebuggerBackend(SimulatedDebugger.direct(program, rank, ranks))));
  }

  private static final CommandBody LOAD = Commands.startSession(LaunchSpec.of("/bin/sim"));

  /** Submits and collects the replies by body until the command completes. */
  private static Map<EventBody, RankSet> call(
      ActorRef<Session.Command> session, CommandBody body, RankSet dest) {
    TestProbe<SessionEvent> probe = testKit.createTestProbe();
    session.tell(new Session.Submit(body, dest, Duration.ZERO, probe.ref()));
    SessionEvent.Accepted accepted = probe.expectMessageClass(SessionEvent.Accepted.class, WAIT);
    Map<EventBody, RankSet> replies = new HashMap<>();
    while (true) {
      SessionEvent e = probe.expectMessageClass(SessionEvent.class, WAIT);
      if (e instanceof SessionEvent.Completed c) {
        assertEquals(accepted.id(), c.id());
        return replies;
      }
      SessionEvent.Reply r = (SessionEvent.Reply) e;
      replies.merge(r.body(), r.ranks(), RankSet::union);
    }
  }

  @Test
  void aValueThatDiffersOnOneRankComesBackAsTwoClasses() {
    int ranks = 64;
    SimulatedProgram program = SimulatedProgram.builder().withDifferentValue("x", 37, "-1").build();
    ActorRef<Session.Command> s = session(ranks, program);
    call(s, LOAD, RankSet.all(ranks));
    Map<EventBody, RankSet> x = call(s, Commands.evaluate("x"), RankSet.all(ranks));
    assertEquals(2, x.size());
    x.forEach(
        (body, set) -> {
          if (body.getValue().getText().equals("-1")) {
            assertEquals(RankSet.of(37), set);
          } else {
            assertEquals("42", body.getValue().getText());
            assertEquals(RankSet.all(ranks).minus(RankSet.of(37)), set);
          }
        });
  }

  @Test
  void aBreakpointHitOnEveryRankArrivesAsOneStop() {
    int ranks = 32;
    // A window wide enough that a slow machine cannot split ranks that stop together.
    ActorRef<Session.Command> s =
        session(ranks, SimulatedProgram.defaults(), Duration.ofSeconds(2));
    TestProbe<SessionEvent> events = testKit.createTestProbe();
    s.tell(new Session.Subscribe(events.ref()));
    call(s, LOAD, RankSet.all(ranks));
    CommandBody bp = Commands.setBreakpoint(BreakpointSpec.at("solver_loop"));
    assertEquals(1, call(s, bp, RankSet.all(ranks)).size());
    call(s, Commands.run(), RankSet.all(ranks));
    // Other events (the ranks running, their output) may come first; the first stop is all ranks'.
    SessionEvent.Unsolicited stop = events.expectMessageClass(SessionEvent.Unsolicited.class, WAIT);
    while (!stop.body().hasSuspended()) {
      stop = events.expectMessageClass(SessionEvent.Unsolicited.class, WAIT);
    }
    assertEquals(RankSet.all(ranks), stop.ranks());
    assertEquals("solver_loop", stop.body().getSuspended().getFrame().getFunction());
    // A fence: an event published now arrives after any other stop, which must not come.
    EventBody fence = EventBodies.text("fence");
    s.tell(new Session.Publish(RankSet.of(0), fence));
    SessionEvent next = events.expectMessageClass(SessionEvent.class, WAIT);
    while (!next.equals(new SessionEvent.Unsolicited(RankSet.of(0), fence))) {
      assertTrue(
          !(next instanceof SessionEvent.Unsolicited u) || !u.body().hasSuspended(),
          "a second stop: " + next);
      next = events.expectMessageClass(SessionEvent.class, WAIT);
    }
  }

  @Test
  void aDestinationOutsideTheJobIsRejected() {
    ActorRef<Session.Command> s = session(4, SimulatedProgram.defaults());
    TestProbe<SessionEvent> probe = testKit.createTestProbe();
    s.tell(
        new Session.Submit(Commands.evaluate("x"), RankSet.of(2, 9), Duration.ZERO, probe.ref()));
    SessionEvent.Rejected r = probe.expectMessageClass(SessionEvent.Rejected.class, WAIT);
    assertEquals("rank 9 is out of range: the job has ranks 0-3", r.reason());
    s.tell(new Session.Submit(Commands.evaluate("x"), RankSet.empty(), Duration.ZERO, probe.ref()));
    assertEquals(
        "no ranks selected", probe.expectMessageClass(SessionEvent.Rejected.class, WAIT).reason());
  }

  @Test
  void lostRanksCompleteTheCommandsWaitingForThem() {
    int ranks = 8;
    ActorRef<Session.Command> s = session(ranks, SimulatedProgram.defaults());
    TestProbe<SessionEvent> events = testKit.createTestProbe();
    s.tell(new Session.Subscribe(events.ref()));
    call(s, LOAD, RankSet.all(ranks));
    // Node 4 (ranks 3-6) goes away; its ranks are lost for every later command.
    org.apache.pekko.actor.typed.javadsl.Adapter.toClassic(testKit.system())
        .actorSelection(
            org.apache.pekko.actor.typed.javadsl.Adapter.toClassic(s)
                .path()
                .child("tree")
                .child("n4"))
        .tell(
            org.apache.pekko.actor.PoisonPill.getInstance(),
            org.apache.pekko.actor.ActorRef.noSender());
    SessionEvent.RanksLost lost = events.expectMessageClass(SessionEvent.RanksLost.class, WAIT);
    assertEquals(RankSet.range(3, 7), lost.ranks());
    Map<EventBody, RankSet> x = call(s, Commands.evaluate("x"), RankSet.all(ranks));
    assertEquals(RankSet.range(3, 7), x.get(EventBodies.rankLost()));
    assertTrue(x.keySet().stream().anyMatch(EventBody::hasValue));
  }
}
