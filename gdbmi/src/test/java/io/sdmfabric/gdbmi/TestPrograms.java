package io.sdmfabric.gdbmi;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The small C programs of the tests, compiled with {@code gcc -g -O0} at test time from the {@code
 * programs/} test resources into {@code target/test-programs}, once per JVM.
 */
public final class TestPrograms {
  private static final Path DIR = Path.of("target", "test-programs").toAbsolutePath();
  private static final ConcurrentHashMap<String, Path> BUILT = new ConcurrentHashMap<>();

  private TestPrograms() {}

  /** The executable of {@code programs/NAME.c}, built if needed. */
  public static Path get(String name) {
    return BUILT.computeIfAbsent(name, n -> compile(n, n, true));
  }

  /** The executable of {@code programs/NAME.c} built without {@code -g}, if needed. */
  public static Path withoutDebugInfo(String name) {
    return BUILT.computeIfAbsent(name + "-nodebug", n -> compile(name, n, false));
  }

  /** Whether a command is on the PATH, e.g. {@code gdb} or {@code gcc}. */
  public static boolean onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(dir, command))) {
        return true;
      }
    }
    return false;
  }

  private static Path compile(String name, String binaryName, boolean debugInfo) {
    try {
      Files.createDirectories(DIR);
      Path source = DIR.resolve(name + ".c");
      try (InputStream in = TestPrograms.class.getResourceAsStream("/programs/" + name + ".c")) {
        if (in == null) {
          throw new IllegalArgumentException("no test program programs/" + name + ".c");
        }
        Files.copy(in, source, StandardCopyOption.REPLACE_EXISTING);
      }
      Path binary = DIR.resolve(binaryName);
      // Compiled in its directory by its short name, as users do: gdb then reports "values.c".
      List<String> cmd =
          new ArrayList<>(List.of("gcc", "-O0", "-o", binaryName, name + ".c", "-pthread"));
      if (debugInfo) {
        cmd.add(1, "-g");
      }
      Process gcc =
          new ProcessBuilder(cmd).directory(DIR.toFile()).redirectErrorStream(true).start();
      String out = new String(gcc.getInputStream().readAllBytes());
      if (!gcc.waitFor(60, TimeUnit.SECONDS) || gcc.exitValue() != 0) {
        throw new IllegalStateException("gcc failed for " + name + ":\n" + out);
      }
      return binary;
    } catch (IOException e) {
      throw new IllegalStateException("cannot build test program " + name, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
