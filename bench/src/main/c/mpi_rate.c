/* A message-rate loop between ranks 0 and 1 (bench/mpiwait.sh): for each size, rounds of WINDOW
 * nonblocking sends from 0 matched by WINDOW nonblocking receives on 1, both completed by
 * MPI_Waitall, then a zero-byte MPI_Send back as the round's acknowledgement. Each size runs for
 * SECONDS, cut into BLOCKS blocks of equal time after a first block of the same length that warms
 * up and is not counted; a block that another process on the machine interrupts is slower, so the
 * best block is what the loop costs undisturbed and the median what it costs on this machine.
 * Prints one line per size: "SIZE MEDIAN_MESSAGES_PER_SECOND BEST_MESSAGES_PER_SECOND".
 * Usage: mpi_rate SECONDS_PER_SIZE [BLOCKS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define WINDOW 64
#define MAX_BLOCKS 100

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int rank;
  double seconds = argc > 1 ? atof(argv[1]) : 1.0;
  int blocks = argc > 2 ? atoi(argv[2]) : 1;
  blocks = blocks < 1 ? 1 : blocks > MAX_BLOCKS ? MAX_BLOCKS : blocks;
  static const int sizes[] = {8, 64, 1024, 8192};
  static char buf[WINDOW][8192];
  MPI_Request requests[WINDOW];
  double rates[MAX_BLOCKS];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    int size = sizes[s];
    for (int block = -1; block < blocks; block++) {
      long rounds = 0;
      int go = 1;
      MPI_Barrier(MPI_COMM_WORLD);
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
      if (block >= 0) {
        rates[block] = rounds * WINDOW / (MPI_Wtime() - start);
      }
    }
    if (rank == 1) {
      qsort(rates, blocks, sizeof *rates, by_value);
      double median = blocks % 2 ? rates[blocks / 2] : (rates[blocks / 2 - 1] + rates[blocks / 2]) / 2;
      printf("%d %.0f %.0f\n", size, median, rates[blocks - 1]);
      fflush(stdout);
    }
  }
  MPI_Finalize();
  return 0;
}
