/* A job that runs for a while, for sdm attach: each iteration computes a little, sums one number
 * over all ranks (MPI_Allreduce) and sleeps 50 ms; the first argument is the number of iterations
 * (200 by default: about 10 s). Rank 0 says when it starts iterating and, at the end, the sum of
 * all the sums beside the value it must have; every rank exits with 0. A rank that sdm attaches
 * to stops where it is, somewhere in iterate(), and goes on from there when sdm detaches. */
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

static long iterate(int rank, int iterations) {
  long total = 0;
  for (int i = 0; i < iterations; i++) {
    sink += compute(rank, i); /* a little work between the sums */
    long mine = rank + i, sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    total += sum;
    usleep(50000);
  }
  return total;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int iterations = argc > 1 ? atoi(argv[1]) : 200;
  if (rank == 0) {
    printf("iterating %d times on %d ranks\n", iterations, size);
    fflush(stdout);
  }
  long total = iterate(rank, iterations);
  if (rank == 0) {
    /* Iteration i sums rank + i over the ranks: size * (size - 1) / 2 + size * i. */
    long n = iterations;
    long expected = n * size * (size - 1) / 2 + size * n * (n - 1) / 2;
    printf("total = %ld, expected %ld\n", total, expected);
  }
  MPI_Finalize();
  return 0;
}
