package io.sdmfabric.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.CanonicalBytes;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.Reply;
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

  @Test
  void aMergerWithACapOnValueClassesDrainsThatManyAndOneSummaryOfTheRest() {
    ReplyMerger m = new ReplyMerger(FabricConfig::sampledHash, 4);
    for (int rank = 0; rank < 100; rank++) {
      Value v = Value.scalar("x", "int", Value.Kind.INTEGER, 4, Integer.toString(rank % 50));
      m.add(rank, CanonicalBytes.of(EventBodies.value(v)));
    }

    List<ReplyGroup> groups = m.drain();

    assertEquals(5, groups.size());
    assertEquals(RankSet.of(0, 50), groups.get(0).ranks());
    assertEquals(RankSet.of(3, 53), groups.get(3).ranks());
    Reply.ValuesSummarized s =
        (Reply.ValuesSummarized) Reply.decode(CanonicalBytes.eventBody(groups.get(4).body()));
    assertEquals(46, s.classes());
    assertEquals(RankSet.range(4, 50).union(RankSet.range(54, 100)), groups.get(4).ranks());
    assertEquals(RankSet.of(4, 54), s.least().orElseThrow().ranks());
    assertEquals("49", s.greatest().orElseThrow().value().text());
  }
}
