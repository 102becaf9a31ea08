package io.sdmfabric.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sdmfabric.model.RankSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RankBlocksTest {

  @ParameterizedTest
  @CsvSource({"1,1", "8,1", "10,4", "16,4", "1000,16", "1048576,128", "5,100"})
  void everyRankIsServedByExactlyOneNodeAndEverySubtreeIsItsNodesRanks(int ranks, int perNode) {
    RankBlocks blocks = new RankBlocks(ranks, perNode);
    assertEquals((ranks + perNode - 1) / perNode, blocks.nodes());
    assertEquals(RankSet.empty(), blocks.ranksOf(0));
    RankSet.Builder seen = RankSet.builder();
    int total = 0;
    for (int node = 1; node < blocks.size() && node < 300; node++) {
      RankSet own = blocks.ranksOf(node);
      assertEquals(Math.min(perNode, ranks - (node - 1) * perNode), own.size(), "node " + node);
      total += own.size();
      seen.addAll(own);
      int end = BinomialTree.subtreeEnd(node, blocks.size());
      RankSet.Builder union = RankSet.builder();
      for (int n = node; n < end; n++) {
        union.addAll(blocks.ranksOf(n));
      }
      assertEquals(union.build(), blocks.ranksOf(node, end), "subtree of node " + node);
    }
    assertEquals(total, seen.build().size(), "a rank served twice");
    assertEquals(RankSet.all(ranks), blocks.ranksOf(0, blocks.size()));
  }

  @ParameterizedTest
  @CsvSource({"0,1", "4,0", "-1,4"})
  void aTreeWithoutRanksOrNodesWithoutRanksIsRefused(int ranks, int perNode) {
    assertThrows(IllegalArgumentException.class, () -> new RankBlocks(ranks, perNode));
  }
}
