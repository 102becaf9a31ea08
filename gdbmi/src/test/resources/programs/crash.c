/* Dereferences a null pointer two calls down. */
#include <stdio.h>

static int deref(int *p) { return *p; /* line 4: the fault */ }
static int compute(int *p) { return deref(p) + 1; }

int main(void) {
  printf("about to crash\n");
  fflush(stdout);
  return compute((int *)0);
}
