/* Raises SIGUSR1 (handled) and then spins until interrupted. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile int got;
static void on_usr1(int sig) { got = sig; }

int main(void) {
  signal(SIGUSR1, on_usr1);
  raise(SIGUSR1);
  printf("got %d\n", got);
  fflush(stdout);
  volatile unsigned long spins = 0;
  for (;;) spins++; /* line 15: spin */
  return 0;
}
