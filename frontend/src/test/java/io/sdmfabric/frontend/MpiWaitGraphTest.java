package io.sdmfabric.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.MpiWait;
import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.RankReply;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The MPI wait-for graph of replies as the tree merges them: the waits, the deadlocks named, the
 * ranks waited for outside MPI, in text and JSON.
 */
class MpiWaitGraphTest {
  private static final MpiWait.Comm WORLD = new MpiWait.Comm(7, 4, RankSet.all(4), true);

  private static MpiWait send(int to, int tag) {
    return p2p("MPI_Send", new MpiWait.Peer(to, tag, "MPI_Send"));
  }

  private static MpiWait p2p(String call, MpiWait.Peer... peers) {
    return new MpiWait(MpiWait.State.WAITING, call, false, false, List.of(peers), WORLD, 0);
  }

  private static MpiWait collective(String call, MpiWait.Comm comm, long sequence) {
    return new MpiWait(MpiWait.State.WAITING, call, false, false, List.of(), comm, sequence);
  }

  private static RankReply reply(RankSet ranks, MpiWait wait) {
    return new RankReply(ranks, EventBodies.mpiWait(wait));
  }

  private static String text(MpiWaitGraph graph) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new TextRenderer(new PrintStream(bytes, true, StandardCharsets.UTF_8)).mpiWaits(graph);
    return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
  }

  private static String json(MpiWaitGraph graph) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new JsonRenderer(new PrintStream(bytes, true, StandardCharsets.UTF_8)).mpiWaits(graph);
    return bytes.toString(StandardCharsets.UTF_8).strip();
  }

  @Test
  void aCycleOfSendsIsNamedAndTheBarrierWaitingForItIsDeadlockedToo() {
    MpiWaitGraph graph =
        new MpiWaitGraph(
            List.of(
                reply(RankSet.of(0), send(1, 7)),
                reply(RankSet.of(1), send(2, 7)),
                reply(RankSet.of(2), send(0, 7)),
                reply(RankSet.of(3), collective("MPI_Barrier", WORLD, 1))),
            List.of());
    assertEquals(
        String.join(
            "\n",
            "MPI waits:",
            "  [0] MPI_Send to 1, tag 7, waits for [1]",
            "  [1] MPI_Send to 2, tag 7, waits for [2]",
            "  [2] MPI_Send to 0, tag 7, waits for [0]",
            "  [3] MPI_Barrier on MPI_COMM_WORLD (collective #1), waits for [0-2]",
            "deadlock: 0 -> 1 -> 2 -> 0, MPI_Send to the next rank, tag 7",
            ""),
        text(graph));
    assertEquals(RankSet.all(4), graph.deadlocked());
    String json = json(graph);
    assertTrue(json.startsWith("{\"event\":\"mpi-waits\",\"ranks\":\"0-3\",\"waits\":["), json);
    assertTrue(
        json.contains(
            "\"deadlocks\":[{\"cycle\":[0,1,2],\"path\":\"0 -> 1 -> 2 -> 0\","
                + "\"how\":\"MPI_Send to the next rank, tag 7\"}]"),
        json);
  }

  @Test
  void ranksInACollectiveWaitForTheOneThatNeverEntersItWhichIsInCompute() {
    MpiWaitGraph graph =
        new MpiWaitGraph(
            List.of(
                reply(RankSet.of(0, 1, 2), collective("MPI_Allreduce", WORLD, 3)),
                reply(RankSet.of(3), MpiWait.IDLE)),
            List.of(
                new ProcessTable.Row(
                    ProcessState.STOPPED, "compute at solver.c:88", RankSet.of(3))));
    assertEquals(
        String.join(
            "\n",
            "MPI waits:",
            "  [0-2] MPI_Allreduce on MPI_COMM_WORLD (collective #3), waits for [3]",
            "ranks 0-2 wait in MPI_Allreduce for rank 3, which is in compute at solver.c:88",
            ""),
        text(graph));
    assertEquals(RankSet.empty(), graph.deadlocked());
    assertEquals(List.of(), graph.cycles());
  }

  @Test
  void aMillionRanksInACollectiveMakeOneGroupAndOneBlocker() {
    int size = 1 << 20;
    MpiWait.Comm world = new MpiWait.Comm(7, size, RankSet.all(size), true);
    MpiWaitGraph graph =
        new MpiWaitGraph(
            List.of(
                reply(RankSet.range(0, size - 1), collective("MPI_Allreduce", world, 9)),
                reply(RankSet.of(size - 1), MpiWait.IDLE)),
            List.of(
                new ProcessTable.Row(
                    ProcessState.STOPPED, "compute at solver.c:88", RankSet.of(size - 1))));
    assertEquals(
        List.of(
            new MpiWaitGraph.Blocker(
                RankSet.range(0, size - 1),
                "MPI_Allreduce",
                RankSet.of(size - 1),
                "in compute at solver.c:88")),
        graph.blockers());
    assertEquals(RankSet.of(size - 1), graph.waitsFor(5));
  }

  @Test
  void aRankAlreadyInALaterCollectiveHasArrivedAtTheEarlierOne() {
    MpiWaitGraph graph =
        new MpiWaitGraph(
            List.of(
                reply(RankSet.of(0), collective("MPI_Bcast", WORLD, 4)),
                reply(RankSet.of(1, 2, 3), collective("MPI_Bcast", WORLD, 5))),
            List.of());
    assertEquals(RankSet.empty(), graph.waitsFor(0));
    assertEquals(RankSet.of(0), graph.waitsFor(1));
  }

  @Test
  void requestsWaitedOnWaitForTheirReceivesAndARingOfThemIsADeadlock() {
    List<RankReply> replies = new ArrayList<>();
    for (int r = 0; r < 4; r++) {
      replies.add(
          reply(
              RankSet.of(r),
              p2p(
                  "MPI_Waitall",
                  new MpiWait.Peer((r + 1) % 4, 5, "MPI_Irecv"),
                  new MpiWait.Peer((r + 3) % 4, 6, "MPI_Isend"))));
    }
    MpiWaitGraph graph = new MpiWaitGraph(replies, List.of());
    assertEquals(RankSet.of(1), graph.waitsFor(0));
    assertEquals(
        List.of(
            new MpiWaitGraph.Cycle(
                List.of(0, 1, 2, 3), "MPI_Waitall on MPI_Irecv from the next rank, tag 5")),
        graph.cycles());
    assertTrue(
        text(graph).contains("  [0] MPI_Waitall on MPI_Irecv from 1, tag 5; MPI_Isend to 3, tag 6"),
        text(graph));
  }

  @Test
  void aReceiveFromAnySourceIsReleasedByAnyRankThatCanStillSend() {
    MpiWaitGraph graph =
        new MpiWaitGraph(
            List.of(
                reply(
                    RankSet.of(0),
                    p2p("MPI_Recv", new MpiWait.Peer(MpiWait.Peer.ANY, -1, "MPI_Recv"))),
                reply(RankSet.of(1, 2), send(0, 1)),
                reply(RankSet.of(3), MpiWait.IDLE)),
            List.of(new ProcessTable.Row(ProcessState.EXITED, "exit code 0", RankSet.of(3))));
    assertEquals(RankSet.of(1, 2, 3), graph.waitsFor(0));
    assertEquals(RankSet.empty(), graph.deadlocked());
    assertTrue(
        text(graph).contains("rank 0 waits in MPI_Recv for rank 3, which is exited, exit code 0"),
        text(graph));
  }

  @Test
  void aBlockingReceiveNamesItsSource() {
    MpiWaitGraph graph =
        new MpiWaitGraph(
            List.of(
                reply(RankSet.of(0), p2p("MPI_Recv", new MpiWait.Peer(1, 0, "MPI_Recv"))),
                reply(RankSet.of(1), p2p("MPI_Recv", new MpiWait.Peer(0, 0, "MPI_Recv")))),
            List.of());
    assertTrue(text(graph).contains("  [0] MPI_Recv from 1, tag 0, waits for [1]"), text(graph));
    assertEquals(
        List.of(new MpiWaitGraph.Cycle(List.of(0, 1), "MPI_Recv from the next rank, tag 0")),
        graph.cycles());
  }

  @Test
  void aCollectiveOnASubcommunicatorWaitsForItsMembersOnly() {
    MpiWait.Comm evens = new MpiWait.Comm(99, 2, RankSet.of(0, 2), false);
    MpiWaitGraph graph =
        new MpiWaitGraph(
            List.of(
                reply(RankSet.of(0), collective("MPI_Barrier", evens, 1)),
                reply(RankSet.of(1, 2, 3), MpiWait.IDLE)),
            List.of());
    assertEquals(RankSet.of(2), graph.waitsFor(0));
    assertTrue(
        text(graph).contains("MPI_Barrier on a communicator of 2 ranks [0,2] (collective #1)"),
        text(graph));
  }

  @Test
  void aJobWithNoCallPendingHasAnEmptyGraphAndRanksWithoutRecordsAreSaid() {
    MpiWaitGraph graph =
        new MpiWaitGraph(
            List.of(reply(RankSet.of(0, 1), MpiWait.IDLE), reply(RankSet.of(2), MpiWait.UNKNOWN)),
            List.of());
    assertTrue(graph.isEmpty());
    assertEquals(RankSet.of(2), graph.unknown());
    assertTrue(text(graph).startsWith("MPI waits: none; no records on [2]"), text(graph));
  }
}
