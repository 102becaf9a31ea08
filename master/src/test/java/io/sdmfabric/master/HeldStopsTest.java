package io.sdmfabric.master;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sdmfabric.model.RankSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the session's gatherings tell of the ranks on their way to a stop. */
class HeldStopsTest {
  private static final byte[] STOP = {1};

  @Test
  void countsTheStoppedOfEveryGatheringOutOfTheRanksItResumed() {
    StopGathering all = new StopGathering(RankSet.range(0, 8));
    StopGathering two = new StopGathering(RankSet.of(8, 9));
    assertEquals(new HeldStops(0, 10), HeldStops.of(List.of(all, two)));
    all.take(RankSet.range(0, 5), STOP, 1);
    two.take(RankSet.of(9), STOP, 2);
    assertEquals(new HeldStops(6, 10), HeldStops.of(List.of(all, two)));
    all.take(RankSet.range(5, 8), STOP, 3);
    two.forget(RankSet.of(8)); // lost: no longer waited for
    assertEquals(new HeldStops(10, 10), HeldStops.of(List.of(all, two)));
  }
}
