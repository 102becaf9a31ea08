/* Every rank but the last sums its part in MPI_Allreduce; the last never gets there: it computes
 * forever. Under sdm: sdm stacks --launcher mpirun -n 4 --after 2s -- ./mpi_straggler */
#include <mpi.h>
#include <stdio.h>

static volatile double sink;

static void compute(void) {
  for (long i = 0;; i++) {
    sink += (double)i;
  }
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double part = rank, sum = 0;
  printf("rank %d started\n", rank);
  fflush(stdout);
  if (rank == size - 1) {
    compute();
  }
  MPI_Allreduce(&part, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
