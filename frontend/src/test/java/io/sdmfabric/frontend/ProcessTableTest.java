package io.sdmfabric.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.RankReply;
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
            new ProcessTable.Row(
                ProcessTable.State.STOPPED, COMPUTE.describe(), RankSet.of(0, 1, 3)),
            new ProcessTable.Row(ProcessTable.State.ERROR, WHY, RankSet.of(2))),
        table.rows(RankSet.all(4)));
  }

  @Test
  void errorIsFinalButARankInErrorCanStillBeLost() {
    ProcessTable table = stoppedAtCompute(2);
    table.apply(event(RankSet.of(1), new DebugEvent.DebuggerEnded(WHY)));
    table.markRunning(RankSet.all(2));
    table.apply(event(RankSet.all(2), DebugEvent.Exited.withCode(0)));
    assertEquals(RankSet.of(1), table.ranksIn(ProcessTable.State.ERROR, RankSet.all(2)));
    assertEquals(RankSet.of(0), table.ranksIn(ProcessTable.State.EXITED, RankSet.all(2)));
    table.apply(new RankReply(RankSet.of(1), EventBodies.rankLost()));
    assertEquals(RankSet.of(1), table.ranksIn(ProcessTable.State.LOST, RankSet.all(2)));
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
    table.put(RankSet.of(1, 2), ProcessTable.State.DETACHED, "");
    table.markRunning(RankSet.all(3));
    table.apply(event(RankSet.all(3), DebugEvent.Exited.withCode(0)));
    assertEquals(
        List.of(
            new ProcessTable.Row(ProcessTable.State.EXITED, "exit code 0", RankSet.of(0)),
            new ProcessTable.Row(ProcessTable.State.DETACHED, "", RankSet.of(1, 2))),
        table.rows(RankSet.all(3)));
    assertEquals(RankSet.empty(), table.awaitNotRunning(RankSet.all(3), 0));
    table.lose(RankSet.of(2));
    table.put(RankSet.of(2), ProcessTable.State.DETACHED, "");
    assertEquals(RankSet.of(2), table.ranksIn(ProcessTable.State.LOST, RankSet.all(3)));
  }

  @Test
  void putRecordsWhatAnAttachFound() {
    ProcessTable table = new ProcessTable(4);
    table.put(RankSet.of(1, 3), ProcessTable.State.STOPPED, COMPUTE.describe());
    table.put(RankSet.of(0, 2), ProcessTable.State.DETACHED, "not attached");
    assertEquals(
        List.of(
            new ProcessTable.Row(ProcessTable.State.DETACHED, "not attached", RankSet.of(0, 2)),
            new ProcessTable.Row(ProcessTable.State.STOPPED, COMPUTE.describe(), RankSet.of(1, 3))),
        table.rows(RankSet.all(4)));
  }
}
