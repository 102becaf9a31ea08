/* Echoes its standard input until end of file. */
#include <stdio.h>
#include <string.h>

int main(void) {
  char line[256];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = 0;
    printf("got: %s\n", line);
    fflush(stdout);
  }
  return 0;
}
