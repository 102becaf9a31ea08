package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code sdm stacks} of MPI jobs that hang, through the real launchers as in {@link SdmMpiIT}: the
 * merged stacks, and the MPI wait-for graph of sdm's library (who waits for whom, deadlocks named)
 * in text, JSON and DOT. A class of its own so that it runs beside the other IT classes: each of
 * its tests lets the job run 20 s before it samples.
 */
@Tag("gdb")
@Tag("mpi")
@Tag("slurm")
class SdmMpiStacksIT {

  @BeforeAll
  static void needsMpi() {
    Sdm.assumeGdbAndMpi();
  }

  @AfterEach
  void nothingIsLeftBehind() throws Exception {
    Sdm.assertNothingLeftBehind();
  }

  private static void contains(Sdm.Result r, String text) {
    assertTrue(r.out().contains(text), "missing \"" + text + "\" in\n" + r);
  }

  @ParameterizedTest
  @ValueSource(strings = {"mpirun", "srun", "mpich:mpirun", "mpich:srun"})
  void stacksShowTwoRanksDeadlockedInRecvAndTheRestInABarrier(String launcher) throws Exception {
    // MPI_Init under gdb takes seconds here: each component it dlopens stops gdb once, and one
    // gdb handles its ranks' one after the other. A rank still in MPI_Init when sampled can be
    // inside a library gdb has not been told of yet: its stack is all "??". 10 s was short once
    // under the full suite's load (srun).
    Sdm.Result r = stacks(launcher, "mpi_deadlock");
    assertEquals(0, r.exitCode(), r.toString());
    contains(r, "exchange at mpi_deadlock.c:8  [0,1]");
    contains(r, "PMPI_Recv  [0,1]");
    contains(r, "wait_for_all at mpi_deadlock.c:12  [2,3]");
    contains(r, "PMPI_Barrier  [2,3]");
  }

  /** {@code sdm stacks --launcher LAUNCHER -n 4 --after 20s [OPTIONS] -- EXAMPLE}, exit 0. */
  private static Sdm.Result stacks(String launcher, String example, String... options)
      throws Exception {
    Sdm.Mpi mpi = Sdm.Mpi.of(launcher);
    mpi.assume();
    List<String> args = new ArrayList<>(List.of("stacks", "--launcher", mpi.launcher(), "-n", "4"));
    // As above: MPI_Init under gdb takes seconds.
    args.addAll(List.of("--after", "20s"));
    args.addAll(List.of(options));
    args.addAll(mpi.launcherOptions());
    args.addAll(List.of("--", mpi.example(example).toString()));
    Sdm.Result r = Sdm.runWithEnv(mpi.env(), "", args.toArray(String[]::new));
    assertEquals(0, r.exitCode(), r.toString());
    return r;
  }

  @ParameterizedTest
  @ValueSource(strings = {"mpirun", "srun", "mpich:mpirun", "mpich:srun"})
  void stacksNameTheCycleOfSendsAndTheRankWaitingForItInABarrier(String launcher) throws Exception {
    Sdm.Result r = stacks(launcher, "mpi_cycle");
    contains(r, "pass_on at mpi_cycle.c:12  [0-2]");
    contains(r, "MPI waits:");
    contains(r, "  [0] MPI_Send to 1, tag 7, waits for [1]");
    contains(r, "  [3] MPI_Barrier on MPI_COMM_WORLD (collective #1), waits for [0-2]");
    contains(r, "deadlock: 0 -> 1 -> 2 -> 0, MPI_Send to the next rank, tag 7");
  }

  @ParameterizedTest
  @ValueSource(strings = {"mpirun", "mpich:mpirun", "mpich:srun"})
  void stacksNameTheRankACollectiveWaitsForWhichIsInCompute(String launcher) throws Exception {
    Sdm.Result r = stacks(launcher, "mpi_straggler", "--format", "json");
    contains(r, "\"event\":\"mpi-waits\"");
    contains(r, "\"waitsFor\":\"3\"");
    contains(
        r,
        "\"blockers\":[{\"waiters\":\"0-2\",\"call\":\"MPI_Allreduce\",\"ranks\":\"3\","
            + "\"where\":\"in compute at mpi_straggler.c:10\"}]");
    contains(r, "\"deadlocks\":[]");
  }

  @ParameterizedTest
  @ValueSource(strings = {"srun", "mpich:mpirun", "mpich:srun"})
  void stacksFollowTheRequestsAWaitallWaitsOnRoundTheRing(String launcher) throws Exception {
    Sdm.Result r = stacks(launcher, "mpi_requests", "--format", "dot");
    contains(r, "digraph waits {");
    contains(r, "[0] MPI_Waitall on MPI_Irecv from 1, tag 5; MPI_Isend to 3, tag 6\", color=red");
    contains(r, "  w0 -> w1;");
    contains(r, "  w3 -> w0;");
  }
}
