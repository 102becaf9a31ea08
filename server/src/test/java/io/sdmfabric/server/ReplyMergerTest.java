package io.sdmfabric.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.RankSet;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplyMergerTest {
  private static byte[] body(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static Map<String, RankSet> byBody(List<ReplyGroup> groups) {
    Map<String, RankSet> out = new HashMap<>();
    for (ReplyGroup g : groups) {
      out.merge(
          new String(g.body(), StandardCharsets.UTF_8),
          g.ranks(),
          (a, b) -> {
            throw new AssertionError("two groups for one body");
          });
    }
    return out;
  }

  @Test
  void equalBodiesMergeAndDifferentOnesDoNot() {
    ReplyMerger m = new ReplyMerger();
    m.add(0, body("a"));
    m.add(RankSet.of(1, 2), body("b"));
    m.add(3, body("a"));
    assertEquals(4, m.rankCount());
    assertEquals(RankSet.range(0, 4), m.ranks());
    assertEquals(Map.of("a", RankSet.of(0, 3), "b", RankSet.of(1, 2)), byBody(m.drain()));
    assertTrue(m.isEmpty());
    assertEquals(0, m.rankCount());
  }

  @Test
  void aHashThatCollidesForEveryBodyStillKeepsThemApart() {
    for (int distinct : new int[] {3, ReplyMerger.INDEX_THRESHOLD + 5, 200}) {
      ReplyMerger m = new ReplyMerger(bytes -> 7);
      for (int rank = 0; rank < 1000; rank++) {
        m.add(rank, body("v" + rank % distinct));
      }
      Map<String, RankSet> groups = byBody(m.drain());
      assertEquals(distinct, groups.size());
      assertEquals(RankSet.parse("0"), groups.get("v0").intersect(RankSet.range(0, distinct)));
    }
  }

  @Test
  void manyDistinctBodiesEachKeepTheirRanks() {
    ReplyMerger m = new ReplyMerger();
    for (int rank = 0; rank < 5000; rank++) {
      m.add(rank, body("r" + rank));
    }
    m.add(RankSet.of(5000, 5001), body("r7"));
    Map<String, RankSet> groups = byBody(m.drain());
    assertEquals(5000, groups.size());
    assertEquals(RankSet.of(7, 5000, 5001), groups.get("r7"));
  }
}
