package io.sdmfabric.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GdbFleetRanksPerGdbTest {
  @Test
  void aSmallJobIsSpreadOverAGdbPerCore() {
    assertEquals(2, GdbFleet.ranksPerGdb(4, 2));
    assertEquals(1, GdbFleet.ranksPerGdb(4, 8));
    assertEquals(3, GdbFleet.ranksPerGdb(5, 2), "as few gdbs as there are cores, rounded up");
    assertEquals(1, GdbFleet.ranksPerGdb(1, 2));
  }

  @Test
  void aGdbTakesAtMostSixteenRanksBelowALargeJobAndThirtyTwoFromThere() {
    assertEquals(16, GdbFleet.ranksPerGdb(32, 2));
    assertEquals(16, GdbFleet.ranksPerGdb(1023, 2));
    assertEquals(32, GdbFleet.ranksPerGdb(1024, 2));
    assertEquals(32, GdbFleet.ranksPerGdb(4096, 64));
  }

  @Test
  void aJobOfUnknownSizeTakesSixteenPerGdb() {
    assertEquals(16, GdbFleet.ranksPerGdb(0, 2));
    assertEquals(16, GdbFleet.ranksPerGdb(0, 0));
  }
}
