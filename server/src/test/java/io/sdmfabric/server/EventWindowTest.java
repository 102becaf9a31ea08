package io.sdmfabric.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.RankSet;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * When a node's held events are due: counted from the first one's report, a whole window at the
 * root and a tenth of it per level below. The clock is the test's: nothing waits.
 */
class EventWindowTest {
  private static final long MS = 1_000_000;
  private static final long T0 = 5_000 * MS;

  private final EventWindow window =
      new EventWindow(FabricConfig.defaults().withEventWindow(Duration.ofMillis(100)));

  private static List<ReplyGroup> event(int rank, String text) {
    return List.of(new ReplyGroup(RankSet.of(rank), text.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void theRootHoldsABatchAWholeWindowFromItsFirstReport() {
    assertEquals(100 * MS, window.add(event(0, "stopped"), 0, true, 0, T0));
    assertEquals(70 * MS, window.add(event(1, "stopped"), 0, true, 0, T0 + 30 * MS));
  }

  @Test
  void aNodeBelowHoldsATenthOfTheWindowPerLevelOfItsSubtree() {
    assertEquals(0, window.add(event(0, "stopped"), 0, false, 0, T0));
    window.drain();
    assertEquals(30 * MS, window.add(event(0, "stopped"), 0, false, 3, T0));
  }

  @Test
  void aBatchHeldBelowCountsFromWhenItsFirstEventWasReported() {
    assertEquals(60 * MS, window.add(event(0, "stopped"), 40, true, 0, T0));
    assertEquals(40, window.heldMs(T0));
  }

  @Test
  void anEarlierReportArrivingLaterMovesTheBatchOriginBack() {
    window.add(event(0, "stopped"), 0, true, 0, T0);
    assertEquals(60 * MS, window.add(event(1, "stopped"), 40, true, 0, T0 + 10 * MS));
    assertEquals(40, window.heldMs(T0 + 10 * MS));
  }

  @Test
  void aBatchIsDueNowOnceItsWindowHasPassed() {
    assertTrue(window.add(event(0, "stopped"), 150, true, 0, T0) <= 0);
  }

  @Test
  void drainingGivesTheEventsMergedByBodyAndTheNextBatchStartsAfresh() {
    window.add(event(0, "stopped"), 0, true, 0, T0);
    window.add(event(1, "stopped"), 0, true, 0, T0 + 10 * MS);
    window.add(event(2, "exited"), 0, true, 0, T0 + 20 * MS);
    List<ReplyGroup> batch = window.drain();
    assertEquals(2, batch.size());
    assertTrue(
        batch.contains(
            new ReplyGroup(RankSet.of(0, 1), "stopped".getBytes(StandardCharsets.UTF_8))));
    assertTrue(window.isEmpty());
    assertEquals(100 * MS, window.add(event(3, "stopped"), 0, true, 0, T0 + 500 * MS));
    assertFalse(window.isEmpty());
  }
}
