/* A hang: ranks 1 and 2 wait for each other forever; the others wait at a "barrier". */
#include <stdlib.h>
#include <unistd.h>

static volatile int message;

static void barrier(void) {
  for (;;) pause(); /* everyone else waits here */
}

static void receive_from(int peer) {
  while (!message) usleep(1000); /* ranks 1 and 2: waiting for a message that never comes */
  (void)peer;
}

int main(void) {
  const char *r = getenv("SDM_RANK");
  int rank = r ? atoi(r) : 0;
  if (rank == 1) receive_from(2);
  if (rank == 2) receive_from(1);
  barrier();
  return 0;
}
