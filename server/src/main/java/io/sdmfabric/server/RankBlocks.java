package io.sdmfabric.server;

import io.sdmfabric.model.RankSet;

/**
 * How the ranks of a tree that lives in one JVM are spread over its nodes: node {@code v >= 1}
 * serves the block of ranks {@code [(v - 1) * perNode, v * perNode)} (the last block may be short),
 * node 0 (the root under the master) none. The tree has {@link #size()} nodes in all, and since
 * blocks follow node order, the subtree of nodes {@code [node, end)} serves one contiguous range of
 * ranks.
 *
 * @param ranks the ranks of the job, N
 * @param perNode how many ranks one node serves
 */
public record RankBlocks(int ranks, int perNode) {
  public RankBlocks {
    if (ranks < 1) {
      throw new IllegalArgumentException("a tree serves at least one rank: " + ranks);
    }
    if (perNode < 1) {
      throw new IllegalArgumentException("a node serves at least one rank: " + perNode);
    }
  }

  /** One rank per node: the tree of the C SDM. */
  public static RankBlocks perRank(int ranks) {
    return new RankBlocks(ranks, 1);
  }

  /** The number of nodes that serve ranks. */
  public int nodes() {
    return (int) (((long) ranks + perNode - 1) / perNode);
  }

  /** The number of nodes of the tree, the root included: {@link BinomialTree}'s size. */
  public int size() {
    return nodes() + 1;
  }

  /** The ranks served by the nodes {@code [node, end)}; none for the root alone. */
  public RankSet ranksOf(int node, int end) {
    if (node < 0 || end <= node || end > size()) {
      throw new IllegalArgumentException(
          "nodes [" + node + ", " + end + ") are not in a tree of " + size());
    }
    int from = Math.max(node - 1, 0);
    return RankSet.range(first(from), first(end - 1));
  }

  /** The ranks node {@code node} serves itself. */
  public RankSet ranksOf(int node) {
    return node == 0 ? RankSet.empty() : ranksOf(node, node + 1);
  }

  /** The first rank of the block with index {@code block} (node {@code block + 1}), or N. */
  private int first(int block) {
    return (int) Math.min((long) block * perNode, ranks);
  }
}
