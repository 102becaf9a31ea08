package io.sdmfabric.runtime.launch;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Finding a program as a shell would: a path as given, a bare name on the PATH. */
public final class Executables {
  private Executables() {}

  /**
   * The executable file {@code program} names: the path itself when it has a slash, else the first
   * of that name in the directories of {@code path} (an empty entry is the working directory).
   */
  public static Optional<Path> find(String program, String path) {
    if (program.contains("/")) {
      Path p = Path.of(program);
      return isExecutableFile(p) ? Optional.of(p) : Optional.empty();
    }
    for (String dir : (path == null ? "" : path).split(File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
      if (isExecutableFile(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static boolean isExecutableFile(Path p) {
    return Files.isRegularFile(p) && Files.isExecutable(p);
  }
}
