/* Ticks for a while (the first argument: how many 20 ms ticks, 200 by default), then says how many
 * ticks it counted and exits with 0: a running process for gdb to attach to and leave again. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile long ticks;

static void tick(void) {
  ticks++;
  usleep(20000);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 200;
  printf("ticking\n");
  fflush(stdout);
  for (long i = 0; i < n; i++) {
    tick();
  }
  printf("ticked %ld times\n", ticks);
  return 0;
}
