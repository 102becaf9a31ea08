package io.sdmfabric.multijvm;

import static io.sdmfabric.multijvm.LoopbackSession.LOAD;
import static io.sdmfabric.multijvm.LoopbackSession.WAIT;
import static io.sdmfabric.multijvm.LoopbackSession.evaluate;
import static io.sdmfabric.multijvm.LoopbackSession.valueRanks;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.master.SessionEvent;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.proto.EventBody;
import java.time.Duration;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A session whose ranks live in agent JVMs on loopback: the tree spans JVMs over Artery (tcp,
 * aeron-udp, tls-tcp), replies merge across them, and an agent killed with SIGKILL turns into lost
 * ranks, exactly its own (the tree is repaired around them).
 */
@Tag("jvms")
class TreeAcrossJvmsTest {
  @RegisterExtension final LoopbackSession session = new LoopbackSession();

  @ParameterizedTest
  @EnumSource(ClusterSettings.Transport.class)
  void theTreeWorksOverEveryTransport(ClusterSettings.Transport transport) throws Exception {
    int size = 4;
    int port = session.startMaster(size, WAIT, transport);
    session.agent(port, "0-3", size, session.secret(), transport);
    assertEquals(
        RankSet.empty(),
        session.events().expectMessageClass(SessionEvent.TreeReady.class, WAIT).missing());
    session.call(LOAD, RankSet.all(size));
    assertEquals(size, session.call(evaluate("rank"), RankSet.all(size)).size());
  }

  @Test
  void ranksInTwoAgentJvmsAnswerAsOneTreeAndAKilledAgentsRanksAreLost() throws Exception {
    int size = 8;
    int port = session.startMaster(size, WAIT);
    TestProbe<SessionEvent> events = session.events();

    session.agent(port, "0-3", size);
    Process second = session.agent(port, "4-7", size);
    assertEquals(
        RankSet.empty(), events.expectMessageClass(SessionEvent.TreeReady.class, WAIT).missing());

    assertEquals(1, session.call(LOAD, RankSet.all(size)).size());
    Map<EventBody, RankSet> x = session.call(evaluate("x"), RankSet.all(size));
    assertEquals(1, x.size(), x.toString());
    assertEquals(RankSet.all(size), x.values().iterator().next());
    Map<EventBody, RankSet> rank = session.call(evaluate("rank"), RankSet.all(size));
    assertEquals(size, rank.size());

    second.destroyForcibly();
    RankSet lost = RankSet.empty();
    while (!lost.equals(RankSet.range(4, 8))) {
      lost = lost.union(events.expectMessageClass(SessionEvent.RanksLost.class, WAIT).ranks());
    }
    Map<EventBody, RankSet> after = session.call(evaluate("x"), RankSet.all(size));
    assertEquals(RankSet.range(4, 8), lostRanks(after));
    assertEquals(RankSet.range(0, 4), valueRanks(after));
  }

  @Test
  void aKilledAgentWhoseRanksHaveChildrenInOtherAgentsLosesOnlyItsRanks() throws Exception {
    int size = 8;
    int port = session.startMaster(size, WAIT);
    TestProbe<SessionEvent> events = session.events();
    // Node r + 1 serves rank r: node 4 (rank 3) has nodes 5 and 6 (ranks 4, 5) below it, and node
    // 6 has node 7 (rank 6). The middle agent's ranks 3 and 5 have children in the third agent.
    RankSet middleRanks = RankSet.of(3, 5);
    session.agent(port, "0-2", size);
    Process middle = session.agent(port, "3,5", size);
    session.agent(port, "4,6,7", size);
    assertEquals(
        RankSet.empty(), events.expectMessageClass(SessionEvent.TreeReady.class, WAIT).missing());
    session.call(LOAD, RankSet.all(size));
    assertEquals(size, session.call(evaluate("rank"), RankSet.all(size)).size());

    middle.destroyForcibly();
    RankSet lost = RankSet.empty();
    while (!lost.equals(middleRanks)) {
      RankSet more = events.expectMessageClass(SessionEvent.RanksLost.class, WAIT).ranks();
      assertTrue(more.intersect(lost).isEmpty(), "ranks reported lost twice: " + more);
      lost = lost.union(more);
      assertTrue(middleRanks.containsAll(lost), "ranks of live agents reported lost: " + lost);
    }
    Map<EventBody, RankSet> after = session.call(evaluate("rank"), RankSet.all(size));
    assertEquals(middleRanks, lostRanks(after), after.toString());
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

  /**
   * The ranks that answered lost, each saying which node's server stopped (the agents are on this
   * host: 127.0.0.1).
   */
  private static RankSet lostRanks(Map<EventBody, RankSet> replies) {
    RankSet lost = RankSet.empty();
    for (Map.Entry<EventBody, RankSet> e : replies.entrySet()) {
      if (e.getKey().hasLost()) {
        assertTrue(
            EventBodies.lostText(e.getKey().getLost())
                .contains("the server of their node at 127.0.0.1"),
            e.getKey().toString());
        lost = lost.union(e.getValue());
      }
    }
    return lost;
  }
}
