/* A message-rate loop between ranks 0 and 1 (bench/mpiwait.sh): for each size, rounds of WINDOW
 * nonblocking sends from 0 matched by WINDOW nonblocking receives on 1, both completed by
 * MPI_Waitall, then a zero-byte MPI_Send back as the round's acknowledgement. Prints one line per
 * size: "SIZE MESSAGES_PER_SECOND". Usage: mpi_rate SECONDS_PER_SIZE */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define WINDOW 64

int main(int argc, char **argv) {
  int rank;
  double seconds = argc > 1 ? atof(argv[1]) : 1.0;
  static const int sizes[] = {8, 64, 1024, 8192};
  static char buf[WINDOW][8192];
  MPI_Request requests[WINDOW];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    int size = sizes[s];
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
        go = MPI_Wtime() - start < seconds;
        MPI_Send(&go, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
      } else {
        go = 0;
      }
    }
    if (rank == 1) {
      printf("%d %.0f\n", size, rounds * WINDOW / (MPI_Wtime() - start));
      fflush(stdout);
    }
  }
  MPI_Finalize();
  return 0;
}
