package io.sdmfabric.cli;

import static io.sdmfabric.cli.Sdm.contains;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code sdm stacks} of MPI jobs that deadlock, through the real launchers as in {@link SdmMpiIT}:
 * the merged stacks, and the deadlock named from the MPI wait-for graph of sdm's library. A class
 * of its own (and {@link SdmMpiWaitsIT} another) so that it runs beside the other IT classes: each
 * of its tests lets the job run 20 s before it samples ({@link Sdm#mpiStacks}).
 */
@Tag("gdb")
@Tag("mpi")
@Tag("slurm")
class SdmMpiStacksIT extends WithMpi {

  @ParameterizedTest
  @ValueSource(strings = {"mpirun", "srun", "mpich:mpirun", "mpich:srun"})
  void stacksShowTwoRanksDeadlockedInRecvAndTheRestInABarrier(String launcher) throws Exception {
    Sdm.Result r = Sdm.mpiStacks(launcher, "mpi_deadlock");
    assertEquals(0, r.exitCode(), r.toString());
    contains(r, "exchange at mpi_deadlock.c:8  [0,1]");
    contains(r, "PMPI_Recv  [0,1]");
    contains(r, "wait_for_all at mpi_deadlock.c:12  [2,3]");
    contains(r, "PMPI_Barrier  [2,3]");
  }

  @ParameterizedTest
  @ValueSource(strings = {"mpirun", "srun", "mpich:mpirun", "mpich:srun"})
  void stacksNameTheCycleOfSendsAndTheRankWaitingForItInABarrier(String launcher) throws Exception {
    Sdm.Result r = Sdm.mpiStacks(launcher, "mpi_cycle");
    contains(r, "pass_on at mpi_cycle.c:12  [0-2]");
    contains(r, "MPI waits:");
    contains(r, "  [0] MPI_Send to 1, tag 7, waits for [1]");
    contains(r, "  [3] MPI_Barrier on MPI_COMM_WORLD (collective #1), waits for [0-2]");
    contains(r, "deadlock: 0 -> 1 -> 2 -> 0, MPI_Send to the next rank, tag 7");
  }
}
