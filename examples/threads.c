/* Every rank starts three workers that wait for work that never comes; on rank 1 the first worker
 * spins instead (its bug). Only a view of every thread shows it: the main threads all wait in
 * pthread_join. */
#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static volatile long spins;

static void *worker_a(void *arg) {
  pthread_mutex_lock(&lock);
  for (;;) pthread_cond_wait(&work, &lock); /* waits for work */
  return arg;
}

static void *worker_b(void *arg) {
  for (;;) spins++; /* rank 1's bug: spins */
  return arg;
}

int main(void) {
  const char *r = getenv("SDM_RANK");
  int rank = r ? atoi(r) : 0;
  pthread_t workers[3];
  for (int i = 0; i < 3; i++) {
    pthread_create(&workers[i], NULL, rank == 1 && i == 0 ? worker_b : worker_a, NULL);
  }
  for (int i = 0; i < 3; i++) {
    pthread_join(workers[i], NULL);
  }
  return 0;
}
