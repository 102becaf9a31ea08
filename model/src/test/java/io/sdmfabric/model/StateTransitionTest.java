package io.sdmfabric.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks every (from, to) pair of every state type against a table written out independently of the
 * enums, so that a change to the rules must change this table too.
 */
class StateTransitionTest {

  /** Legal moves other than staying put, written as "FROM>TO". */
  private static final Set<String> LEGAL_PROCESS_MOVES =
      Set.of(
          "NOT_STARTED>RUNNING",
          "NOT_STARTED>STOPPED",
          "NOT_STARTED>EXITED",
          "NOT_STARTED>DETACHED",
          "NOT_STARTED>LOST",
          "NOT_STARTED>ERROR",
          "RUNNING>NOT_STARTED",
          "RUNNING>STOPPED",
          "RUNNING>EXITED",
          "RUNNING>DETACHED",
          "RUNNING>LOST",
          "RUNNING>ERROR",
          "STOPPED>RUNNING",
          "STOPPED>EXITED",
          "STOPPED>DETACHED",
          "STOPPED>LOST",
          "STOPPED>ERROR",
          "DETACHED>LOST",
          "ERROR>LOST");

  private static final Set<String> LEGAL_JOB_MOVES =
      Set.of(
          "PENDING>STARTED",
          "PENDING>RUNNING",
          "PENDING>TERMINATED",
          "PENDING>ERROR",
          "STARTED>RUNNING",
          "STARTED>SUSPENDED",
          "STARTED>TERMINATED",
          "STARTED>ERROR",
          "RUNNING>SUSPENDED",
          "RUNNING>TERMINATED",
          "RUNNING>ERROR",
          "SUSPENDED>RUNNING",
          "SUSPENDED>TERMINATED",
          "SUSPENDED>ERROR",
          "UNKNOWN>PENDING",
          "UNKNOWN>STARTED",
          "UNKNOWN>RUNNING",
          "UNKNOWN>SUSPENDED",
          "UNKNOWN>TERMINATED",
          "UNKNOWN>ERROR");

  private static final Set<String> LEGAL_NODE_MOVES =
      Set.of(
          "UP>DOWN",
          "UP>ERROR",
          "DOWN>UP",
          "DOWN>ERROR",
          "ERROR>UP",
          "ERROR>DOWN",
          "UNKNOWN>UP",
          "UNKNOWN>DOWN",
          "UNKNOWN>ERROR");

  static Stream<Arguments> processPairs() {
    return pairs(ProcessState.values());
  }

  static Stream<Arguments> jobPairs() {
    return pairs(JobState.values());
  }

  static Stream<Arguments> nodePairs() {
    return pairs(NodeState.values());
  }

  private static <S> Stream<Arguments> pairs(S[] values) {
    List<Arguments> all = new ArrayList<>();
    for (S from : values) {
      for (S to : values) {
        all.add(Arguments.of(from, to));
      }
    }
    return all.stream();
  }

  private static boolean expected(Set<String> table, Enum<?> from, Enum<?> to) {
    return from == to || table.contains(from + ">" + to);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("processPairs")
  void processStateAllowsExactlyTheTabledMoves(ProcessState from, ProcessState to) {
    assertEquals(expected(LEGAL_PROCESS_MOVES, from, to), from.canMoveTo(to));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("jobPairs")
  void jobStateAllowsExactlyTheTabledMoves(JobState from, JobState to) {
    assertEquals(expected(LEGAL_JOB_MOVES, from, to), from.canMoveTo(to));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("nodePairs")
  void nodeStateAllowsExactlyTheTabledMoves(NodeState from, NodeState to) {
    assertEquals(expected(LEGAL_NODE_MOVES, from, to), from.canMoveTo(to));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("processPairs")
  void processMovesOrThrowsAccordingToTheTable(ProcessState from, ProcessState to) {
    DebugProcess process = processIn(from);
    if (expected(LEGAL_PROCESS_MOVES, from, to)) {
      assertEquals(from != to, process.moveTo(to));
      assertEquals(to, process.state());
    } else {
      IllegalStateTransitionException e =
          assertThrows(IllegalStateTransitionException.class, () -> process.moveTo(to));
      assertEquals(from, process.state());
      assertEquals("j/process/0", e.element());
      assertEquals(from, e.from());
      assertEquals(to, e.to());
      assertEquals(
          "j/process/0: illegal state transition from " + from + " to " + to, e.getMessage());
    }
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("nodePairs")
  void nodeMovesOrThrowsAccordingToTheTable(NodeState from, NodeState to) {
    DebugJob job = new DebugJob("j");
    ComputeNode node = job.addNode("n");
    node.moveTo(from);
    if (expected(LEGAL_NODE_MOVES, from, to)) {
      node.moveTo(to);
      assertEquals(to, node.state());
    } else {
      assertThrows(IllegalStateTransitionException.class, () -> node.moveTo(to));
      assertEquals(from, node.state());
    }
  }

  @Test
  void jobRejectsLeavingAFinalState() {
    DebugJob job = new DebugJob("j");
    job.moveTo(JobState.RUNNING);
    job.moveTo(JobState.TERMINATED);
    IllegalStateTransitionException e =
        assertThrows(IllegalStateTransitionException.class, () -> job.moveTo(JobState.RUNNING));
    assertEquals("j: illegal state transition from TERMINATED to RUNNING", e.getMessage());
    assertEquals(JobState.TERMINATED, job.state());
  }

  @Test
  void finalStatesAreExactlyThoseWithoutSuccessors() {
    assertEquals(EnumSet.of(ProcessState.EXITED, ProcessState.LOST), finals(ProcessState.values()));
    assertEquals(EnumSet.of(JobState.TERMINATED, JobState.ERROR), finals(JobState.values()));
    assertTrue(finals(NodeState.values()).isEmpty());
  }

  @Test
  void successorsAreReadOnly() {
    assertThrows(
        UnsupportedOperationException.class,
        () -> ProcessState.RUNNING.successors().add(ProcessState.EXITED));
    assertFalse(ProcessState.RUNNING.successors().contains(ProcessState.RUNNING));
  }

  private static <S extends Enum<S> & ElementState<S>> Set<S> finals(S[] values) {
    return Arrays.stream(values).filter(ElementState::isFinal).collect(Collectors.toSet());
  }

  /** A fresh process moved from NOT_STARTED, which reaches every state, to {@code state}. */
  private static DebugProcess processIn(ProcessState state) {
    DebugJob job = new DebugJob("j");
    job.addNode("n");
    DebugProcess process = job.addProcess(0, "n");
    process.moveTo(state);
    return process;
  }
}
