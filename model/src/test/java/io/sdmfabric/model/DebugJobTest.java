package io.sdmfabric.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DebugJobTest {

  @Test
  void newElementsStartInTheirInitialStates() {
    DebugJob job = new DebugJob("j");
    ComputeNode node = job.addNode("n");
    DebugProcess process = job.addProcess(0, "n");
    assertEquals(JobState.PENDING, job.state());
    assertEquals(NodeState.UNKNOWN, node.state());
    assertEquals(ProcessState.STARTING, process.state());
  }

  @Test
  void elementsHaveIdsWithinTheirJob() {
    DebugJob job = new DebugJob("job7");
    ComputeNode node = job.addNode("cn001");
    DebugProcess process = job.addProcess(12, "cn001");
    assertEquals("job7", job.id());
    assertEquals("job7/node/cn001", node.id());
    assertEquals("job7/process/12", process.id());
    assertEquals("job7/process/12[STARTING]", process.toString());
  }

  @Test
  void rejectsBadJobIdsAndNodeNames() {
    assertThrows(IllegalArgumentException.class, () -> new DebugJob(" "));
    assertThrows(IllegalArgumentException.class, () -> new DebugJob("a/b"));
    DebugJob job = new DebugJob("j");
    assertThrows(IllegalArgumentException.class, () -> job.addNode(""));
    job.addNode("n");
    assertThrows(IllegalArgumentException.class, () -> job.addNode("n"));
  }

  @Test
  void findsProcessesByRankAndNodesByName() {
    DebugJob job = new DebugJob("j");
    ComputeNode a = job.addNode("a");
    ComputeNode b = job.addNode("b");
    job.addProcesses("a", RankSet.range(0, 4));
    DebugProcess five = job.addProcess(5, "b");
    assertSame(five, job.process(5).orElseThrow());
    assertTrue(job.process(4).isEmpty());
    assertTrue(job.process(-1).isEmpty());
    assertTrue(job.process(1_000_000).isEmpty());
    assertSame(a, job.node("a").orElseThrow());
    assertTrue(job.node("c").isEmpty());
    assertEquals(List.of(a, b), job.nodes());
    assertEquals("0-3,5", job.ranks().toString());
    assertEquals("0-3", a.ranks().toString());
    assertEquals("5", b.ranks().toString());
    assertEquals("", job.ranksOn("c").toString());
    assertEquals("b", five.nodeName());
    assertSame(job, five.job());
    assertEquals(5, five.rank());
  }

  @Test
  void rejectsProcessesOnUnknownNodesAndTakenRanksWithoutAddingAny() {
    DebugJob job = new DebugJob("j");
    job.addNode("n");
    job.addProcesses("n", RankSet.parse("0-3"));
    assertThrows(IllegalArgumentException.class, () -> job.addProcess(0, "missing"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> job.addProcesses("n", RankSet.parse("3-9")));
    assertTrue(e.getMessage().contains("ranks 3"), e.getMessage());
    assertEquals("0-3", job.ranks().toString());
    assertTrue(job.process(4).isEmpty());
    assertThrows(IllegalArgumentException.class, () -> job.addProcess(-1, "n"));
  }

  @Test
  void tracksRanksPerStateThroughSingleAndBulkMoves() {
    DebugJob job = jobWith(10);
    job.process(2).orElseThrow().moveTo(ProcessState.RUNNING);
    job.setProcessStates(RankSet.parse("5-7"), ProcessState.SUSPENDED);
    assertEquals("0,1,3,4,8,9", job.ranksIn(ProcessState.STARTING).toString());
    assertEquals("2", job.ranksIn(ProcessState.RUNNING).toString());
    assertEquals("5-7", job.ranksIn(ProcessState.SUSPENDED).toString());
    assertEquals("", job.ranksIn(ProcessState.EXITED).toString());
    assertEquals(ProcessState.SUSPENDED, job.process(6).orElseThrow().state());
  }

  @Test
  void bulkMoveReturnsOnlyRanksThatChanged() {
    DebugJob job = jobWith(6);
    job.setProcessStates(RankSet.parse("0-2"), ProcessState.RUNNING);
    RankSet changed = job.setProcessStates(RankSet.parse("0-5"), ProcessState.RUNNING);
    assertEquals("3-5", changed.toString());
    assertEquals("0-5", job.ranksIn(ProcessState.RUNNING).toString());
    assertEquals(RankSet.empty(), job.setProcessStates(RankSet.empty(), ProcessState.ERROR));
  }

  @Test
  void bulkMoveIsAllOrNothingOnAnIllegalTransition() {
    DebugJob job = jobWith(8);
    job.setProcessStates(RankSet.parse("0-7"), ProcessState.RUNNING);
    job.setProcessStates(RankSet.parse("3,4"), ProcessState.EXITED);
    List<ModelEvent> events = new ArrayList<>();
    job.addChildListener(events::add);
    job.process(0).orElseThrow().addListener(events::add);

    IllegalStateTransitionException e =
        assertThrows(
            IllegalStateTransitionException.class,
            () -> job.setProcessStates(RankSet.parse("0-7"), ProcessState.SUSPENDED));

    assertEquals("j ranks 3,4", e.element());
    assertEquals(ProcessState.EXITED, e.from());
    assertEquals(ProcessState.SUSPENDED, e.to());
    assertEquals("0-2,5-7", job.ranksIn(ProcessState.RUNNING).toString());
    assertEquals("3,4", job.ranksIn(ProcessState.EXITED).toString());
    assertEquals("", job.ranksIn(ProcessState.SUSPENDED).toString());
    assertEquals(ProcessState.RUNNING, job.process(0).orElseThrow().state());
    assertEquals(List.of(), events);
  }

  @Test
  void bulkMoveRejectsRanksWithoutProcessesBeforeChangingAnything() {
    DebugJob job = jobWith(4);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> job.setProcessStates(RankSet.parse("2-9"), ProcessState.RUNNING));
    assertTrue(e.getMessage().contains("4-9"), e.getMessage());
    assertEquals("0-3", job.ranksIn(ProcessState.STARTING).toString());
  }

  @Test
  void bulkMoveSendsOneEventToChildListenersGroupedByPreviousState() {
    DebugJob job = jobWith(10);
    job.setProcessStates(RankSet.parse("0-3"), ProcessState.RUNNING);
    job.setProcessStates(RankSet.parse("8,9"), ProcessState.SUSPENDED);
    List<ModelEvent> events = new ArrayList<>();
    job.addChildListener(events::add);

    job.setProcessStates(RankSet.all(10), ProcessState.SUSPENDED);

    Map<ProcessState, RankSet> from = new EnumMap<>(ProcessState.class);
    from.put(ProcessState.RUNNING, RankSet.parse("0-3"));
    from.put(ProcessState.STARTING, RankSet.parse("4-7"));
    assertEquals(
        List.of(new ModelEvent.ProcessStatesChanged(job, from, ProcessState.SUSPENDED)), events);
    assertEquals("0-7", ((ModelEvent.ProcessStatesChanged) events.get(0)).ranks().toString());
  }

  @Test
  void bulkMoveNotifiesProcessListenersOnlyAfterEveryStateIsUpdated() {
    DebugJob job = jobWith(3);
    DebugProcess first = job.process(0).orElseThrow();
    List<String> seen = new ArrayList<>();
    first.addListener(
        e -> seen.add(e + " while rank 2 is " + job.process(2).orElseThrow().state()));
    job.setProcessStates(RankSet.all(3), ProcessState.RUNNING);
    assertEquals(
        List.of(
            new ModelEvent.StateChanged<>(first, ProcessState.STARTING, ProcessState.RUNNING)
                + " while rank 2 is RUNNING"),
        seen);
  }

  @Test
  void bulkMoveWithoutChangesNotifiesNobody() {
    DebugJob job = jobWith(3);
    List<ModelEvent> events = new ArrayList<>();
    job.addChildListener(events::add);
    job.setProcessStates(RankSet.all(3), ProcessState.STARTING);
    assertEquals(List.of(), events);
  }

  @Test
  void handlesAMillionRanksInBulk() {
    int n = 1 << 20;
    DebugJob job = new DebugJob("big");
    job.addNode("n0");
    job.addNode("n1");
    job.addProcesses("n0", RankSet.range(0, n / 2));
    job.addProcesses("n1", RankSet.range(n / 2, n));
    List<ModelEvent> events = new ArrayList<>();
    job.addChildListener(events::add);

    job.setProcessStates(RankSet.all(n), ProcessState.RUNNING);
    RankSet stopped = RankSet.all(n).minus(RankSet.of(36, 37));
    job.setProcessStates(stopped, ProcessState.SUSPENDED);

    assertEquals("36,37", job.ranksIn(ProcessState.RUNNING).toString());
    assertEquals("0-35,38-1048575", job.ranksIn(ProcessState.SUSPENDED).toString());
    assertEquals(2, events.size());
    assertEquals(ProcessState.SUSPENDED, job.process(n - 1).orElseThrow().state());
    assertFalse(job.ranksIn(ProcessState.STARTING).intersects(job.ranks()));
  }

  @Test
  void singleProcessMovesAgreeWithBulkQueriesForManyRegisteredOneByOne() {
    DebugJob job = new DebugJob("j");
    job.addNode("n");
    for (int rank = 0; rank < 5000; rank++) {
      job.addProcess(rank, "n");
    }
    for (int rank = 0; rank < 5000; rank += 2) {
      job.process(rank).orElseThrow().moveTo(ProcessState.RUNNING);
    }
    assertEquals(2500, job.ranksIn(ProcessState.RUNNING).size());
    assertTrue(job.ranksIn(ProcessState.RUNNING).contains(4998));
    assertEquals(2500, job.ranksIn(ProcessState.STARTING).size());
  }

  private static DebugJob jobWith(int ranks) {
    DebugJob job = new DebugJob("j");
    job.addNode("n");
    job.addProcesses("n", RankSet.all(ranks));
    return job;
  }
}
