/* Two threads that run forever, and a main thread that calls ready() once both have started: a
 * rank with threads still running when its main thread stops. */
#include <pthread.h>
#include <unistd.h>

static pthread_barrier_t started;

static void *spin(void *arg) {
  pthread_barrier_wait(&started);
  for (;;) usleep(1000);
  return arg;
}

void ready(void) {}

int main(void) {
  pthread_t t[2];
  pthread_barrier_init(&started, NULL, 3);
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, spin, NULL);
  pthread_barrier_wait(&started);
  ready();
  for (;;) sleep(1);
}
