/* Echoes standard input line by line until end of file. */
#include <stdio.h>
#include <string.h>

int main(void) {
  char line[256];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = 0;
    printf("echo: %s\n", line);
    fflush(stdout);
  }
  printf("bye\n");
  return 0;
}
