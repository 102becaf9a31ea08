package io.sdmfabric.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.Value;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a rank's expressions, frame variables and memory show at one moment. Rank 3 of 8, in
 * iteration 2, of a program of depth 4 whose path 1 is main -> solver_loop -> f_1_2 -> exchange.
 */
class SimulatedScopeTest {
  private static final SimulatedProgram PROGRAM =
      SimulatedProgram.builder()
          .withStackShape(2, 4)
          .withIterations(5)
          .withDifferentValue("x", 3, "-1")
          .build();
  private static final int RANK = 3;
  private static final int ITERATION = 2;

  /** The scope with no selected frame: a process that runs, or none. */
  private static SimulatedScope globalsOnly() {
    return new SimulatedScope(PROGRAM, RANK, 8, ITERATION, null, 0);
  }

  /** The scope with the frame at {@code level} (0 = main) of a stop in the leaf selected. */
  private static SimulatedScope atLevel(int level) {
    SimulatedProgram.Path path = PROGRAM.path(PROGRAM.pathOf(RANK));
    int leafPosition = path.mpiCallPosition(ITERATION);
    List<Frame> stack = path.stack(leafPosition);
    return new SimulatedScope(
        PROGRAM, RANK, 8, ITERATION, stack.get(stack.size() - 1 - level), level);
  }

  private static String error(Runnable r) {
    return assertThrows(DebuggerException.class, r::run).getMessage();
  }

  @Test
  void globalsSeeTheRankTheSizeTheIterationAndADifferentValueGiven() {
    SimulatedScope scope = globalsOnly();
    assertEquals("3", scope.evaluate("rank").text());
    assertEquals("8", scope.evaluate("size").text());
    assertEquals("2", scope.evaluate("iteration").text());
    assertEquals("22", scope.evaluate("distinct").text());
    assertEquals("-1", scope.evaluate("x").text());
  }

  @Test
  void fieldsAndElementsAreNamedByTheExpression() {
    SimulatedScope scope = globalsOnly();
    Value field = scope.evaluate("state.iteration");
    assertEquals("state.iteration", field.name());
    assertEquals("2", field.text());
    assertEquals("3", scope.evaluate(" arr[2] ").text());
    assertEquals("7", scope.evaluate("7").text());
  }

  @Test
  void badExpressionsFailWithGdbsWords() {
    SimulatedScope scope = globalsOnly();
    assertEquals("No symbol \"nosuch\" in current context.", error(() -> scope.evaluate("nosuch")));
    assertEquals(
        "Attempt to extract a component of a value that is not a structure.",
        error(() -> scope.evaluate("rank.x")));
    assertEquals(
        "cannot subscript something of type `int'", error(() -> scope.evaluate("rank[0]")));
    assertEquals("There is no member named y.", error(() -> scope.evaluate("state.y")));
    assertEquals("Argument required (expression to compute).", error(() -> scope.evaluate(" ")));
    assertEquals("Invalid number \"1x\".", error(() -> scope.evaluate("1x")));
  }

  @Test
  void theSelectedFramesVariablesDependOnItsFunction() {
    assertEquals(
        List.of("rc"), atLevel(0).frameVariables(false).stream().map(Value::name).toList());
    assertEquals(
        List.of("argc", "argv"),
        atLevel(0).frameVariables(true).stream().map(Value::name).toList());
    assertEquals("2", atLevel(1).frameVariables(false).get(0).text()); // i, the iteration
    assertEquals("5", atLevel(1).frameVariables(true).get(0).text()); // n, the iterations
    assertEquals("6", atLevel(3).frameVariables(false).get(0).text()); // tmp: rank + level
    assertEquals("3", atLevel(3).frameVariables(true).get(0).text()); // level
  }

  @Test
  void aFrameVariableIsFoundBeforeTheGlobalsAndOnlyWithItsFrame() {
    assertEquals("6", atLevel(3).evaluate("tmp").text());
    assertEquals(
        "No symbol \"tmp\" in current context.", error(() -> globalsOnly().evaluate("tmp")));
  }

  @Test
  void anIntGlobalsBytesHoldItsValueLittleEndianAndOtherBytesFollowTheAddressAndRank() {
    SimulatedScope scope = globalsOnly();
    long distinct = scope.address("&distinct");
    assertArrayEquals(new byte[] {22, 0, 0, 0}, scope.memory(distinct, 4));
    long a = 0x5000;
    assertArrayEquals(
        new byte[] {(byte) (a ^ (a >> 8) ^ RANK), (byte) ((a + 1) ^ ((a + 1) >> 8) ^ RANK)},
        scope.memory(a, 2));
  }

  @Test
  void addressesAreNamedByAnAmpersandOrANumber() {
    SimulatedScope scope = globalsOnly();
    assertEquals(0x1000, scope.address("0x1000"));
    assertEquals(4096, scope.address("4096"));
    assertEquals(
        "(int *) 0x" + Long.toHexString(scope.address("&x")) + " <x>", scope.evaluate("&x").text());
    assertEquals("A syntax error in expression, near `0xzz'.", error(() -> scope.address("0xzz")));
  }

  @Test
  void theGlobalsAreListedInTheirOrderWithoutChildren() {
    List<Value> globals = globalsOnly().globals();
    assertEquals(SimulatedProgram.BUILTIN_GLOBALS, globals.stream().map(Value::name).toList());
    assertEquals(0, globals.get(SimulatedProgram.BUILTIN_GLOBALS.indexOf("state")).childCount());
  }
}
