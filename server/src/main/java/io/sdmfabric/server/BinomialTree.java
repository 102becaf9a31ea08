package io.sdmfabric.server;

import java.util.ArrayList;
import java.util.List;

/**
 * The binomial tree over the master and N servers, as in the SDM: node 0 is the master and node
 * {@code r + 1} serves rank {@code r}, for {@code size = N + 1} nodes in all. Nothing is
 * configured; everything is computed from a node's index.
 *
 * <p>Node {@code i > 0} roots the subtree {@code [i, i + lowbit(i))} (clipped to the size), where
 * {@code lowbit(i)} is its lowest set bit; node 0 roots all. Its children are {@code i + 2^k} for
 * every {@code 2^k < lowbit(i)} that is inside the tree, each rooting {@code [i + 2^k, i +
 * 2^(k+1))}. So every subtree is a contiguous range of nodes, a node needs to know only its own
 * range to route, and the depth is at most {@code ceil(log2(size))}.
 */
public final class BinomialTree {
  private BinomialTree() {}

  /** The node index of a rank. */
  public static int node(int rank) {
    return rank + 1;
  }

  /** The rank of a node index ({@code -1} for the master, node 0). */
  public static int rank(int node) {
    return node - 1;
  }

  /** The exclusive end of the subtree rooted at {@code node}. */
  public static int subtreeEnd(int node, int size) {
    checkNode(node, size);
    if (node == 0) {
      return size;
    }
    long end = (long) node + Integer.lowestOneBit(node);
    return (int) Math.min(end, size);
  }

  /** The children of {@code node}, smallest subtree first. */
  public static List<Integer> children(int node, int size) {
    int end = subtreeEnd(node, size);
    List<Integer> children = new ArrayList<>();
    for (long step = 1; node + step < end; step <<= 1) {
      children.add((int) (node + step));
    }
    return children;
  }

  /** The parent of {@code node > 0}: the node with its lowest set bit cleared. */
  public static int parent(int node) {
    if (node <= 0) {
      throw new IllegalArgumentException("node 0 (the master) has no parent");
    }
    return node & (node - 1);
  }

  /**
   * The depth of the tree: the longest path from the master to a node, in edges. A node's depth is
   * the number of set bits in its index, so the depth is the most set bits below {@code size}: at
   * most {@code ceil(log2(size))}, and exactly that when {@code size} is a power of two.
   */
  public static int depth(int size) {
    if (size < 1) {
      throw new IllegalArgumentException("a tree has at least the master: size " + size);
    }
    int last = size - 1;
    int bits = 32 - Integer.numberOfLeadingZeros(last);
    return Math.max(Integer.bitCount(last), bits - 1);
  }

  /**
   * The height of the subtree {@code [node, end)}: the longest path from its root down, in edges
   * ({@code ceil(log2(end - node))}; 0 for a leaf).
   */
  public static int height(int node, int end) {
    if (end <= node) {
      throw new IllegalArgumentException("empty subtree [" + node + ", " + end + ")");
    }
    return depth(end - node);
  }

  private static void checkNode(int node, int size) {
    if (node < 0 || node >= size) {
      throw new IllegalArgumentException("node " + node + " is not in a tree of " + size);
    }
  }
}
