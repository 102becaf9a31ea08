/* The last rank crashes in the function that prepares its message, before it reaches MPI_Send;
 * rank 0 waits for that message forever, the others in a barrier. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int *halo_for(int rank, int size) {
  return rank == size - 1 ? NULL : calloc(4, sizeof(int));
}

static void send_halo(int rank, int size) {
  int *halo = halo_for(rank, size);
  halo[0] = rank;
  MPI_Send(halo, 4, MPI_INT, 0, 0, MPI_COMM_WORLD);
  free(halo);
}

int main(int argc, char **argv) {
  int rank, size, halo[4];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    for (int from = 1; from < size; from++) {
      MPI_Recv(halo, 4, MPI_INT, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  } else {
    send_halo(rank, size);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
