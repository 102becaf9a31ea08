package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.runtime.PrivateDirectory;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./sdm} wrapper of the checkout: its class-data directory is checked as sdm's home is,
 * it honours {@code $SDM_HOME}, and a signal to it reaches the JVM on every path, the first run
 * (which records the archive) included.
 */
class SdmWrapperIT {
  private static final Path WRAPPER = Path.of("..", "sdm").toAbsolutePath().normalize();

  @TempDir Path tmp;

  private ProcessBuilder sdm(Path home, String... args) {
    List<String> command = new java.util.ArrayList<>(List.of(WRAPPER.toString()));
    command.addAll(List.of(args));
    ProcessBuilder b = new ProcessBuilder(command).redirectInput(new File("/dev/null"));
    b.environment().put(PrivateDirectory.HOME_ENV, home.toString());
    return b;
  }

  @Test
  void sigtermOnTheFirstRunLeavesNoJvmAndNoRequest() throws Exception {
    Path home = tmp.resolve("fresh-home");
    Path err = tmp.resolve("err.txt");
    Process wrapper =
        sdm(home, "connect", "srun", "-n", "2", "/bin/true")
            .redirectErrorStream(true)
            .redirectOutput(err.toFile())
            .start();
    try {
      Path connect = home.resolve("connect");
      for (int i = 0; i < 600 && requests(connect).isEmpty(); i++) {
        assertTrue(wrapper.isAlive(), () -> "sdm connect ended: " + read(err));
        Thread.sleep(100);
      }
      assertEquals(1, requests(connect).size(), () -> read(err));
      assertEquals(
          "rwx------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve("cds"))));
      // The wrapper's pid is the JVM's: it exec'd java, so SIGTERM goes to the JVM itself.
      long pid = wrapper.pid();
      wrapper.destroy();
      assertTrue(wrapper.waitFor(60, TimeUnit.SECONDS), () -> read(err));
      assertEquals(143, wrapper.exitValue(), () -> read(err));
      assertFalse(ProcessHandle.of(pid).isPresent());
      assertEquals(List.of(), requests(connect), () -> read(err));
      assertEquals(List.of(), Sdm.leftovers());
    } finally {
      wrapper.descendants().forEach(ProcessHandle::destroyForcibly);
      wrapper.destroyForcibly();
    }
  }

  @Test
  void aClassDataDirectoryThatIsALinkOrOpenToOthersIsNotUsedAndSdmStillRuns() throws Exception {
    Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
    Path linked = Files.createDirectory(tmp.resolve("linked-home"));
    Files.setPosixFilePermissions(linked, PosixFilePermissions.fromString("rwx------"));
    Files.createSymbolicLink(linked.resolve("cds"), elsewhere);
    Path open = Files.createDirectory(tmp.resolve("open-home"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwx------"));
    Files.createDirectory(open.resolve("cds"));
    Files.setPosixFilePermissions(
        open.resolve("cds"), PosixFilePermissions.fromString("rwxrwxrwx"));

    for (Path home : List.of(linked, open)) {
      Process p = sdm(home, "--version").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
      assertEquals(0, p.exitValue(), out);
      assertTrue(out.contains("not using a class-data archive"), out);
    }
    try (Stream<Path> files = Files.list(elsewhere)) {
      assertEquals(List.of(), files.toList(), "nothing written through the link");
    }
  }

  private static List<Path> requests(Path dir) throws Exception {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".request")).toList();
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      return "(" + e + ")";
    }
  }
}
