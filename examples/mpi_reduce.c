/* Every rank contributes rank + 1 to a sum, except rank 2, whose contribution has the wrong
 * sign: the total comes out wrong on every rank. Under sdm, "print mine" at combine shows which. */
#include <mpi.h>
#include <stdio.h>

static int contribution(int rank) { return rank == 2 ? -(rank + 1) : rank + 1; }

static int combine(int mine) {
  int total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int total = combine(contribution(rank));
  if (rank == 0) {
    printf("total = %d, expected %d\n", total, size * (size + 1) / 2);
  }
  MPI_Finalize();
  return 0;
}
