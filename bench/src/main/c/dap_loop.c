/* For bench/run dap (DapRunner): every rank runs the same loop of plain arithmetic, long enough
 * that a session can step it thousands of times. The runner breaks at the line marked below, which
 * every rank reaches on its first iteration; a round of steps from there is next (to the call),
 * step in (to fold), step out (back to the call), next, next (back to the mark). No MPI: the ranks
 * run embedded, without a launcher; each reads its rank from SDM_RANK, so that `sum` differs from
 * rank to rank. */
#include <stdlib.h>

static long fold(long term) {
  return term % 7;
}

int main(void) {
  const char *r = getenv("SDM_RANK");
  int rank = r ? atoi(r) : 0;
  long sum = 0;
  for (int i = 0; i < 100000000; i++) {
    long term = (long) i * (rank + 1); /* bench: break here */
    sum += fold(term);
  }
  return sum == 42;
}
