package io.sdmfabric.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sdmfabric.model.Frame;
import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.StackTree;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where the ranks' main threads are, for the MPI wait-for graph's "which is in compute at ...". */
class StackSnapshotTest {
  private static Frame frame(int level, String function, int line) {
    return new Frame(level, 0, function, line == 0 ? "" : "app.c", line, "");
  }

  @Test
  void stoppedRanksArePlacedWhereTheirMainThreadIsNotWhereTheInterruptLanded() {
    StackTree tree =
        StackTree.builder()
            .addThreads(
                List.of(
                    List.of(frame(0, "compute", 10), frame(1, "main", 23)),
                    List.of(frame(0, "epoll_wait", 0), frame(1, "clone3", 0))),
                RankSet.of(3))
            .addThreads(
                List.of(
                    List.of(frame(0, "PMPI_Allreduce", 0), frame(1, "main", 25)),
                    List.of(frame(0, "epoll_wait", 0), frame(1, "clone3", 0))),
                RankSet.of(0, 1, 2))
            .build();
    List<ProcessTable.Row> rows =
        List.of(
            new ProcessTable.Row(ProcessState.STOPPED, "??", RankSet.of(0, 1, 2, 3)),
            new ProcessTable.Row(ProcessState.EXITED, "exit code 0", RankSet.of(4)));
    assertEquals(
        List.of(
            new ProcessTable.Row(ProcessState.STOPPED, "PMPI_Allreduce", RankSet.of(0, 1, 2)),
            new ProcessTable.Row(ProcessState.STOPPED, "compute at app.c:10", RankSet.of(3)),
            new ProcessTable.Row(ProcessState.EXITED, "exit code 0", RankSet.of(4))),
        StackSnapshot.mainThreadPlaces(tree, rows));
  }
}
