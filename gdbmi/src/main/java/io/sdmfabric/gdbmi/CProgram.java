package io.sdmfabric.gdbmi;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Builds a C program that ships as a class-path resource (the demo's, the tests', the benchmarks')
 * with gcc, in its own directory and by its short name, as a user would: gdb then names its source
 * file {@code demo.c}, not a build path.
 */
public final class CProgram {
  private CProgram() {}

  /**
   * Compiles the resource {@code resource} (e.g. {@code /programs/values.c}) into {@code
   * directory/binaryName} with {@code -O0 -pthread}, and {@code -g} when {@code debugInfo}.
   *
   * @throws IOException when the resource is missing or gcc fails (with gcc's output)
   */
  public static Path build(String resource, Path directory, String binaryName, boolean debugInfo)
      throws IOException {
    Files.createDirectories(directory);
    String sourceName = resource.substring(resource.lastIndexOf('/') + 1);
    try (InputStream in = CProgram.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("no C program " + resource + " on the class path");
      }
      Files.copy(in, directory.resolve(sourceName), StandardCopyOption.REPLACE_EXISTING);
    }
    List<String> command =
        new ArrayList<>(List.of("gcc", "-O0", "-o", binaryName, sourceName, "-pthread"));
    if (debugInfo) {
      command.add(1, "-g");
    }
    Process gcc;
    try {
      gcc =
          new ProcessBuilder(command)
              .directory(directory.toFile())
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      throw new IOException("cannot run gcc to build " + sourceName + ": is gcc installed?", e);
    }
    String output = new String(gcc.getInputStream().readAllBytes());
    try {
      if (!gcc.waitFor(60, TimeUnit.SECONDS) || gcc.exitValue() != 0) {
        gcc.destroyForcibly();
        throw new IOException("gcc failed to build " + sourceName + ":\n" + output);
      }
    } catch (InterruptedException e) {
      gcc.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while building " + sourceName, e);
    }
    return directory.resolve(binaryName);
  }
}
