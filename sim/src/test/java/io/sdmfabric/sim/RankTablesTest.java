package io.sdmfabric.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.SignalAction;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.WatchKind;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A rank's breakpoint table, its signal handling and its written memory. The program is the one of
 * {@link LineCrossingsTest}: compute's first code line is crossed at positions 5 + 6k, k < 10.
 */
class RankTablesTest {
  private static final SimulatedProgram PROGRAM =
      SimulatedProgram.builder().withStackShape(2, 3).withIterations(10).build();
  private static final LineCrossings CROSSINGS = new LineCrossings(PROGRAM, PROGRAM.path(0));

  private final RankTables tables = new RankTables();

  private Breakpoint insert(BreakpointSpec spec) {
    return tables.add(PROGRAM, SimulatedBreakpoint.of(PROGRAM, spec));
  }

  private static BreakpointSpec compute() {
    return BreakpointSpec.at("compute");
  }

  @Test
  void breakpointsAreNumberedFromOneInTheOrderTheyAreMade() {
    assertEquals(1, insert(compute()).id());
    assertEquals(2, tables.add(PROGRAM, SimulatedBreakpoint.watching("x", WatchKind.WRITE)).id());
    tables.delete(1);
    assertEquals(3, insert(compute()).id());
    assertEquals(List.of(2, 3), tables.list(PROGRAM).stream().map(Breakpoint::id).toList());
  }

  @Test
  void anUnknownNumberIsGdbsErrorAndChangesNothing() {
    insert(compute());
    DebuggerException e = assertThrows(DebuggerException.class, () -> tables.delete(9));
    assertEquals("No breakpoint number 9.", e.getMessage());
    assertThrows(DebuggerException.class, () -> RankTables.NONE.enable(1, false));
    assertEquals(1, tables.list(PROGRAM).size());
    assertEquals(List.of(), RankTables.NONE.list(PROGRAM));
  }

  @Test
  void theFirstEnabledBreakpointOnTheWayStopsTheProcess() {
    insert(compute().withIgnoreCount(2));
    insert(compute().asDisabled());
    assertEquals(17, tables.firstStop(CROSSINGS, 0));
    tables.enable(2, true);
    assertEquals(5, tables.firstStop(CROSSINGS, 0));
  }

  @Test
  void passingCountsHitsSpendsIgnoreCountsAndNamesTheBreakpointThatStops() {
    insert(compute().withIgnoreCount(2));
    insert(compute());
    assertEquals(2, tables.pass(CROSSINGS, 0, 5, true));
    List<Breakpoint> after = tables.list(PROGRAM);
    assertEquals(1, after.get(0).hits());
    assertEquals(1, after.get(0).ignoreCount());
    assertEquals(1, after.get(1).hits());
  }

  @Test
  void aTemporaryBreakpointGoesWhenItStopsTheProcess() {
    insert(compute().asTemporary());
    assertEquals(0, tables.pass(CROSSINGS, 0, 4, false));
    assertTrue(tables.hasBreakpoints());
    assertEquals(1, tables.pass(CROSSINGS, 0, 5, true));
    assertFalse(tables.hasBreakpoints());
  }

  @Test
  void signalHandlingIsTheProgramsUntilChangedWithGdbsImplications() {
    assertEquals(PROGRAM.signals(), tables.signals(PROGRAM));
    SignalInfo stop = tables.handle(PROGRAM, "SIGUSR1", Set.of(SignalAction.STOP)).get(0);
    assertTrue(stop.stop() && stop.print());
    SignalInfo noprint = tables.handle(PROGRAM, "SIGUSR1", Set.of(SignalAction.NOPRINT)).get(0);
    assertFalse(noprint.stop() || noprint.print());
    assertTrue(tables.signals(PROGRAM).contains(noprint));
    assertEquals(PROGRAM.signals(), RankTables.NONE.signals(PROGRAM));
  }

  @Test
  void anUnknownSignalIsRefused() {
    DebuggerException e =
        assertThrows(DebuggerException.class, () -> RankTables.requireKnown("SIGNOPE"));
    assertEquals("Unrecognized or ambiguous flag word: \"SIGNOPE\".", e.getMessage());
  }

  @Test
  void writtenBytesOverlayWhatIsReadWhereTheyOverlapAndTheLastWriteWins() {
    tables.write(0x2002, new byte[] {1, 2, 3});
    tables.write(0x2004, new byte[] {9});
    byte[] read = new byte[4];
    tables.overlayWrites(0x2000, read);
    assertArrayEquals(new byte[] {0, 0, 1, 2}, read);
    byte[] later = new byte[2];
    tables.overlayWrites(0x2004, later);
    assertArrayEquals(new byte[] {9, 0}, later);
  }
}
