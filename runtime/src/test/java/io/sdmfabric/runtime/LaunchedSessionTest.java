package io.sdmfabric.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sdmfabric.runtime.launch.JobLauncher;
import io.sdmfabric.server.FabricConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job launched through a real mpirun whose spool directory someone planted first (here: a link to
 * a directory elsewhere, as another user on a shared node could make once they saw its name): the
 * ranks do not start, and the reason their shims give reaches the user, both as it happens and in
 * the failure.
 */
@Tag("mpi")
class LaunchedSessionTest {
  @TempDir Path tmp;

  @org.junit.jupiter.api.BeforeEach
  void needsMpirun() throws InterruptedException {
    assumeTrue(
        works("mpirun", "-n", "1", "true"),
        "mpirun -n 1 true fails (as root it needs OMPI_ALLOW_RUN_AS_ROOT=1"
            + " OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)");
  }

  @Test
  void aPlantedSpoolStopsTheJobAndTheShimsReasonReachesTheUser() throws Exception {
    Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
    Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwx------"));
    Path precious = Files.writeString(elsewhere.resolve("precious"), "the user's own\n");
    Path spool = Files.createSymbolicLink(tmp.resolve("planted"), elsewhere);
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(said, true, StandardCharsets.UTF_8);
    LaunchedSession.Spec spec = twoRanksOfTrue();

    IOException refused = null;
    try {
      LaunchedSession.start(spec, err, spool).close();
    } catch (IOException e) {
      refused = e;
    }
    if (refused == null) {
      fail("the session started over a planted spool:\n" + said);
    }
    String why = "does not start: the spool directory " + spool;
    assertTrue(refused.getMessage().contains("mpirun of the ranks exited"), refused.getMessage());
    assertTrue(refused.getMessage().contains(why), refused.getMessage());
    assertTrue(refused.getMessage().contains("it is a symbolic link"), refused.getMessage());
    assertTrue(said.toString(StandardCharsets.UTF_8).contains("[mpirun] rank "), said::toString);
    // Nor removed through it, as the session cleans up its spool.
    try (Stream<Path> files = Files.list(elsewhere)) {
      assertEquals(
          List.of(precious), files.toList(), "nothing written or removed through the link");
    }
  }

  @Test
  void theLaunchersAndTheShimsLinesReachTheTerminalEscaped() throws Exception {
    // A spool whose name holds a title escape and a screen clear, planted as a link: the shim
    // quotes its path in its reason, and mpirun adds lines of its own about the failed ranks.
    Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
    Path spool =
        Files.createSymbolicLink(tmp.resolve("planted\u001b]0;owned\u0007\u001b[2J"), elsewhere);
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(said, true, StandardCharsets.UTF_8);
    LaunchedSession.Spec spec = twoRanksOfTrue();
    IOException refused =
        org.junit.jupiter.api.Assertions.assertThrows(
            IOException.class, () -> LaunchedSession.start(spec, err, spool).close());
    String shown = said.toString(StandardCharsets.UTF_8);
    assertTrue(shown.contains("[mpirun] rank "), shown);
    assertTrue(shown.contains("planted"), shown);
    for (String text : List.of(shown, refused.getMessage())) {
      assertTrue(
          text.chars().noneMatch(c -> c < 0x20 && c != '\n' && c != '\t' || c == 0x7f),
          "a control character reaches the terminal: " + text);
    }
  }

  /** Two ranks of /bin/true under mpirun on this host. */
  private static LaunchedSession.Spec twoRanksOfTrue() {
    return new LaunchedSession.Spec(
        JobLauncher.MPIRUN,
        List.of(),
        2,
        "/bin/true",
        List.of(),
        ClusterSettings.Transport.TLS_TCP,
        "127.0.0.1",
        Duration.ofSeconds(30),
        GdbFleet.DEFAULT_RANKS_PER_GDB,
        false,
        FabricConfig.defaults(),
        DistributedMaster.KeyPassing.SHARED_HOME);
  }

  /** Whether {@code command} runs and exits with 0 within 30 seconds. */
  private static boolean works(String... command) throws InterruptedException {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      try {
        p.getInputStream().transferTo(OutputStream.nullOutputStream());
        return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
      } finally {
        p.destroyForcibly();
      }
    } catch (IOException e) {
      return false;
    }
  }
}
