package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The condition that names the programs of a shared breakpoint. */
class SharedBreakpointsTest {
  private static String condition(List<Integer> inferiors, String user) {
    return SharedBreakpoints.condition(new TreeSet<>(inferiors), user);
  }

  @Test
  void runsOfProgramsAreRangesAndTheUsersConditionComesAfter() {
    assertEquals("$_inferior == 3", condition(List.of(3), ""));
    assertEquals(
        "($_inferior >= 1 && $_inferior <= 16)",
        condition(List.of(16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), ""));
    assertEquals(
        "($_inferior >= 1 && $_inferior <= 2) || $_inferior == 4 || ($_inferior >= 6 && $_inferior <= 8)",
        condition(List.of(1, 2, 4, 6, 7, 8), ""));
    assertEquals(
        "($_inferior == 2 || $_inferior == 5) && (x > 3)", condition(List.of(2, 5), "x > 3"));
  }

  @Test
  void noProgramIsAConditionThatNeverHolds() {
    assertEquals("0", condition(List.of(), "x > 3"));
  }

  @Test
  void theLastProgramToLeaveForgetsTheBreakpoint() {
    SharedBreakpoints shared = new SharedBreakpoints();
    SharedBreakpoints.Key key = new SharedBreakpoints.Key("compute", "");
    shared.made(7, key, 1);
    SharedBreakpoints.Shared s = shared.find(key);
    shared.join(s, 2);
    shared.enable(s, 1, false);
    assertEquals("$_inferior == 2", shared.condition(s));
    assertEquals(false, shared.leave(s, 2));
    assertEquals(false, shared.anyEnabled(s));
    assertEquals(true, shared.leave(s, 1));
    assertEquals(null, shared.find(key));
    assertEquals(null, shared.byNumber(7));
  }
}
