package io.sdmfabric.cli;

import static io.sdmfabric.cli.Sdm.contains;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The MPI wait-for graph of sdm's library in {@code sdm stacks} of MPI jobs that wait, through the
 * real launchers as in {@link SdmMpiIT}: who waits for whom, in JSON and DOT, for a collective and
 * for the requests of an MPI_Waitall. A class of its own (as {@link SdmMpiStacksIT}) so that it
 * runs beside the other IT classes: each of its tests lets the job run 20 s before it samples.
 */
@Tag("gdb")
@Tag("mpi")
@Tag("slurm")
class SdmMpiWaitsIT extends WithMpi {

  @ParameterizedTest
  @ValueSource(strings = {"mpirun", "mpich:mpirun", "mpich:srun"})
  void stacksNameTheRankACollectiveWaitsForWhichIsInCompute(String launcher) throws Exception {
    Sdm.Result r = Sdm.mpiStacks(launcher, "mpi_straggler", "--format", "json");
    contains(r, "\"event\":\"mpi-waits\"");
    contains(r, "\"waitsFor\":\"3\"");
    // Rank 3 is interrupted somewhere in its loop: on its line 9 (i++) or 10 (the sum).
    assertTrue(
        Pattern.compile(
                Pattern.quote(
                        "\"blockers\":[{\"waiters\":\"0-2\",\"call\":\"MPI_Allreduce\","
                            + "\"ranks\":\"3\",\"where\":\"in compute at mpi_straggler.c:")
                    + "(9|10)\"}\\]")
            .matcher(r.out())
            .find(),
        r.toString());
    contains(r, "\"deadlocks\":[]");
  }

  @ParameterizedTest
  @ValueSource(strings = {"srun", "mpich:mpirun", "mpich:srun"})
  void stacksFollowTheRequestsAWaitallWaitsOnRoundTheRing(String launcher) throws Exception {
    Sdm.Result r = Sdm.mpiStacks(launcher, "mpi_requests", "--format", "dot");
    contains(r, "digraph waits {");
    contains(r, "[0] MPI_Waitall on MPI_Irecv from 1, tag 5; MPI_Isend to 3, tag 6\", color=red");
    contains(r, "  w0 -> w1;");
    contains(r, "  w3 -> w0;");
  }
}
