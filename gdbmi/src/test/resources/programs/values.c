/* Values of every kind, and calls to step into, over and out of. */
#include <stdbool.h>
#include <stdio.h>

enum color { RED, GREEN, BLUE };
struct point {
  int x;
  double y;
  char name[8];
};
typedef struct point point_t;
struct line {
  point_t from;
  point_t to;
};

int counter = 7;
const char *greeting = "hello";

int square(int v) {
  int result = v * v; /* line 21: inside square */
  return result;
}

int twice(int v) { return 2 * square(v) / v; }

int main(int argc, char **argv) {
  point_t p = {3, 2.5, "hi"};
  struct line l = {{1, 1.0, "a"}, {2, 2.0, "b"}};
  int arr[4] = {1, 2, 3, 4};
  int *ptr = &arr[1];
  enum color c = BLUE;
  bool flag = true;
  float f = 1.5f;
  char letter = 'z';
  long big = 1234567890123L;
  int s = square(argc + 2); /* line 37: first call */
  s += twice(3);
  counter += s;
  printf("done %d %d %d %d %f %c %ld %s\n", p.x, l.to.x, *ptr, (int)c + flag, f, letter, big,
         greeting);
  return argc > 1 ? 3 : 0;
}
