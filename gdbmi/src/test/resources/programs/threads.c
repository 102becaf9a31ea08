/* Three worker threads that meet at a barrier. */
#include <pthread.h>
#include <stdio.h>

static pthread_barrier_t barrier;

static void *worker(void *arg) {
  int id = *(int *)arg;
  pthread_barrier_wait(&barrier); /* line 9: in worker */
  printf("worker %d\n", id);
  return NULL;
}

int main(void) {
  pthread_t t[3];
  int ids[3] = {1, 2, 3};
  pthread_barrier_init(&barrier, NULL, 4);
  for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, worker, &ids[i]);
  pthread_barrier_wait(&barrier);
  for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
  return 0;
}
