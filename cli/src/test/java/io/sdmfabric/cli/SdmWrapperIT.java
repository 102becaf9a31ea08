package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sdmfabric.runtime.PrivateDirectory;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./sdm} wrapper of the checkout: its class-data directory is checked as sdm's home is,
 * it honours {@code $SDM_HOME}, and a signal to it reaches the JVM on every path, the first run
 * (which records the archive) included.
 */
@Tag("gdb")
@Tag("mpi")
@Tag("slurm")
class SdmWrapperIT {
  private static final Path WRAPPER = Path.of("..", "sdm").toAbsolutePath().normalize();
  private static final Duration BOUND = Duration.ofSeconds(60);
  private static final String NOT_USED = "sdm: not using a class-data archive: ";

  @TempDir Path tmp;

  private ProcessBuilder sdm(Path home, String... args) {
    List<String> command = new ArrayList<>(List.of(WRAPPER.toString()));
    command.addAll(List.of(args));
    ProcessBuilder b = new ProcessBuilder(command).redirectInput(new File("/dev/null"));
    b.environment().put(PrivateDirectory.HOME_ENV, home.toString());
    return b;
  }

  @Test
  void sigtermOnTheFirstRunLeavesNoJvmAndNoRequest() throws Exception {
    Path home = tmp.resolve("fresh-home"); // no archive yet: this run records one
    Path err = tmp.resolve("err.txt");
    Process wrapper =
        sdm(home, "connect", "srun", "-n", "2", "/bin/true")
            .redirectErrorStream(true)
            .redirectOutput(err.toFile())
            .start();
    List<ProcessHandle> tree = new ArrayList<>(List.of(wrapper.toHandle()));
    try {
      Path connect = home.resolve("connect");
      await(() -> !requests(connect).isEmpty() || !wrapper.isAlive(), "sdm connect's request", err);
      assertEquals(1, requests(connect).size(), () -> read(err));
      assertEquals(
          "rwx------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve("cds"))));
      // The JVM is the wrapper itself (it exec'd java) or a child it would pass the signal on to.
      wrapper.descendants().forEach(tree::add);

      wrapper.destroy(); // SIGTERM
      assertTrue(wrapper.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS), () -> read(err));
      assertEquals(143, wrapper.exitValue(), () -> read(err));
      // Its own processes, not Sdm.leftovers(): others' tests may run gdb on this machine.
      await(() -> tree.stream().noneMatch(ProcessHandle::isAlive), "its processes to end", err);
      assertEquals(List.of(), requests(connect), () -> read(err));
    } finally {
      wrapper.descendants().forEach(tree::add);
      tree.forEach(ProcessHandle::destroyForcibly);
    }
  }

  @Test
  void aClassDataDirectoryThatIsALinkOrOpenToOthersIsNotUsedAndSdmStillRuns() throws Exception {
    Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
    Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwx------"));

    Path linked = home("linked-home");
    Files.createSymbolicLink(linked.resolve("cds"), elsewhere);
    assertNotUsed(linked, linked.resolve("cds") + " is a symbolic link");

    Path groupWritable = home("group-writable-home");
    Path cds = Files.createDirectory(groupWritable.resolve("cds"));
    Files.setPosixFilePermissions(cds, PosixFilePermissions.fromString("rwxrwx---"));
    assertNotUsed(groupWritable, cds + " has mode 770, not 700");

    Path homeIsALink = tmp.resolve("home-is-a-link");
    Files.createSymbolicLink(homeIsALink, elsewhere);
    assertNotUsed(homeIsALink, homeIsALink + " is a symbolic link");

    try (Stream<Path> files = Files.list(elsewhere)) {
      assertEquals(List.of(), files.toList(), "nothing written through a link");
    }
  }

  @Test
  void aClassDataDirectoryAnotherUserOwnsIsNotUsed() throws Exception {
    assumeTrue(
        "root".equals(System.getProperty("user.name")),
        "only root can make a directory another user owns");
    Path home = home("theirs-home");
    Path cds = Files.createDirectory(home.resolve("cds"));
    Files.setPosixFilePermissions(cds, PosixFilePermissions.fromString("rwx------"));
    Process chown = new ProcessBuilder("chown", "nobody", cds.toString()).start();
    assertEquals(0, chown.waitFor());
    assertNotUsed(home, cds + " is owned by nobody, not by root");
    try (Stream<Path> files = Files.list(cds)) {
      assertEquals(List.of(), files.toList(), "nothing written into another user's directory");
    }
  }

  /** A directory for sdm's home, mode 0700. */
  private Path home(String name) throws IOException {
    Path home = Files.createDirectory(tmp.resolve(name));
    Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
    return home;
  }

  /** {@code sdm --version} with {@code home} runs, and says on one line why it has no archive. */
  private void assertNotUsed(Path home, String why) throws Exception {
    Process p = sdm(home, "--version").start();
    try {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS), err);
      assertEquals(0, p.exitValue(), err);
      assertTrue(out.startsWith("sdm "), out);
      List<String> said = err.lines().filter(l -> l.startsWith(NOT_USED)).toList();
      assertEquals(1, said.size(), err);
      assertTrue(said.get(0).startsWith(NOT_USED + why + " ("), err);
    } finally {
      p.destroyForcibly();
    }
  }

  /** Waits at most {@link #BOUND} for {@code condition}; a failure quotes {@code err}. */
  private static void await(BooleanSupplier condition, String what, Path err)
      throws InterruptedException {
    long deadline = System.nanoTime() + BOUND.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + BOUND + ": " + what + "\n" + read(err));
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }

  private static List<Path> requests(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".request")).toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "(" + e + ")";
    }
  }
}
