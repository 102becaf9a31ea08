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
    assertEquals(ProcessState.NOT_STARTED, process.state());
  }

  @Test
  void elementsHaveIdsWithinTheirJob() {
    DebugJob job = new DebugJob("job7");
    ComputeNode node = job.addNode("cn001");
    DebugProcess process = job.addProcess(12, "cn001");
    assertEquals("job7", job.id());
    assertEquals("job7/node/cn001", node.id());
    assertEquals("job7/process/12", process.id());
    assertEquals("job7/process/12[NOT_STARTED]", process.toString());
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
    job.move(RankSet.parse("5-7"), ProcessState.STOPPED, "main at a.c:3");
    assertEquals("0,1,3,4,8,9", job.ranksIn(ProcessState.NOT_STARTED).toString());
    assertEquals("2", job.ranksIn(ProcessState.RUNNING).toString());
    assertEquals("5-7", job.ranksIn(ProcessState.STOPPED).toString());
    assertEquals("", job.ranksIn(ProcessState.EXITED).toString());
    assertEquals(ProcessState.STOPPED, job.process(6).orElseThrow().state());
    assertEquals("main at a.c:3", job.process(6).orElseThrow().place());
    assertEquals("", job.place(2));
  }

  @Test
  void bulkMoveReturnsOnlyRanksThatChangedStateOrPlace() {
    DebugJob job = jobWith(6);
    job.move(RankSet.parse("0-2"), ProcessState.STOPPED, "f");
    assertEquals("3-5", job.move(RankSet.parse("0-5"), ProcessState.STOPPED, "f").toString());
    assertEquals("0-5", job.ranksIn(ProcessState.STOPPED).toString());
    assertEquals("1,2", job.move(RankSet.parse("1,2"), ProcessState.STOPPED, "g").toString());
    assertEquals("g", job.place(2));
    assertEquals("f", job.place(3));
    assertEquals(RankSet.empty(), job.move(RankSet.empty(), ProcessState.ERROR, "why"));
  }

  @Test
  void bulkMoveLeavesRanksThatMayNotMoveAsTheyAre() {
    DebugJob job = jobWith(8);
    job.move(RankSet.parse("0-7"), ProcessState.RUNNING, "");
    job.move(RankSet.parse("3,4"), ProcessState.EXITED, "exit code 0");
    job.move(RankSet.parse("5"), ProcessState.LOST, "");
    List<ModelEvent> events = new ArrayList<>();
    job.addChildListener(events::add);

    RankSet moved = job.move(RankSet.parse("0-7"), ProcessState.STOPPED, "f");

    assertEquals("0-2,6,7", moved.toString());
    assertEquals("0-2,6,7", job.ranksIn(ProcessState.STOPPED).toString());
    assertEquals("3,4", job.ranksIn(ProcessState.EXITED).toString());
    assertEquals("exit code 0", job.place(3));
    assertEquals("5", job.ranksIn(ProcessState.LOST).toString());
    assertEquals(
        List.of(
            new ModelEvent.ProcessesMoved(
                job, Map.of(ProcessState.RUNNING, moved), ProcessState.STOPPED, "f")),
        events);
  }

  @Test
  void bulkMoveIgnoresRanksWithoutProcesses() {
    DebugJob job = jobWith(4);
    assertEquals("2,3", job.move(RankSet.parse("2-9"), ProcessState.RUNNING, "").toString());
    assertEquals("0,1", job.ranksIn(ProcessState.NOT_STARTED).toString());
    assertEquals("", job.place(9));
  }

  @Test
  void bulkMoveSendsOneEventToChildListenersGroupedByPreviousState() {
    DebugJob job = jobWith(10);
    job.move(RankSet.parse("0-3"), ProcessState.RUNNING, "");
    job.move(RankSet.parse("8,9"), ProcessState.STOPPED, "f");
    List<ModelEvent> events = new ArrayList<>();
    job.addChildListener(events::add);

    job.move(RankSet.all(10), ProcessState.STOPPED, "g");

    Map<ProcessState, RankSet> from = new EnumMap<>(ProcessState.class);
    from.put(ProcessState.RUNNING, RankSet.parse("0-3"));
    from.put(ProcessState.NOT_STARTED, RankSet.parse("4-7"));
    from.put(ProcessState.STOPPED, RankSet.parse("8,9"));
    assertEquals(
        List.of(new ModelEvent.ProcessesMoved(job, from, ProcessState.STOPPED, "g")), events);
    assertEquals("0-9", ((ModelEvent.ProcessesMoved) events.get(0)).ranks().toString());
  }

  @Test
  void bulkMoveNotifiesProcessListenersOnlyAfterEveryStateIsUpdated() {
    DebugJob job = jobWith(3);
    DebugProcess first = job.process(0).orElseThrow();
    List<String> seen = new ArrayList<>();
    first.addListener(
        e -> seen.add(e + " while rank 2 is " + job.process(2).orElseThrow().state()));
    job.move(RankSet.all(3), ProcessState.RUNNING, "");
    assertEquals(
        List.of(
            new ModelEvent.StateChanged<>(first, ProcessState.NOT_STARTED, ProcessState.RUNNING)
                + " while rank 2 is RUNNING"),
        seen);
  }

  @Test
  void bulkMoveWithoutChangesNotifiesNobody() {
    DebugJob job = jobWith(3);
    List<ModelEvent> events = new ArrayList<>();
    job.addChildListener(events::add);
    job.move(RankSet.all(3), ProcessState.NOT_STARTED, "");
    assertEquals(List.of(), events);
  }

  @Test
  void processesMayBeAddedBeforeTheirNodeIsKnown() {
    DebugJob job = new DebugJob("j");
    List<ModelEvent> events = new ArrayList<>();
    job.addChildListener(events::add);
    job.addProcesses(RankSet.all(4));
    assertEquals("0-3", job.ranksIn(ProcessState.NOT_STARTED).toString());
    assertEquals("", job.process(3).orElseThrow().nodeName());
    assertEquals(List.of(new ModelEvent.ProcessesAdded(job, "", RankSet.all(4))), events);
    assertTrue(job.nodes().isEmpty());
  }

  @Test
  void locatingProcessesAddsTheirNodeUpAndSetsTheirPidsWithOneEvent() {
    DebugJob job = new DebugJob("j");
    job.addProcesses(RankSet.all(4));
    List<ModelEvent> events = new ArrayList<>();
    job.addChildListener(events::add);

    assertEquals(RankSet.of(0), job.locate(RankSet.of(0), "node1", 4100, 77));
    assertEquals(RankSet.of(1, 2), job.locate(RankSet.of(1, 2, 9), "node1", 0, 77));

    ComputeNode node = job.node("node1").orElseThrow();
    assertEquals(NodeState.UP, node.state());
    assertEquals(77, node.attribute(Attributes.SERVER_PID));
    assertEquals(RankSet.of(0, 1, 2), node.ranks());
    assertEquals(4100, job.process(0).orElseThrow().pid().orElseThrow());
    assertTrue(job.process(1).orElseThrow().pid().isEmpty());
    assertEquals("node1", job.process(2).orElseThrow().nodeName());
    assertEquals(
        List.of(
            new ModelEvent.ChildAdded(job, node),
            new ModelEvent.StateChanged<>(node, NodeState.UNKNOWN, NodeState.UP),
            new ModelEvent.ProcessesLocated(job, "node1", RankSet.of(0)),
            new ModelEvent.ProcessesLocated(job, "node1", RankSet.of(1, 2))),
        events);
  }

  @Test
  void locatingAgainChangesOnlyWhatMovedAndAProgramRunAgainHasItsNewPid() {
    DebugJob job = new DebugJob("j");
    job.addProcesses(RankSet.all(2));
    job.locate(RankSet.of(0), "node1", 4100, 77);
    job.locate(RankSet.of(1), "node1", 4101, 77);

    assertEquals(RankSet.empty(), job.locate(RankSet.of(0), "node1", 4100, 77));
    assertEquals(RankSet.of(0), job.locate(RankSet.of(0), "node1", 5200, 77));
    assertEquals(5200, job.process(0).orElseThrow().pid().orElseThrow());
    // A program that ended has no pid.
    assertEquals(RankSet.of(1), job.locate(RankSet.of(1), "node2", 0, 78));
    assertTrue(job.process(1).orElseThrow().pid().isEmpty());
    assertEquals(RankSet.of(0), job.ranksOn("node1"));
    assertEquals(RankSet.of(1), job.ranksOn("node2"));
  }

  @Test
  void aNodeGoesDownWhenAllItsProcessesAreLostAndUpWhenOneIsFoundAgain() {
    DebugJob job = new DebugJob("j");
    job.addProcesses(RankSet.all(4));
    job.locate(RankSet.of(0, 1), "node1", 0, 77);
    job.locate(RankSet.of(2, 3), "node2", 0, 78);
    job.move(RankSet.of(1, 2, 3), ProcessState.LOST, "");

    job.markNodesDown();

    assertEquals(NodeState.UP, job.node("node1").orElseThrow().state());
    assertEquals(NodeState.DOWN, job.node("node2").orElseThrow().state());
    job.locate(RankSet.of(2), "node2", 0, 79);
    assertEquals(NodeState.UP, job.node("node2").orElseThrow().state());
  }

  @Test
  void countedThreadsAreEachProcesssOwn() {
    DebugJob job = new DebugJob("j");
    job.addProcesses(RankSet.all(3));
    job.countThreads(RankSet.of(0, 2, 7), 4);
    assertEquals(4, job.process(0).orElseThrow().threads());
    assertEquals(0, job.process(1).orElseThrow().threads());
    assertEquals(4, job.process(2).orElseThrow().threads());
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

    job.move(RankSet.all(n), ProcessState.RUNNING, "");
    RankSet stopped = RankSet.all(n).minus(RankSet.of(36, 37));
    job.move(stopped, ProcessState.STOPPED, "main at a.c:3");

    assertEquals("36,37", job.ranksIn(ProcessState.RUNNING).toString());
    assertEquals("0-35,38-1048575", job.ranksIn(ProcessState.STOPPED).toString());
    assertEquals(2, events.size());
    assertEquals(ProcessState.STOPPED, job.process(n - 1).orElseThrow().state());
    assertFalse(job.ranksIn(ProcessState.NOT_STARTED).intersects(job.ranks()));
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
    assertEquals(2500, job.ranksIn(ProcessState.NOT_STARTED).size());
  }

  private static DebugJob jobWith(int ranks) {
    DebugJob job = new DebugJob("j");
    job.addNode("n");
    job.addProcesses("n", RankSet.all(ranks));
    return job;
  }
}
