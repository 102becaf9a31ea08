/* Each rank posts a receive from the next rank, tag 5, and sends to the previous one with tag 6:
 * no send matches a receive, and every rank waits in MPI_Waitall for the next, round the ring.
 * Under sdm: sdm stacks --launcher mpirun -n 4 --after 2s -- ./mpi_requests */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, size, in = 0, out;
  MPI_Request requests[2];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  out = rank;
  printf("rank %d started\n", rank);
  fflush(stdout);
  MPI_Irecv(&in, 1, MPI_INT, (rank + 1) % size, 5, MPI_COMM_WORLD, &requests[0]);
  MPI_Isend(&out, 1, MPI_INT, (rank + size - 1) % size, 6, MPI_COMM_WORLD, &requests[1]);
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  MPI_Finalize();
  return 0;
}
