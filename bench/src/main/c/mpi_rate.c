/* A message-rate loop between ranks 0 and 1 (bench/mpiwait.sh): for each size, rounds of WINDOW
 * nonblocking sends from 0 matched by WINDOW nonblocking receives on 1, both completed by
 * MPI_Waitall, then a zero-byte MPI_Send back as the round's acknowledgement. Each size runs for
 * SECONDS, cut into BLOCKS blocks of equal time after a first block of the same length that warms
 * up and is not counted. A block in which another process on the machine took either rank's core
 * (the kernel counts it as an involuntary context switch, getrusage's ru_nivcsw) is slower, as the
 * other rank polls on for nothing meanwhile: the calm blocks, in which neither rank was switched
 * out, measure the loop itself. Prints one line per size: "SIZE MEDIAN BEST CALM_MEDIAN CALM",
 * messages per second of all blocks' median, of the best block, the calm blocks' median (0 if
 * none) and how many blocks were calm. Usage: mpi_rate SECONDS_PER_SIZE [BLOCKS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#define WINDOW 64
#define MAX_BLOCKS 10000

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

int main(int argc, char **argv) {
  int rank;
  double seconds = argc > 1 ? atof(argv[1]) : 1.0;
  int blocks = argc > 2 ? atoi(argv[2]) : 1;
  blocks = blocks < 1 ? 1 : blocks > MAX_BLOCKS ? MAX_BLOCKS : blocks;
  static const int sizes[] = {8, 64, 1024, 8192};
  static char buf[WINDOW][8192];
  MPI_Request requests[WINDOW];
  double rates[MAX_BLOCKS], calm[MAX_BLOCKS];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    int size = sizes[s];
    int calms = 0;
    for (int block = -1; block < blocks; block++) {
      long rounds = 0;
      int go = 1;
      MPI_Barrier(MPI_COMM_WORLD);
      long switches = switched_out();
      double start = MPI_Wtime();
      while (go) {
        if (rank == 0) {
          for (int w = 0; w < WINDOW; w++) {
            MPI_Isend(buf[w], size, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &requests[w]);
          }
          MPI_Waitall(WINDOW, requests, MPI_STATUSES_IGNORE);
          MPI_Recv(&go, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
          for (int w = 0; w < WINDOW; w++) {
            MPI_Irecv(buf[w], size, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &requests[w]);
          }
          MPI_Waitall(WINDOW, requests, MPI_STATUSES_IGNORE);
          rounds++;
          go = MPI_Wtime() - start < seconds / blocks;
          MPI_Send(&go, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
        } else {
          go = 0;
        }
      }
      double rate = rounds * WINDOW / (MPI_Wtime() - start);
      long mine = switched_out() - switches, both;
      MPI_Allreduce(&mine, &both, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
      if (block >= 0) {
        rates[block] = rate;
        if (both == 0) {
          calm[calms++] = rate;
        }
      }
    }
    if (rank == 1) {
      double calm_median = median_of(calm, calms);
      double median = median_of(rates, blocks);
      printf("%d %.0f %.0f %.0f %d\n", size, median, rates[blocks - 1], calm_median, calms);
      fflush(stdout);
    }
  }
  MPI_Finalize();
  return 0;
}
