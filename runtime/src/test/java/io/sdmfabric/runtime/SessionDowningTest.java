package io.sdmfabric.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.sdmfabric.wire.SessionSecret;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Down;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.remote.RARP;
import org.apache.pekko.remote.RemoteActorRefProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link SessionDowning} in a cluster of two actor systems in this JVM: a master and an agent. */
class SessionDowningTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private final SessionSecret secret = SessionSecret.random();
  private ActorSystem<Void> master;
  private ActorSystem<Void> agent;

  @AfterEach
  void stop() throws Exception {
    for (ActorSystem<Void> system : new ActorSystem[] {agent, master}) {
      if (system != null) {
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * Downing by unreachability is put off beyond the test's wait, so that only being quarantined can
   * end the agent here: the master quarantines it as it does a member it downed and removed while
   * their link was cut, and the agent, which still reaches the master, is told so when its gossip
   * arrives. It leaves at once, downed, instead of waiting for the master to be unreachable.
   */
  @Test
  void anAgentTheMasterQuarantinedLeavesTheSessionAtOnce() throws Exception {
    master = member();
    Cluster.get(master).manager().tell(Join.create(Cluster.get(master).selfMember().address()));
    agent = member();
    Cluster.get(agent).manager().tell(Join.create(Cluster.get(master).selfMember().address()));
    awaitUp(master, 2);
    awaitUp(agent, 2);

    Member quarantined = Cluster.get(agent).selfMember();
    RemoteActorRefProvider provider = ((RARP) RARP.get(Adapter.toClassic(master))).provider();
    provider.quarantine(
        quarantined.address(),
        scala.Option.apply((Object) quarantined.uniqueAddress().longUid()),
        "SessionDowningTest");

    agent.getWhenTerminated().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertEquals(
        CoordinatedShutdown.clusterDowningReason(),
        CoordinatedShutdown.get(agent).getShutdownReason().orElseThrow(),
        "the agent ended downed");
    assertTrue(Cluster.get(master).selfMember().status() == MemberStatus.up(), "the master stays");
    // Slow downing would keep the master's leaving waiting for the unreachable agent.
    Cluster.get(master).manager().tell(new Down(quarantined.address()));
  }

  private ActorSystem<Void> member() {
    Config slowDowning =
        ConfigFactory.parseString(
            "sdm.downing.stable-after = 60s\nsdm.downing.master-lost-after = 120s");
    return ActorSystem.create(
        Behaviors.empty(),
        ClusterSettings.SYSTEM,
        slowDowning.withFallback(
            ClusterSettings.at("127.0.0.1", 0, ClusterSettings.Transport.INSECURE_TCP, secret)));
  }

  private static void awaitUp(ActorSystem<Void> system, int members) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      long up = 0;
      for (Member m : Cluster.get(system).state().getMembers()) {
        if (m.status() == MemberStatus.up()) {
          up++;
        }
      }
      if (up == members) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError(members + " members not up within " + WAIT);
  }
}
