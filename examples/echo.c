/* Echoes its standard input until end of file, or until a line "bye" (echoed too). */
#include <stdio.h>
#include <string.h>

int main(void) {
  char line[256];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = 0;
    printf("got: %s\n", line);
    fflush(stdout);
    if (strcmp(line, "bye") == 0) {
      break;
    }
  }
  return 0;
}
