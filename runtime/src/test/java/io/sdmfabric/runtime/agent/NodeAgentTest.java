package io.sdmfabric.runtime.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import io.sdmfabric.master.RegistrationProof;
import io.sdmfabric.master.Rendezvous;
import io.sdmfabric.master.Session;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.UnavailableRank;
import io.sdmfabric.wire.SessionSecret;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An agent's side of the rendezvous, against a rendezvous played by the test in the same JVM. */
class NodeAgentTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final SecureRandom RANDOM = new SecureRandom();
  private final SessionSecret secret = SessionSecret.random();
  private ActorTestKit testKit;

  @AfterEach
  void stop() {
    if (testKit != null) {
      testKit.shutdownTestKit();
    }
  }

  private static byte[] nonce() {
    byte[] nonce = new byte[RegistrationProof.NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    return nonce;
  }

  /**
   * Over aeron-udp a sealed challenge copied from another agent's traffic opens in this agent's
   * JVM. Taken first, its nonce would leave every registration of this agent unprovable (the
   * rendezvous checks them against this agent's own challenge), and the agent would not knock
   * again. The challenge names its agent, and the agent refuses another's.
   */
  @Test
  void aChallengeMeantForAnotherAgentIsRefusedAndRegistrationsProveTheAgentsOwn() throws Exception {
    testKit =
        ActorTestKit.create(
            ClusterSettings.SYSTEM,
            ConfigFactory.parseString("pekko.actor.serialize-messages = on")
                .withFallback(
                    ClusterSettings.at(
                        "127.0.0.1", 0, ClusterSettings.Transport.INSECURE_TCP, secret)));
    byte[] another = nonce();
    byte[] own = nonce();
    TestProbe<Rendezvous.Register> registered = testKit.createTestProbe();
    Behavior<Rendezvous.Command> rendezvous =
        Behaviors.receive(Rendezvous.Command.class)
            .onMessage(
                Rendezvous.Knock.class,
                knock -> {
                  // The copy comes first.
                  knock
                      .replyTo()
                      .tell(new Rendezvous.Challenge("pekko://sdm@10.0.0.9:25520", another));
                  knock.replyTo().tell(new Rendezvous.Challenge(knock.agent(), own));
                  return Behaviors.same();
                })
            .onMessage(
                Rendezvous.Register.class,
                register -> {
                  registered.ref().tell(register);
                  return Behaviors.same();
                })
            .build();
    testKit.spawn(rendezvous, Session.RENDEZVOUS);
    Address master = Cluster.get(testKit.system()).selfMember().address();
    CompletableFuture<ActorRef<NodeAgent.Message>> agent = new CompletableFuture<>();
    testKit.spawn(NodeAgent.create(master, secret, FabricConfig.defaults(), agent::complete));
    agent
        .get(WAIT.toSeconds(), TimeUnit.SECONDS)
        .tell(new NodeAgent.RankReady(3, new UnavailableRank("a rank of the test")));

    Rendezvous.Register r = registered.expectMessageClass(Rendezvous.Register.class, WAIT);
    assertEquals(RankSet.of(3), r.ranks());
    String node = ActorRefResolver.get(testKit.system()).toSerializationFormat(r.node());
    assertArrayEquals(
        RegistrationProof.of(secret, own, r.agent(), r.counter(), node, r.ranks()), r.proof());
  }
}
