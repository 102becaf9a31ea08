/* Rank 1 dereferences a null pointer; the others finish. */
#include <stdio.h>
#include <stdlib.h>

static int load(const int *p) { return *p; }

int main(void) {
  const char *r = getenv("SDM_RANK");
  int rank = r ? atoi(r) : 0;
  int value = 7;
  const int *p = rank == 1 ? NULL : &value;
  printf("rank %d loads %d\n", rank, load(p));
  return 0;
}
