package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The small C programs of the tests, built from the {@code programs/} test resources into {@code
 * target/test-programs} at test time, once per JVM; into the directory that {@code
 * sdm.test.programs} names, where test JVMs side by side each have their own.
 */
public final class TestPrograms {
  private static final Path DIR =
      Path.of(System.getProperty("sdm.test.programs", "target/test-programs")).toAbsolutePath();
  private static final ConcurrentHashMap<String, Path> BUILT = new ConcurrentHashMap<>();

  private TestPrograms() {}

  /** The executable of {@code programs/NAME.c} with debug info, built if needed. */
  public static Path get(String name) {
    return BUILT.computeIfAbsent(name, n -> build(n, n, true));
  }

  /** The executable of {@code programs/NAME.c} built without {@code -g}, if needed. */
  public static Path withoutDebugInfo(String name) {
    return BUILT.computeIfAbsent(name + "-nodebug", n -> build(name, n, false));
  }

  /** Skips the test (class) unless gdb and gcc are here: every test of real gdb needs both. */
  public static void assumeGdbAndGcc() {
    assumeTrue(onPath("gdb"), "gdb is not installed");
    assumeTrue(onPath("gcc"), "gcc is not installed");
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

  private static Path build(String name, String binaryName, boolean debugInfo) {
    try {
      return CProgram.build("/programs/" + name + ".c", DIR, binaryName, debugInfo);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
