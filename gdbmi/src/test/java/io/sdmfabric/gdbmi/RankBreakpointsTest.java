package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sdmfabric.model.DebuggerException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RankBreakpointsTest {
  private final RankBreakpoints rank = new RankBreakpoints(3, "i3");

  @Test
  void aRankNumbersItsBreakpointsFromOneWhateverGdbsNumbersAre() {
    assertEquals(1, rank.made(17));
    assertEquals(2, rank.made(20));
    assertEquals(17, rank.gdbNumber(1));
    assertEquals(2, rank.ownId(20));
    assertEquals(0, rank.ownId(18), "another rank's breakpoint");
  }

  @Test
  void aDeletedBreakpointIsNoLongerTheRanksNorCountsHits() {
    int id = rank.made(5);
    rank.hit(id);
    rank.hit(id);
    assertEquals(2, rank.hits(id));
    rank.deleted(id);
    assertEquals(0, rank.hits(id));
    assertEquals(0, rank.ownId(5));
    DebuggerException e = assertThrows(DebuggerException.class, () -> rank.gdbNumber(id));
    assertEquals("No breakpoint number 1.", e.getMessage());
    assertEquals(2, rank.made(6), "ids are not reused");
  }

  @Test
  void theConditionNamesTheRanksProgramBeforeTheUsers() {
    assertEquals("$_inferior == 3", rank.condition(""));
    assertEquals("$_inferior == 3 && (x > 1)", rank.condition("x > 1"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "$_inferior == 3 | ''",
        "$_inferior == 3 && (x > 1) | x > 1",
        "$_inferior == 4 | $_inferior == 4"
      })
  void theUserSeesOnlyTheirOwnCondition(String gdbs, String users) {
    assertEquals(users, rank.userCondition(gdbs));
  }
}
