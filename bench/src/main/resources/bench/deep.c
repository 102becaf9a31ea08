/* The round-trip benchmark's program: stops 12 frames deep with a few locals. */
#include <stdio.h>

static int leaf(int v) {
  int local = v * 3;
  return local; /* the benchmark's breakpoint: leaf */
}

static int descend(int depth, int v) {
  if (depth == 0) return leaf(v);
  return descend(depth - 1, v + 1) + 1;
}

int main(void) {
  printf("%d\n", descend(10, 1));
  return 0;
}
