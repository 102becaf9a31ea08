/* Ranks 0, 1 and 2 each send a large message to the next of them before receiving: every send
 * waits for a receive that never comes, a cycle. Rank 3 waits for them in a barrier.
 * Under sdm: sdm stacks --launcher mpirun -n 4 --after 2s -- ./mpi_cycle */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define COUNT (1 << 20) /* past any eager limit: the send waits for its receive */

static void pass_on(int rank, int *buf) {
  int next = (rank + 1) % 3, prev = (rank + 2) % 3;
  MPI_Send(buf, COUNT, MPI_INT, next, 7, MPI_COMM_WORLD);
  MPI_Recv(buf, COUNT, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int *buf = calloc(COUNT, sizeof *buf);
  printf("rank %d started\n", rank);
  fflush(stdout);
  if (rank < 3) {
    pass_on(rank, buf);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  free(buf);
  return 0;
}
