/* The MPI calls of mpi_rate's loop on one rank, to itself (bench/mpiwait.sh): rounds of WINDOW
 * MPI_Irecv and WINDOW MPI_Isend of SIZE bytes on MPI_COMM_WORLD, all completed by one MPI_Waitall.
 * One process and no partner to wait for, so that another process on the machine only takes whole
 * time slices from it: a short block of rounds it runs through unbroken measures what the calls,
 * and a library wrapped round them, cost.
 *
 * Usage: mpi_self ROUNDS SIZE: runs exchange() ROUNDS times (bench/mpiwait.sh counts the
 * instructions inside it with callgrind). mpi_self -t SECONDS BLOCKS: for each size, BLOCKS blocks
 * of SECONDS / BLOCKS, after a first one not counted; prints "SIZE MEDIAN BEST CALM_MEDIAN CALM" as
 * mpi_rate.c does: messages per second of all blocks' median, the best block, the median of the
 * calm blocks (those in which the kernel did not switch the process out: getrusage's ru_nivcsw)
 * and how many were calm. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define WINDOW 64
#define MAX_BLOCKS 10000

static char in[WINDOW][8192], out[WINDOW][8192];

__attribute__((noinline)) void exchange(long rounds, int size) {
  MPI_Request requests[2 * WINDOW];
  for (long r = 0; r < rounds; r++) {
    for (int w = 0; w < WINDOW; w++) {
      MPI_Irecv(in[w], size, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &requests[w]);
    }
    for (int w = 0; w < WINDOW; w++) {
      MPI_Isend(out[w], size, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &requests[WINDOW + w]);
    }
    MPI_Waitall(2 * WINDOW, requests, MPI_STATUSES_IGNORE);
  }
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median_of(double *v, int n) {
  qsort(v, n, sizeof *v, by_value);
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static long switched_out(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_nivcsw;
}

static void timed(double seconds, int blocks) {
  static const int sizes[] = {8, 64, 1024, 8192};
  static double rates[MAX_BLOCKS], calm[MAX_BLOCKS];
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    int calms = 0;
    for (int block = -1; block < blocks; block++) {
      long rounds = 0, switches = switched_out();
      double start = MPI_Wtime(), now;
      do {
        exchange(1, sizes[s]);
        rounds++;
      } while ((now = MPI_Wtime()) - start < seconds / blocks);
      if (block >= 0) {
        rates[block] = rounds * WINDOW / (now - start);
        if (switched_out() == switches) {
          calm[calms++] = rates[block];
        }
      }
    }
    double calm_median = median_of(calm, calms);
    double median = median_of(rates, blocks);
    printf("%d %.0f %.0f %.0f %d\n", sizes[s], median, rates[blocks - 1], calm_median, calms);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc > 3 && strcmp(argv[1], "-t") == 0) {
    int blocks = atoi(argv[3]);
    timed(atof(argv[2]), blocks < 1 ? 1 : blocks > MAX_BLOCKS ? MAX_BLOCKS : blocks);
  } else {
    long rounds = argc > 1 ? atol(argv[1]) : 100;
    int size = argc > 2 ? atoi(argv[2]) : 8;
    exchange(1, size); /* the first round allocates MPI's free lists: counted, but once */
    exchange(rounds, size);
  }
  MPI_Finalize();
  return 0;
}
