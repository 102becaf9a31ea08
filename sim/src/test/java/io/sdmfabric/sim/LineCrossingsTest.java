package io.sdmfabric.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Where a path passes a line, computed without stepping. The program: depth 3 (path 0 is main ->
 * solver_loop -> compute), 10 iterations. Positions 0-2 are the prologue (main +1, main +2,
 * solver_loop +1); each iteration k takes positions 3 + 6k to 8 + 6k, compute's first code line at
 * 5 + 6k; the epilogue is 63 (main +3) and 64 (main +4).
 */
class LineCrossingsTest {
  private static final SimulatedProgram PROGRAM =
      SimulatedProgram.builder().withStackShape(2, 3).withIterations(10).build();
  private static final LineCrossings CROSSINGS = new LineCrossings(PROGRAM, PROGRAM.path(0));

  private static final int NEVER = Integer.MAX_VALUE;
  private static final int IN_LOOP = PROGRAM.headerLine(SimulatedProgram.COMPUTE) + 1;
  private static final int CALLS_SOLVER = PROGRAM.headerLine(SimulatedProgram.MAIN) + 2;
  private static final int FINALIZE = PROGRAM.headerLine(SimulatedProgram.MAIN) + 3;
  private static final int OTHER_PATH = PROGRAM.headerLine(SimulatedProgram.EXCHANGE) + 1;

  @Test
  void aLoopLineStopsAtItsFirstCrossingAtOrAfterTheStart() {
    assertEquals(5, CROSSINGS.stoppingOccurrence(IN_LOOP, 0, 0));
    assertEquals(5, CROSSINGS.stoppingOccurrence(IN_LOOP, 0, 5));
    assertEquals(11, CROSSINGS.stoppingOccurrence(IN_LOOP, 0, 6));
  }

  @Test
  void anIgnoreCountPassesThatManyCrossings() {
    assertEquals(17, CROSSINGS.stoppingOccurrence(IN_LOOP, 2, 0));
    assertEquals(59, CROSSINGS.stoppingOccurrence(IN_LOOP, 9, 0));
  }

  @Test
  void aLoopLineDoesNotStopAfterTheLastIteration() {
    assertEquals(NEVER, CROSSINGS.stoppingOccurrence(IN_LOOP, 10, 0));
    assertEquals(NEVER, CROSSINGS.stoppingOccurrence(IN_LOOP, 0, 60));
  }

  @Test
  void aLineOutsideTheLoopIsCrossedOnceAtMost() {
    assertEquals(1, CROSSINGS.stoppingOccurrence(CALLS_SOLVER, 0, 0));
    assertEquals(NEVER, CROSSINGS.stoppingOccurrence(CALLS_SOLVER, 0, 2));
    assertEquals(NEVER, CROSSINGS.stoppingOccurrence(CALLS_SOLVER, 1, 0));
    assertEquals(63, CROSSINGS.stoppingOccurrence(FINALIZE, 0, 0));
  }

  @Test
  void aLineThePathNeverPassesNeverStopsIt() {
    assertEquals(NEVER, CROSSINGS.stoppingOccurrence(OTHER_PATH, 0, 0));
    assertEquals(NEVER, CROSSINGS.stoppingOccurrence(0, 0, 0));
    assertEquals(0, CROSSINGS.occurrences(OTHER_PATH, 0, 64));
  }

  @Test
  void crossingsInASpanAreCountedOncePerIteration() {
    assertEquals(10, CROSSINGS.occurrences(IN_LOOP, 0, 64));
    assertEquals(1, CROSSINGS.occurrences(IN_LOOP, 6, 16));
    assertEquals(3, CROSSINGS.occurrences(IN_LOOP, 5, 17));
    assertEquals(0, CROSSINGS.occurrences(IN_LOOP, 6, 10));
    assertEquals(0, CROSSINGS.occurrences(IN_LOOP, 17, 5));
  }

  @Test
  void aLineOutsideTheLoopCountsOnceInASpanThatHoldsIt() {
    assertEquals(1, CROSSINGS.occurrences(CALLS_SOLVER, 0, 64));
    assertEquals(0, CROSSINGS.occurrences(CALLS_SOLVER, 2, 64));
    assertEquals(1, CROSSINGS.occurrences(FINALIZE, 63, 63));
  }
}
