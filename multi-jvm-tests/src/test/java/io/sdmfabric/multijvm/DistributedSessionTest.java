package io.sdmfabric.multijvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.launch.ClusterSettings;
import io.sdmfabric.master.Session;
import io.sdmfabric.master.SessionEvent;
import io.sdmfabric.master.SessionSecret;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.ServerNode;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.ExpressionCmd;
import io.sdmfabric.wire.proto.StartSessionCmd;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A session whose ranks live in agent JVMs on loopback: the tree spans JVMs over Artery, replies
 * merge across them, and an agent killed with SIGKILL turns into lost ranks, exactly its own: the
 * tree is repaired around them.
 */
class DistributedSessionTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private final List<Process> agents = new ArrayList<>();
  private ActorSystem<Session.Command> master;
  private ActorTestKit testKit;

  @AfterEach
  void stopEverything() throws Exception {
    for (Process p : agents) {
      // SIGTERM first: the agent's actor system shuts down and Aeron removes its directory.
      p.destroy();
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
      }
      deleteRecursively(Path.of(ClusterSettings.aeronDirectory(p.pid())));
    }
    if (testKit != null) {
      testKit.shutdownTestKit();
    }
    deleteRecursively(Path.of(ClusterSettings.aeronDirectory(ProcessHandle.current().pid())));
  }

  private final SessionSecret secret = SessionSecret.random();

  /** Removes what an Aeron media driver left in /dev/shm (a JVM killed by SIGKILL leaves it). */
  private static void deleteRecursively(Path dir) throws java.io.IOException {
    if (Files.exists(dir)) {
      try (var paths = Files.walk(dir)) {
        for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  private Process agent(int port, String ranks, int size) throws Exception {
    return agent(port, ranks, size, secret);
  }

  private Process agent(int port, String ranks, int size, SessionSecret key) throws Exception {
    return agent(port, ranks, size, key, ClusterSettings.Transport.TCP);
  }

  private Process agent(
      int port, String ranks, int size, SessionSecret key, ClusterSettings.Transport transport)
      throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    ProcessBuilder builder =
        new ProcessBuilder(
            java.toString(),
            "-Xmx256m",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "-cp",
            System.getProperty("java.class.path"),
            "io.sdmfabric.launch.Main",
            "agent",
            "--master",
            "127.0.0.1:" + port,
            "--ranks",
            ranks,
            "--size",
            Integer.toString(size),
            "--transport",
            transport.artery());
    builder.environment().put(SessionSecret.ENV, key.hex());
    Path logs = Path.of("target", "agent-logs");
    Files.createDirectories(logs);
    Process p =
        builder
            .redirectErrorStream(true)
            .redirectOutput(
                ProcessBuilder.Redirect.appendTo(logs.resolve("agent-" + ranks + ".log").toFile()))
            .start();
    agents.add(p);
    return p;
  }

  private static CommandBody evaluate(String expression) {
    return CommandBody.newBuilder()
        .setEvaluate(ExpressionCmd.newBuilder().setExpression(expression))
        .build();
  }

  private Map<EventBody, RankSet> call(CommandBody body, RankSet dest) {
    TestProbe<SessionEvent> probe = testKit.createTestProbe();
    master.tell(new Session.Submit(body, dest, Duration.ZERO, probe.ref()));
    probe.expectMessageClass(SessionEvent.Accepted.class, WAIT);
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

  /** Starts the master of a distributed session; returns its cluster port. */
  private int startMaster(int size, Duration wireUp, TestProbe<SessionEvent>[] events) {
    return startMaster(size, wireUp, events, ClusterSettings.Transport.TCP);
  }

  private int startMaster(
      int size,
      Duration wireUp,
      TestProbe<SessionEvent>[] events,
      ClusterSettings.Transport transport) {
    master =
        ActorSystem.create(
            Session.distributed(size, FabricConfig.defaults(), wireUp, secret),
            ClusterSettings.SYSTEM,
            ClusterSettings.at("127.0.0.1", 0, transport));
    testKit = ActorTestKit.create(master);
    Cluster cluster = Cluster.get(master);
    cluster.manager().tell(Join.create(cluster.selfMember().address()));
    events[0] = testKit.createTestProbe();
    master.tell(new Session.Subscribe(events[0].ref()));
    return (Integer) cluster.selfMember().address().port().get();
  }

  private static final CommandBody LOAD =
      CommandBody.newBuilder()
          .setStartSession(
              StartSessionCmd.newBuilder().setLaunch(Protos.toProto(LaunchSpec.of("/bin/sim"))))
          .build();

  @Test
  void aWrongSecretIsRefusedAndAfterTheWireUpTimeoutTheSessionGoesOnWithTheRanksPresent()
      throws Exception {
    int size = 8;
    @SuppressWarnings("unchecked")
    TestProbe<SessionEvent>[] probe = new TestProbe[1];
    // Two agent JVMs starting at once take 8-10 s to join on 2 cores (FACTS.md): 25 s leaves room.
    int port = startMaster(size, Duration.ofSeconds(25), probe);
    // An agent that does not know the secret is refused: its ranks stay missing.
    agent(port, "4-7", size, SessionSecret.random());
    agent(port, "0-3", size);
    assertEquals(
        RankSet.range(4, 8),
        probe[0].expectMessageClass(SessionEvent.TreeReady.class, WAIT).missing());
    call(LOAD, RankSet.all(size));
    Map<EventBody, RankSet> x = call(evaluate("x"), RankSet.all(size));
    assertEquals(
        RankSet.range(0, 4),
        x.entrySet().stream()
            .filter(e -> e.getKey().hasValue())
            .findFirst()
            .orElseThrow()
            .getValue());
    for (int rank = 4; rank < 8; rank++) {
      String missing =
          "rank " + rank + " did not register with the master before the wire-up timeout";
      assertEquals(RankSet.of(rank), x.get(Protos.error(missing)), x.toString());
    }
  }

  @Test
  void theTreeWorksOverAeronUdpToo() throws Exception {
    int size = 4;
    @SuppressWarnings("unchecked")
    TestProbe<SessionEvent>[] probe = new TestProbe[1];
    int port = startMaster(size, WAIT, probe, ClusterSettings.Transport.AERON_UDP);
    agent(port, "0-3", size, secret, ClusterSettings.Transport.AERON_UDP);
    assertEquals(
        RankSet.empty(), probe[0].expectMessageClass(SessionEvent.TreeReady.class, WAIT).missing());
    call(LOAD, RankSet.all(size));
    assertEquals(size, call(evaluate("rank"), RankSet.all(size)).size());
  }

  @Test
  void ranksInTwoAgentJvmsAnswerAsOneTreeAndAKilledAgentsRanksAreLost() throws Exception {
    int size = 8;
    @SuppressWarnings("unchecked")
    TestProbe<SessionEvent>[] probe = new TestProbe[1];
    int port = startMaster(size, WAIT, probe);
    TestProbe<SessionEvent> events = probe[0];

    agent(port, "0-3", size);
    Process second = agent(port, "4-7", size);
    assertEquals(
        RankSet.empty(), events.expectMessageClass(SessionEvent.TreeReady.class, WAIT).missing());

    assertEquals(1, call(LOAD, RankSet.all(size)).size());
    Map<EventBody, RankSet> x = call(evaluate("x"), RankSet.all(size));
    assertEquals(1, x.size(), x.toString());
    assertEquals(RankSet.all(size), x.values().iterator().next());
    Map<EventBody, RankSet> rank = call(evaluate("rank"), RankSet.all(size));
    assertEquals(size, rank.size());

    second.destroyForcibly();
    RankSet lost = RankSet.empty();
    while (!lost.equals(RankSet.range(4, 8))) {
      lost = lost.union(events.expectMessageClass(SessionEvent.RanksLost.class, WAIT).ranks());
    }
    Map<EventBody, RankSet> after = call(evaluate("x"), RankSet.all(size));
    assertEquals(RankSet.range(4, 8), after.get(Protos.error(ServerNode.RANK_LOST)));
    assertEquals(
        RankSet.range(0, 4),
        after.entrySet().stream()
            .filter(e -> e.getKey().hasValue())
            .findFirst()
            .orElseThrow()
            .getValue());
  }

  @Test
  void aKilledAgentWhoseRanksHaveChildrenInOtherAgentsLosesOnlyItsRanks() throws Exception {
    int size = 8;
    @SuppressWarnings("unchecked")
    TestProbe<SessionEvent>[] probe = new TestProbe[1];
    int port = startMaster(size, WAIT, probe);
    TestProbe<SessionEvent> events = probe[0];
    // Node r + 1 serves rank r: node 4 (rank 3) has nodes 5 and 6 (ranks 4, 5) below it, and node
    // 6 has node 7 (rank 6). The middle agent's ranks 3 and 5 have children in the third agent.
    RankSet middleRanks = RankSet.of(3, 5);
    agent(port, "0-2", size);
    Process middle = agent(port, "3,5", size);
    agent(port, "4,6,7", size);
    assertEquals(
        RankSet.empty(), events.expectMessageClass(SessionEvent.TreeReady.class, WAIT).missing());
    call(LOAD, RankSet.all(size));
    assertEquals(size, call(evaluate("rank"), RankSet.all(size)).size());

    middle.destroyForcibly();
    RankSet lost = RankSet.empty();
    while (!lost.equals(middleRanks)) {
      RankSet more = events.expectMessageClass(SessionEvent.RanksLost.class, WAIT).ranks();
      assertTrue(more.intersect(lost).isEmpty(), "ranks reported lost twice: " + more);
      lost = lost.union(more);
      assertTrue(middleRanks.containsAll(lost), "ranks of live agents reported lost: " + lost);
    }
    Map<EventBody, RankSet> after = call(evaluate("rank"), RankSet.all(size));
    assertEquals(middleRanks, after.get(Protos.error(ServerNode.RANK_LOST)), after.toString());
    RankSet.all(size)
        .minus(middleRanks)
        .forEach(
            rank ->
                assertEquals(
                    RankSet.of(rank),
                    after.entrySet().stream()
                        .filter(
                            e ->
                                e.getKey().hasValue()
                                    && e.getKey().getValue().getText().equals("" + rank))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no value of rank " + rank + after))
                        .getValue()));
    assertEquals(size - middleRanks.size() + 1, after.size(), after.toString());
    events.expectNoMessage(Duration.ofSeconds(1));
  }
}
