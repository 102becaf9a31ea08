/* The main thread blocks SIGINT, so an interrupt lands on the helper thread, as it often does on
 * an MPI runtime's progress threads. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static void *helper(void *arg) {
  for (;;) pause();
  return arg;
}

int main(void) {
  sigset_t blocked;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGINT);
  pthread_t t;
  pthread_create(&t, NULL, helper, NULL);
  pthread_sigmask(SIG_BLOCK, &blocked, NULL);
  printf("ready\n");
  fflush(stdout);
  for (;;) sleep(1);
}
