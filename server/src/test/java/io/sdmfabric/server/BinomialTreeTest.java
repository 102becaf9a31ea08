package io.sdmfabric.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BinomialTreeTest {

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 7, 8, 9, 1000, 1023, 1 << 20})
  void everyNodeIsReachedOnceAndTheDepthIsAtMostTheCeilingOfLog2(int ranks) {
    int size = ranks + 1;
    boolean[] seen = new boolean[size];
    int deepest = 0;
    Deque<int[]> todo = new ArrayDeque<>();
    todo.push(new int[] {0, 0});
    while (!todo.isEmpty()) {
      int[] n = todo.pop();
      assertTrue(!seen[n[0]], "node " + n[0] + " reached twice");
      seen[n[0]] = true;
      deepest = Math.max(deepest, n[1]);
      int covered = n[0] + 1;
      for (int child : BinomialTree.children(n[0], size)) {
        // Children partition the subtree, in order, into contiguous ranges.
        assertEquals(covered, child);
        assertEquals(n[0], BinomialTree.parent(child));
        covered = BinomialTree.subtreeEnd(child, size);
        todo.push(new int[] {child, n[1] + 1});
      }
      assertEquals(BinomialTree.subtreeEnd(n[0], size), covered);
    }
    for (boolean s : seen) {
      assertTrue(s);
    }
    int log2 = (int) Math.ceil(Math.log(size) / Math.log(2));
    assertTrue(deepest <= log2, deepest + " > ceil(log2(" + size + "))");
    if (Integer.bitCount(size) == 1) {
      assertEquals(log2, deepest);
    }
    assertEquals(deepest, BinomialTree.depth(size));
    assertEquals(deepest, BinomialTree.height(0, size));
  }

  @Test
  void theMastersChildrenArePowersOfTwo() {
    assertEquals(List.of(1, 2, 4, 8), BinomialTree.children(0, 10));
    assertEquals(List.of(9), BinomialTree.children(8, 10));
    assertEquals(List.of(), BinomialTree.children(9, 10));
    assertEquals(List.of(5, 6), BinomialTree.children(4, 10));
    assertEquals(8, BinomialTree.subtreeEnd(4, 10));
  }

  @Test
  void ranksAndNodesAreOneApart() {
    assertEquals(1, BinomialTree.node(0));
    assertEquals(0, BinomialTree.rank(1));
    assertEquals(-1, BinomialTree.rank(0));
  }

  @Test
  void rejectsNodesOutsideTheTree() {
    assertThrows(IllegalArgumentException.class, () -> BinomialTree.children(10, 10));
    assertThrows(IllegalArgumentException.class, () -> BinomialTree.parent(0));
    assertThrows(IllegalArgumentException.class, () -> BinomialTree.depth(0));
  }
}
