/* Each rank weighs four cells and adds them up; rank 1 weighs cell 2 wrong. */
#include <stdio.h>
#include <stdlib.h>

struct cell {
  int id;
  double weight;
};

static double total(const struct cell *cells, int n) {
  double sum = 0;
  for (int i = 0; i < n; i++) {
    sum += cells[i].weight; /* line 13 */
  }
  return sum;
}

int main(void) {
  const char *r = getenv("SDM_RANK");
  int rank = r ? atoi(r) : 0;
  struct cell cells[4];
  for (int i = 0; i < 4; i++) {
    cells[i].id = i;
    cells[i].weight = (rank == 1 && i == 2) ? -1.0 : 0.5 * i;
  }
  double sum = total(cells, 4); /* line 26 */
  printf("rank %d: sum = %g\n", rank, sum);
  return 0;
}
