/* Each rank computes a value from its rank; rank 2 gets it wrong. */
#include <stdio.h>
#include <stdlib.h>

static int compute(int rank) {
  int value = rank == 2 ? -1 : 42; /* rank 2's bug */
  return value;
}

int main(void) {
  const char *r = getenv("SDM_RANK");
  const char *n = getenv("SDM_SIZE");
  int rank = r ? atoi(r) : 0;
  int size = n ? atoi(n) : 1;
  int x = compute(rank);
  printf("hello from the program\n");
  printf("rank %d of %d: x = %d\n", rank, size, x);
  return 0;
}
