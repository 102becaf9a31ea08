package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.Frame;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.StackTree.Node;
import io.sdmfabric.wire.proto.StackTreeNode;
import io.sdmfabric.wire.proto.StackTreeProto;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class StackTreeTest {

  private static Frame f(int level, String function, int line) {
    return new Frame(level, 0x400000L + 16L * line, function, function + ".c", line, "");
  }

  private static final Frame MAIN = f(2, "main", 30);
  private static final Frame SOLVE = f(1, "solve", 212);
  private static final Frame BARRIER = new Frame(0, 0x7f00L, "MPI_Barrier", "", 0, "libmpi.so");
  private static final Frame SEND = new Frame(0, 0x7f80L, "MPI_Send", "", 0, "libmpi.so");

  @Test
  void singleStackIsOnePathWithTheOutermostFrameAsRoot() {
    StackTree tree = StackTree.of(List.of(BARRIER, SOLVE, MAIN), RankSet.all(4));
    assertEquals(1, tree.roots().size());
    Node root = tree.roots().get(0);
    assertEquals(MAIN, root.frame());
    assertEquals(SOLVE, root.children().get(0).frame());
    assertEquals(BARRIER, root.children().get(0).children().get(0).frame());
    assertEquals(3, tree.nodeCount());
    assertEquals(1, tree.pathCount());
    assertEquals(RankSet.all(4), tree.ranks());
  }

  @Test
  void aTreeOfEveryThreadCountsTheThreadsAtEachFrame() {
    Frame start = f(1, "start_thread", 442);
    Frame workerA = f(0, "worker_a", 13);
    Frame workerB = f(0, "worker_b", 18);
    List<Frame> waits = List.of(workerA, start);
    StackTree tree =
        StackTree.builder()
            .addThreads(List.of(List.of(MAIN), waits, waits, waits), RankSet.of(0, 2))
            .addThreads(
                List.of(List.of(MAIN), List.of(workerB, start), waits, waits), RankSet.of(1))
            .build();
    assertTrue(tree.everyThread());
    StackTree.Node threads =
        tree.roots().stream().filter(n -> n.frame() == start).findFirst().get();
    assertEquals(9, threads.threads());
    assertEquals(RankSet.range(0, 3), threads.ranks());
    StackTree.Node a =
        threads.children().stream().filter(n -> n.frame() == workerA).findFirst().get();
    StackTree.Node b =
        threads.children().stream().filter(n -> n.frame() == workerB).findFirst().get();
    assertEquals(8, a.threads());
    assertEquals(RankSet.range(0, 3), a.ranks());
    assertEquals(1, b.threads());
    assertEquals(RankSet.of(1), b.ranks());
    assertEquals(tree, StackTree.fromProto(tree.toProto()));
    assertEquals(tree, StackTree.mergeAll(List.of(StackTree.empty(), tree)));
    assertEquals("1 thread", StackTree.threadsText(1));
    assertEquals("8 threads", StackTree.threadsText(8));
  }

  @Test
  void aNodeHasAtLeastOneThreadPerRank() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new StackTree.Node(MAIN, RankSet.range(0, 4), List.of(), 3));
  }

  @Test
  void emptyStackOrNoRanksGiveTheEmptyTree() {
    assertTrue(StackTree.of(List.of(), RankSet.of(1)).isEmpty());
    assertTrue(StackTree.of(List.of(MAIN), RankSet.empty()).isEmpty());
    assertEquals(0, StackTree.empty().nodeCount());
    assertEquals(0, StackTree.empty().pathCount());
  }

  @Test
  void sharedPrefixMergesAndDivergentLeavesStaySeparate() {
    StackTree barrier = StackTree.of(List.of(BARRIER, SOLVE, MAIN), RankSet.range(1, 8));
    StackTree send = StackTree.of(List.of(SEND, SOLVE, MAIN), RankSet.of(0));
    StackTree merged = barrier.merge(send);

    assertEquals(1, merged.roots().size());
    Node main = merged.roots().get(0);
    assertEquals(RankSet.range(0, 8), main.ranks());
    Node solve = main.children().get(0);
    assertEquals(RankSet.range(0, 8), solve.ranks());
    assertEquals(2, solve.children().size());
    // Rank 0 is in MPI_Send, so that leaf comes first.
    assertEquals(SEND, solve.children().get(0).frame());
    assertEquals(RankSet.of(0), solve.children().get(0).ranks());
    assertEquals(BARRIER, solve.children().get(1).frame());
    assertEquals(RankSet.range(1, 8), solve.children().get(1).ranks());
    assertEquals(4, merged.nodeCount());
    assertEquals(2, merged.pathCount());
  }

  @Test
  void sameFunctionOnDifferentLinesIsDifferentNodes() {
    StackTree a = StackTree.of(List.of(f(0, "solve", 212), MAIN), RankSet.of(0));
    StackTree b = StackTree.of(List.of(f(0, "solve", 215), MAIN), RankSet.of(1));
    StackTree merged = a.merge(b);
    assertEquals(3, merged.nodeCount());
    assertEquals(2, merged.pathCount());
    assertEquals(212, merged.roots().get(0).children().get(0).frame().line());
    assertEquals(215, merged.roots().get(0).children().get(1).frame().line());
  }

  @Test
  void sameFunctionInDifferentLibrariesIsDifferentNodes() {
    Frame a = new Frame(0, 1, "init", "", 0, "liba.so");
    Frame b = new Frame(0, 1, "init", "", 0, "libb.so");
    StackTree merged =
        StackTree.of(List.of(a, MAIN), RankSet.of(0))
            .merge(StackTree.of(List.of(b, MAIN), RankSet.of(1)));
    assertEquals(2, merged.pathCount());
  }

  @Test
  void levelAndAddressDoNotSplitANodeAndTheSmallestRankShowsItsFrame() {
    Frame solveHere = new Frame(1, 0x1000L, "solve", "solver.c", 212, "");
    Frame solveDeeper = new Frame(3, 0x9000L, "solve", "solver.c", 212, "");
    StackTree high = StackTree.of(List.of(solveDeeper, MAIN), RankSet.of(5));
    StackTree low = StackTree.of(List.of(solveHere, MAIN), RankSet.of(2));
    StackTree merged = high.merge(low);
    assertEquals(2, merged.nodeCount());
    Node solve = merged.roots().get(0).children().get(0);
    assertEquals(RankSet.of(2, 5), solve.ranks());
    assertEquals(solveHere, solve.frame());
    assertEquals(merged, low.merge(high));
  }

  @Test
  void rankSetsUnionAcrossMerges() {
    StackTree a = StackTree.of(List.of(BARRIER, MAIN), RankSet.range(0, 100));
    StackTree b = StackTree.of(List.of(BARRIER, MAIN), RankSet.range(50, 200));
    StackTree c = StackTree.of(List.of(BARRIER, MAIN), RankSet.of(1000));
    StackTree merged = a.merge(b).merge(c);
    RankSet expected = RankSet.range(0, 200).union(RankSet.of(1000));
    assertEquals(expected, merged.roots().get(0).ranks());
    assertEquals(expected, merged.roots().get(0).children().get(0).ranks());
    assertEquals(2, merged.nodeCount());
  }

  @Test
  void childOrderIsBySmallestRankWhateverTheInputOrder() {
    List<StackTree> trees = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      trees.add(StackTree.of(List.of(f(0, "leaf" + i, 1), MAIN), RankSet.of(9 - i, 20 + i)));
    }
    StackTree forward = StackTree.mergeAll(trees);
    Collections.reverse(trees);
    StackTree backward = StackTree.mergeAll(trees);
    Collections.shuffle(trees, new java.util.Random(42));
    StackTree shuffled = trees.stream().reduce(StackTree.empty(), StackTree::merge);

    assertEquals(forward, backward);
    assertEquals(forward, shuffled);
    assertArrayEquals(CanonicalBytes.of(forward.toProto()), CanonicalBytes.of(shuffled.toProto()));
    List<Node> leaves = forward.roots().get(0).children();
    for (int i = 0; i < leaves.size(); i++) {
      assertEquals(i, leaves.get(i).ranks().first());
      assertEquals("leaf" + (9 - i), leaves.get(i).frame().function());
    }
  }

  @Test
  void siblingsSharingTheirSmallestRankAreOrderedByFrame() {
    // One rank with two threads in different functions.
    StackTree tree =
        StackTree.builder()
            .add(List.of(f(0, "worker", 5), MAIN), RankSet.of(0))
            .add(List.of(f(0, "progress", 9), MAIN), RankSet.of(0))
            .build();
    List<Node> children = tree.roots().get(0).children();
    assertEquals("progress", children.get(0).frame().function());
    assertEquals("worker", children.get(1).frame().function());
  }

  @Test
  void stackThatIsAPrefixOfAnotherAddsNoLeaf() {
    StackTree tree =
        StackTree.builder()
            .add(List.of(MAIN), RankSet.of(0))
            .add(List.of(SOLVE, MAIN), RankSet.of(1))
            .build();
    assertEquals(2, tree.nodeCount());
    assertEquals(1, tree.pathCount());
    assertEquals(RankSet.of(0, 1), tree.roots().get(0).ranks());
    assertEquals(RankSet.of(1), tree.roots().get(0).children().get(0).ranks());
  }

  @Test
  void differentOutermostFramesAreDifferentRoots() {
    Frame clone = new Frame(1, 0x5, "clone3", "", 0, "libc.so.6");
    StackTree tree =
        StackTree.builder()
            .add(List.of(BARRIER, MAIN), RankSet.of(3))
            .add(List.of(SEND, clone), RankSet.of(1))
            .build();
    assertEquals(2, tree.roots().size());
    assertEquals(clone, tree.roots().get(0).frame());
    assertEquals(MAIN, tree.roots().get(1).frame());
  }

  @Test
  void mergingWithTheEmptyTreeChangesNothing() {
    StackTree tree = StackTree.of(List.of(BARRIER, MAIN), RankSet.of(1));
    assertSame(tree, tree.merge(StackTree.empty()));
    assertSame(tree, StackTree.empty().merge(tree));
    assertEquals(tree, StackTree.mergeAll(List.of(StackTree.empty(), tree)));
  }

  @Test
  void mergingIsAssociative() {
    StackTree a = StackTree.of(List.of(BARRIER, SOLVE, MAIN), RankSet.of(4));
    StackTree b = StackTree.of(List.of(SEND, SOLVE, MAIN), RankSet.of(1, 7));
    StackTree c = StackTree.of(List.of(SOLVE, MAIN), RankSet.of(0));
    assertEquals(a.merge(b).merge(c), a.merge(b.merge(c)));
    assertEquals(a.merge(b).merge(c), StackTree.mergeAll(List.of(c, b, a)));
  }

  @Test
  void roundTripsThroughProto() {
    StackTree tree =
        StackTree.builder()
            .add(List.of(BARRIER, SOLVE, MAIN), RankSet.all(1 << 20).minus(RankSet.of(17, 99)))
            .add(List.of(SEND, SOLVE, MAIN), RankSet.of(17))
            .add(List.of(f(0, "solve", 215), MAIN), RankSet.of(99))
            .build();
    StackTreeProto proto = tree.toProto();
    assertEquals(tree, StackTree.fromProto(proto));
    assertEquals(5, tree.nodeCount());
    assertEquals(3, tree.pathCount());
    // Hundreds of bytes, not a bit per rank (128 KiB for 2^20 ranks) per node.
    assertTrue(proto.getSerializedSize() < 2000, "size " + proto.getSerializedSize());
  }

  @Test
  void fromProtoAcceptsSiblingsInAnyOrderAndSortsThem() {
    StackTreeNode leafB = node(BARRIER, RankSet.of(2));
    StackTreeNode leafS = node(SEND, RankSet.of(1));
    StackTreeNode root =
        node(MAIN, RankSet.of(1, 2)).toBuilder().addChildren(leafB).addChildren(leafS).build();
    StackTree tree = StackTree.fromProto(StackTreeProto.newBuilder().addRoots(root).build());
    assertEquals(SEND, tree.roots().get(0).children().get(0).frame());
  }

  @Test
  void invalidTreesAreRejected() {
    StackTreeNode noRanks =
        StackTreeNode.newBuilder()
            .setFrame(Protos.toProto(MAIN))
            .setRanks(Protos.toProto(RankSet.empty()))
            .build();
    assertThrows(IllegalArgumentException.class, () -> fromRoots(noRanks));

    StackTreeNode calleeWithForeignRank =
        node(MAIN, RankSet.of(1)).toBuilder().addChildren(node(SOLVE, RankSet.of(1, 2))).build();
    var e = assertThrows(IllegalArgumentException.class, () -> fromRoots(calleeWithForeignRank));
    assertTrue(e.getMessage().contains("2"), e.getMessage());

    assertThrows(
        IllegalArgumentException.class,
        () -> fromRoots(node(MAIN, RankSet.of(1)), node(MAIN, RankSet.of(2))));

    StackTreeNode noFrame =
        StackTreeNode.newBuilder().setRanks(Protos.toProto(RankSet.of(1))).build();
    assertThrows(IllegalArgumentException.class, () -> fromRoots(noFrame));
  }

  @Test
  void nodesCopyTheirChildren() {
    List<Node> children = new ArrayList<>(List.of(Node.leaf(SOLVE, RankSet.of(1))));
    Node node = new Node(MAIN, RankSet.of(1), children);
    children.clear();
    assertEquals(1, node.children().size());
    assertThrows(UnsupportedOperationException.class, () -> node.children().clear());
  }

  @Test
  void tenPathsOfThirtyFramesForAMillionRanks() {
    StackTree.Builder builder = StackTree.builder();
    int per = (1 << 20) / 10;
    for (int g = 0; g < 10; g++) {
      List<Frame> stack = new ArrayList<>();
      stack.add(f(0, "leaf" + g, 1));
      for (int d = 1; d < 30; d++) {
        stack.add(f(d, "fn" + d, d));
      }
      builder.add(stack, RankSet.range(g * per, g == 9 ? 1 << 20 : (g + 1) * per));
    }
    StackTree tree = builder.build();
    assertEquals(29 + 10, tree.nodeCount());
    assertEquals(10, tree.pathCount());
    assertEquals(RankSet.all(1 << 20), tree.ranks());
    assertEquals(tree, StackTree.fromProto(tree.toProto()));
  }

  @Test
  void manySingleRankGroupsMergeIntoFewPaths() {
    StackTree.Builder builder = StackTree.builder();
    for (int rank = 0; rank < 20_000; rank++) {
      builder.add(List.of(rank % 3 == 0 ? SEND : BARRIER, SOLVE, MAIN), RankSet.of(rank));
    }
    StackTree tree = builder.build();
    assertEquals(4, tree.nodeCount());
    assertEquals(RankSet.all(20_000), tree.roots().get(0).ranks());
    assertEquals(6667, tree.roots().get(0).children().get(0).children().get(0).ranks().size());
  }

  private static StackTreeNode node(Frame frame, RankSet ranks) {
    return StackTreeNode.newBuilder()
        .setFrame(Protos.toProto(frame))
        .setRanks(Protos.toProto(ranks))
        .build();
  }

  private static StackTree fromRoots(StackTreeNode... roots) {
    StackTreeProto.Builder b = StackTreeProto.newBuilder();
    for (StackTreeNode r : roots) {
      b.addRoots(r);
    }
    return StackTree.fromProto(b.build());
  }
}
