package io.sdmfabric.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the program a user named: a path, or a name on the {@code PATH} as a shell would. */
public final class Programs {
  private Programs() {}

  /**
   * The program's absolute path.
   *
   * @throws IOException saying what is wrong: missing, a directory, or not executable
   */
  public static String resolve(String program) throws IOException {
    if (!program.contains("/")) {
      for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
        Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return candidate.toAbsolutePath().toString();
        }
      }
      throw new IOException(
          "program not found: "
              + program
              + " (not a path and not on the PATH; use ./"
              + program
              + " for one here)");
    }
    Path path = Path.of(program).toAbsolutePath().normalize();
    if (!Files.exists(path)) {
      throw new IOException("program not found: " + program);
    }
    if (Files.isDirectory(path)) {
      throw new IOException("not a program but a directory: " + program);
    }
    if (!Files.isExecutable(path)) {
      throw new IOException("program is not executable: " + program + " (chmod +x?)");
    }
    return path.toString();
  }
}
