package io.sdmfabric.master;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.ChildLink;
import io.sdmfabric.server.ServerNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Which node goes where in a tree wired across JVMs, and what each is told at wire-up and after a
 * repair. Eight ranks over three agents: A (ranks 0-2), B (3 and 5), C (4, 6, 7), and E, which
 * serves none. In the order of their first ranks A is node 1, B node 2 and C node 3, below B.
 */
class TreeLayoutTest {
  private static final ActorTestKit testKit = ActorTestKit.create();

  private static final RankSet A_RANKS = RankSet.range(0, 3);
  private static final RankSet B_RANKS = RankSet.of(3, 5);
  private static final RankSet C_RANKS = RankSet.of(4, 6, 7);

  private final ActorRef<ServerNode.Up> master = testKit.<ServerNode.Up>createTestProbe().ref();
  private final ActorRef<ServerNode.Command> root = node();
  private final ActorRef<ServerNode.Command> a = node();
  private final ActorRef<ServerNode.Command> b = node();
  private final ActorRef<ServerNode.Command> c = node();
  private final ActorRef<ServerNode.Command> e = node();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private static ActorRef<ServerNode.Command> node() {
    return testKit.<ServerNode.Command>createTestProbe().ref();
  }

  private TreeLayout layout() {
    TreeLayout layout = new TreeLayout(root, master);
    layout.addInOrderOfFirstRank(
        List.of(
            Map.entry(c, C_RANKS),
            Map.entry(e, RankSet.empty()),
            Map.entry(a, A_RANKS),
            Map.entry(b, B_RANKS)));
    return layout;
  }

  @Test
  void agentsTakeTheirPlacesInTheOrderOfTheirFirstRanksAndEmptyOnesAreLeftOut() {
    TreeLayout layout = layout();
    assertEquals(4, layout.size());
    assertEquals(
        List.of(root, a, b, c),
        List.of(layout.node(0), layout.node(1), layout.node(2), layout.node(3)));
    assertEquals(RankSet.empty(), layout.ranks(0));
    assertEquals(B_RANKS, layout.ranks(2));
  }

  @Test
  void theRootIsToldToSendUpToTheMasterAndWhatEachOfItsSubtreesServes() {
    ServerNode.Attach attach = layout().attach(0);
    assertEquals(root, attach.to());
    assertEquals(0, attach.node());
    assertEquals(RankSet.empty(), attach.ranks());
    assertEquals(master, attach.parent());
    assertEquals(
        List.of(new ChildLink(a, 1, 2, A_RANKS), new ChildLink(b, 2, 4, B_RANKS.union(C_RANKS))),
        attach.children());
  }

  @Test
  void aLeafIsToldItsParentItsRanksAndNoChildren() {
    ServerNode.Attach attach = layout().attach(3);
    assertEquals(c, attach.to());
    assertEquals(3, attach.node());
    assertEquals(C_RANKS, attach.ranks());
    assertEquals(b, attach.parent());
    assertEquals(List.of(), attach.children());
  }

  @Test
  void aStandInTakesTheReplacedNodesPlaceAndRanksInItsNeighboursRewiring() {
    TreeLayout layout = layout();
    ActorRef<ServerNode.Command> standIn = node();
    layout.replace(2, standIn);
    assertEquals(B_RANKS, layout.ranks(2));
    RankSet lost = RankSet.of(3, 5);

    ServerNode.Rewire rootRewire = layout.rewire(0, lost);
    assertEquals(root, rootRewire.to());
    assertEquals(master, rootRewire.parent());
    assertEquals(
        List.of(
            new ChildLink(a, 1, 2, A_RANKS), new ChildLink(standIn, 2, 4, B_RANKS.union(C_RANKS))),
        rootRewire.children());
    assertEquals(lost, rootRewire.lost());

    ServerNode.Rewire leafRewire = layout.rewire(3, lost);
    assertEquals(c, leafRewire.to());
    assertEquals(standIn, leafRewire.parent());
    assertEquals(List.of(), leafRewire.children());
  }

  @Test
  void theNeighboursOfLostPlacesAreTheirParentsAndChildrenWithoutThem() {
    TreeLayout layout = layout();
    assertEquals(Set.of(0, 3), layout.neighbours(List.of(2)));
    assertEquals(Set.of(0), layout.neighbours(List.of(2, 3)));
    assertEquals(Set.of(0), layout.neighbours(List.of(1)));
  }
}
