package io.sdmfabric.frontend.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class HitCountTest {
  @Test
  void theNthHitStopsFirst() {
    assertEquals(2, HitCount.ignoreCount("3"));
    assertEquals(2, HitCount.ignoreCount(">= 3"));
    assertEquals(2, HitCount.ignoreCount("==3"));
    assertEquals(0, HitCount.ignoreCount("1"));
    assertEquals(0, HitCount.ignoreCount("0"));
  }

  @Test
  void moreThanNStopsAfterIt() {
    assertEquals(3, HitCount.ignoreCount("> 3"));
  }

  @Test
  void otherFormsAreRefusedWithTheOnesThereAre() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> HitCount.ignoreCount("% 2"));
    assertEquals(
        "hit count \"% 2\" is not one of N or >=N (stop from the Nth hit on) or >N (after the Nth)",
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> HitCount.ignoreCount("99999999999"));
  }
}
