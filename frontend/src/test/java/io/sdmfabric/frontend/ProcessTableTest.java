package io.sdmfabric.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.ModelEvent;
import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.RankReply;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProcessTableTest {
  private static final String WHY = "gdb exited unexpectedly (killed by SIGKILL)";
  private static final Frame COMPUTE = new Frame(0, 0x401136L, "compute", "ranks.c", 6, "");

  private static RankReply event(RankSet ranks, DebugEvent e) {
    return new RankReply(ranks, EventBodies.event(e));
  }

  private static ProcessTable stoppedAtCompute(int size) {
    ProcessTable table = new ProcessTable(size);
    table.apply(
        event(
            RankSet.all(size),
            new DebugEvent.Stopped(StopReason.BREAKPOINT_HIT, "", COMPUTE, 1, 1)));
    return table;
  }

  @Test
  void aDebuggerThatEndedPutsOnlyItsRankInErrorWithTheReason() {
    ProcessTable table = stoppedAtCompute(4);
    table.apply(event(RankSet.of(2), new DebugEvent.DebuggerEnded(WHY)));
    assertEquals(
        List.of(
            new ProcessTable.Row(ProcessState.STOPPED, COMPUTE.describe(), RankSet.of(0, 1, 3)),
            new ProcessTable.Row(ProcessState.ERROR, WHY, RankSet.of(2))),
        table.rows(RankSet.all(4)));
  }

  @Test
  void errorIsFinalButARankInErrorCanStillBeLost() {
    ProcessTable table = stoppedAtCompute(2);
    table.apply(event(RankSet.of(1), new DebugEvent.DebuggerEnded(WHY)));
    table.markRunning(RankSet.all(2));
    table.apply(event(RankSet.all(2), DebugEvent.Exited.withCode(0)));
    assertEquals(RankSet.of(1), table.ranksIn(ProcessState.ERROR, RankSet.all(2)));
    assertEquals(RankSet.of(0), table.ranksIn(ProcessState.EXITED, RankSet.all(2)));
    table.apply(new RankReply(RankSet.of(1), EventBodies.rankLost()));
    assertEquals(RankSet.of(1), table.ranksIn(ProcessState.LOST, RankSet.all(2)));
  }

  @Test
  void waitEndsWhenTheDebuggerOfARunningRankEnds() throws Exception {
    ProcessTable table = stoppedAtCompute(2);
    table.markRunning(RankSet.all(2));
    table.apply(event(RankSet.of(0), DebugEvent.Exited.withCode(0)));
    Thread ender =
        new Thread(() -> table.apply(event(RankSet.of(1), new DebugEvent.DebuggerEnded(WHY))));
    ender.start();
    assertEquals(RankSet.empty(), table.awaitNotRunning(RankSet.all(2), 60_000));
    ender.join();
  }

  @Test
  void detachedIsFinalUntilLostAndNotRunning() throws Exception {
    ProcessTable table = stoppedAtCompute(3);
    table.put(RankSet.of(1, 2), ProcessState.DETACHED, "");
    table.markRunning(RankSet.all(3));
    table.apply(event(RankSet.all(3), DebugEvent.Exited.withCode(0)));
    assertEquals(
        List.of(
            new ProcessTable.Row(ProcessState.EXITED, "exit code 0", RankSet.of(0)),
            new ProcessTable.Row(ProcessState.DETACHED, "", RankSet.of(1, 2))),
        table.rows(RankSet.all(3)));
    assertEquals(RankSet.empty(), table.awaitNotRunning(RankSet.all(3), 0));
    table.lose(RankSet.of(2));
    table.put(RankSet.of(2), ProcessState.DETACHED, "");
    assertEquals(RankSet.of(2), table.ranksIn(ProcessState.LOST, RankSet.all(3)));
  }

  @Test
  void putRecordsWhatAnAttachFound() {
    ProcessTable table = new ProcessTable(4);
    table.put(RankSet.of(1, 3), ProcessState.STOPPED, COMPUTE.describe());
    table.put(RankSet.of(0, 2), ProcessState.DETACHED, "not attached");
    assertEquals(
        List.of(
            new ProcessTable.Row(ProcessState.DETACHED, "not attached", RankSet.of(0, 2)),
            new ProcessTable.Row(ProcessState.STOPPED, COMPUTE.describe(), RankSet.of(1, 3))),
        table.rows(RankSet.all(4)));
  }

  @Test
  void anExitedRankStaysExitedWhenItsServerGoesAndALostRankHearsNothingMore() {
    ProcessTable table = stoppedAtCompute(3);
    table.markRunning(RankSet.all(3));
    table.apply(event(RankSet.of(0), DebugEvent.Exited.withCode(3)));
    table.lose(RankSet.of(0, 1));
    table.apply(
        event(
            RankSet.of(1, 2),
            new DebugEvent.Stopped(StopReason.BREAKPOINT_HIT, "", COMPUTE, 1, 1)));
    assertEquals(
        List.of(
            new ProcessTable.Row(ProcessState.EXITED, "exit code 3", RankSet.of(0)),
            new ProcessTable.Row(ProcessState.LOST, "", RankSet.of(1)),
            new ProcessTable.Row(ProcessState.STOPPED, COMPUTE.describe(), RankSet.of(2))),
        table.rows(RankSet.all(3)));
  }

  @Test
  void theFirstReasonADebuggerEndedForStands() {
    ProcessTable table = stoppedAtCompute(2);
    table.apply(event(RankSet.of(1), new DebugEvent.DebuggerEnded(WHY)));
    table.apply(event(RankSet.of(1), new DebugEvent.DebuggerEnded("later")));
    assertEquals(
        List.of(new ProcessTable.Row(ProcessState.ERROR, WHY, RankSet.of(1))),
        table.rows(RankSet.of(1)));
  }

  @Test
  void aFailedResumePutsTheRanksBackWhereTheyWere() {
    ProcessTable table = new ProcessTable(3);
    table.put(RankSet.of(0, 1), ProcessState.STOPPED, COMPUTE.describe());
    ProcessTable before = table.snapshot();
    table.markRunning(RankSet.all(3));
    assertEquals(RankSet.all(3), table.ranksIn(ProcessState.RUNNING, RankSet.all(3)));
    table.resumeFailed(RankSet.of(1, 2), before);
    assertEquals(
        List.of(
            new ProcessTable.Row(ProcessState.RUNNING, "", RankSet.of(0)),
            new ProcessTable.Row(ProcessState.STOPPED, COMPUTE.describe(), RankSet.of(1)),
            new ProcessTable.Row(ProcessState.NOT_STARTED, "", RankSet.of(2))),
        table.rows(RankSet.all(3)));
  }

  @Test
  void everyChangeIsOneEventOfTheModel() {
    ProcessTable table = new ProcessTable(4);
    List<ModelEvent> events = new ArrayList<>();
    table.listen(events::add);
    table.markRunning(RankSet.all(4));
    table.apply(
        event(
            RankSet.of(0, 1),
            new DebugEvent.Stopped(StopReason.BREAKPOINT_HIT, "", COMPUTE, 1, 1)));
    table.markRunning(RankSet.of(3)); // running already: no change, no event
    assertEquals(2, events.size(), events.toString());
    ModelEvent.ProcessesMoved stop = (ModelEvent.ProcessesMoved) events.get(1);
    assertEquals(ProcessState.STOPPED, stop.to());
    assertEquals(COMPUTE.describe(), stop.place());
    assertEquals(RankSet.of(0, 1), stop.ranks());
  }
}
