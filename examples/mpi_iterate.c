/* A job that runs for a while, for sdm attach: each iteration computes a little, sums one number
 * over all ranks (MPI_Allreduce) and sleeps 50 ms. The first argument is the most iterations (200
 * by default: about 10 s); the second, if given, a file whose appearance ends the job early: rank 0
 * looks for it at each iteration and the sum tells every rank, so that they all stop after the
 * same iteration (a test says when it has seen what it needs, instead of waiting out a time).
 * Rank 0 says when it starts iterating and, at the end, the sum of all the sums beside the value
 * it must have; every rank exits with 0. A rank that sdm attaches to stops where it is, somewhere
 * in iterate(), and goes on from there when sdm detaches. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile long sink;

static long compute(int rank, int i) {
  long x = 0;
  for (int k = 0; k < 10000; k++) {
    x += (rank + i + k) % 7;
  }
  return x;
}

/* Iterates until the most iterations or until rank 0 sees `until`; how many it did in *done. */
static long iterate(int rank, int iterations, const char *until, int *done) {
  long total = 0;
  int i = 0;
  for (; i < iterations; i++) {
    sink += compute(rank, i); /* a little work between the sums */
    long mine[2] = {rank + i, rank == 0 && until != NULL && access(until, F_OK) == 0};
    long sum[2];
    MPI_Allreduce(mine, sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    total += sum[0];
    if (sum[1] > 0) {
      i++;
      break;
    }
    usleep(50000);
  }
  *done = i;
  return total;
}

int main(int argc, char **argv) {
  int rank, size, done;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int iterations = argc > 1 ? atoi(argv[1]) : 200;
  const char *until = argc > 2 ? argv[2] : NULL;
  if (rank == 0) {
    printf("iterating %d times on %d ranks\n", iterations, size);
    fflush(stdout);
  }
  long total = iterate(rank, iterations, until, &done);
  if (rank == 0) {
    /* Iteration i sums rank + i over the ranks: size * (size - 1) / 2 + size * i. */
    long n = done;
    long expected = n * size * (size - 1) / 2 + size * n * (n - 1) / 2;
    printf("total = %ld, expected %ld\n", total, expected);
  }
  MPI_Finalize();
  return 0;
}
