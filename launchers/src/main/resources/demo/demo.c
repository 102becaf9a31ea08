/* The demo program: sums squares and reports the result. */
#include <stdio.h>

struct stats {
  int count;
  long sum;
};

static long square(int v) { return (long)v * v; }

static void accumulate(struct stats *s, int v) {
  s->count++;
  s->sum += square(v); /* the demo's breakpoint */
}

int main(void) {
  struct stats s = {0, 0};
  for (int i = 1; i <= 3; i++) accumulate(&s, i);
  printf("sum of squares of 1..3 = %ld\n", s.sum);
  return 0;
}
