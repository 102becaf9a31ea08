/* Values of the shapes that variable objects show in their own ways. */
#include <stdio.h>

struct cell {
  int id;
  union {
    int whole;
    char bytes[4];
  };
  struct {
    unsigned ready : 1;
    unsigned count : 7;
  } flags;
};
typedef struct cell *cell_ref;
typedef void *handle;
typedef int row[3];

struct cell cells[3] = {{1, {5}, {1, 3}}, {2, {6}, {0, 9}}, {3, {7}, {1, 1}}};
row grid[2] = {{1, 2, 3}, {4, 5, 6}};
const char *names[2] = {"alpha", "beta"}, *odd = "q\"b\\s\nl\tt\xc3\xa9\x01";
double weights[0];

int twice(int v) { return 2 * v; }

int main(void) {
  cell_ref first = &cells[0];
  handle opaque = (handle)first;
  int (*fn)(int) = twice;
  struct cell *none = 0;
  int total = 0; /* line 31: all set */
  for (int i = 0; i < 3; i++) {
    total += cells[i].id;
  }
  printf("%d %p %d %p\n", total, opaque, fn(1), (void *)none);
  return 0;
}
