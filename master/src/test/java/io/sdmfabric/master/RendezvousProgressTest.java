package io.sdmfabric.master;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The rendezvous tells the actor system's event stream how many ranks have registered out of how
 * many as they do (what a front-end shows of a long start), and nothing of a registration it
 * refuses.
 */
class RendezvousProgressTest {
  private static final ActorTestKit testKit =
      ActorTestKit.create(
          ConfigFactory.parseString("pekko.actor.serialize-messages = on")
              .withFallback(ConfigFactory.load()));
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final CommandBody ANY = Commands.evaluate("r");

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private record Quiet() implements RankBackend {
    @Override
    public CompletionStage<ReplyBody> execute(CommandBody command) {
      return CompletableFuture.completedFuture(ReplyBody.of(EventBodies.text("ok")));
    }

    @Override
    public void subscribe(Consumer<EventBody> events) {}

    @Override
    public void close() {}
  }

  @Test
  void eachRegistrationIsPublishedWithTheRanksStillWaitedFor() {
    SessionSecret secret = SessionSecret.random();
    TestProbe<Rendezvous.Progress> progress = testKit.createTestProbe();
    testKit
        .system()
        .classicSystem()
        .eventStream()
        .subscribe(Adapter.toClassic(progress.ref()), Rendezvous.Progress.class);
    TestProbe<SessionEvent> events = testKit.createTestProbe();
    ActorRef<Session.Command> session =
        testKit.spawn(Session.distributed(6, FabricConfig.defaults(), Duration.ofHours(1), secret));
    session.tell(new Session.Subscribe(events.ref()));
    session.tell(new Session.Submit(ANY, RankSet.empty(), Duration.ZERO, events.ref()));
    events.expectMessageClass(SessionEvent.Rejected.class, WAIT);
    ActorRef<Rendezvous.Command> rendezvous =
        Adapter.toTyped(
            Adapter.toClassic(testKit.system())
                .actorSelection(Adapter.toClassic(session).path().child(Session.RENDEZVOUS))
                .resolveOne(WAIT)
                .toCompletableFuture()
                .join());
    ActorRef<ServerNode.Command> node =
        testKit.spawn(
            ServerNode.detached(
                FabricConfig.defaults(), RankBackends.of(RankSet.range(0, 6), r -> new Quiet())));
    TestProbe<Rendezvous.Challenge> door = testKit.createTestProbe();
    rendezvous.tell(new Rendezvous.Knock("a", door.ref()));
    byte[] nonce = door.expectMessageClass(Rendezvous.Challenge.class, WAIT).nonce();
    String ref = ActorRefResolver.get(testKit.system()).toSerializationFormat(node);

    // Refused (another session's secret): no progress.
    RankSet first = RankSet.range(0, 2);
    rendezvous.tell(
        new Rendezvous.Register(
            "a",
            node,
            first,
            1,
            RegistrationProof.of(SessionSecret.random(), nonce, "a", 1, ref, first)));
    long counter = 2;
    for (RankSet ranks : new RankSet[] {first, RankSet.of(2), RankSet.range(3, 6)}) {
      rendezvous.tell(
          new Rendezvous.Register(
              "a",
              node,
              ranks,
              counter,
              RegistrationProof.of(secret, nonce, "a", counter, ref, ranks)));
      counter++;
    }
    assertEquals(
        new Rendezvous.Progress(RankSet.range(2, 6), 6, 6),
        progress.expectMessageClass(Rendezvous.Progress.class, WAIT));
    assertEquals(
        new Rendezvous.Progress(RankSet.range(3, 6), 6, 6),
        progress.expectMessageClass(Rendezvous.Progress.class, WAIT));
    assertEquals(
        new Rendezvous.Progress(RankSet.empty(), 6, 6),
        progress.expectMessageClass(Rendezvous.Progress.class, WAIT));
    events.expectMessageClass(SessionEvent.TreeReady.class, WAIT);
  }
}
