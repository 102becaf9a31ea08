/* Ranks 0 and 1 each wait to receive from the other before sending: a deadlock. The other ranks
 * wait for them in a barrier. Under sdm: sdm stacks --launcher mpirun -n 4 -- ./mpi_deadlock */
#include <mpi.h>
#include <stdio.h>

static void exchange(int rank) {
  int peer = 1 - rank, got;
  MPI_Recv(&got, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send(&rank, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
}

static void wait_for_all(void) { MPI_Barrier(MPI_COMM_WORLD); }

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  printf("rank %d of %d started\n", rank, size);
  fflush(stdout);
  if (rank < 2) {
    exchange(rank);
  }
  wait_for_all();
  MPI_Finalize();
  return 0;
}
