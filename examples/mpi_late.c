/* Rank 1 is late to MPI_Init: it sleeps SECONDS (default 3600) first, and every other rank waits for
 * it inside MPI_Init. Its rank is the launcher's, read before MPI has started (Open MPI, PMIx,
 * MPICH's PMI, Slurm). Under sdm: sdm debug --launcher mpirun -n 4 --wire-up 20 -- ./mpi_late
 * (after half the wire-up the ranks are attached where they are: bt shows rank 1 in sleep). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int launcher_rank(void) {
  const char *names[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"};
  for (int i = 0; i < 4; i++) {
    const char *value = getenv(names[i]);
    if (value != NULL) {
      return atoi(value);
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  int seconds = argc > 1 ? atoi(argv[1]) : 3600;
  if (launcher_rank() == 1) {
    sleep(seconds);
  }
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  printf("rank %d started MPI\n", rank);
  MPI_Finalize();
  return 0;
}
