package io.sdmfabric.runtime.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rank shim's spool, made or found safely on a node other users share. */
class RankShimTest {
  private static final Duration BOUND = Duration.ofSeconds(30);

  @TempDir Path tmp;

  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void endShims() {
    // A shim that got its pid file in stops itself, waiting for an agent that never comes; one that
    // went wrong may have a subshell of its own still waiting.
    for (Process p : started) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  /** Runs the shim as rank {@code rank} of 2 with {@code spool}, its two streams merged. */
  private Process shim(Path spool, int rank) throws IOException {
    ProcessBuilder b =
        new ProcessBuilder(RankShim.command(spool.toString(), "/bin/true", List.of()))
            .redirectErrorStream(true);
    b.environment().put("OMPI_COMM_WORLD_RANK", Integer.toString(rank));
    b.environment().put("OMPI_COMM_WORLD_SIZE", "2");
    Process p = b.start();
    started.add(p);
    return p;
  }

  /**
   * Without a library to preload the shim gets {@code -}, never an empty argument, which mpirun
   * drops (and the shim would take the program for the library).
   */
  @Test
  void noLibraryToPreloadTravelsAsADashNotAsAnEmptyArgument() {
    List<String> command =
        RankShim.command("/tmp/spool", "", RankShim.Hold.AT_EXEC, "/bin/true", List.of("a"));
    assertEquals(
        List.of("sdm-rank", "/tmp/spool", "-", "exec", "/bin/true", "a"),
        command.subList(3, command.size()));
    assertTrue(command.stream().noneMatch(String::isEmpty), command.toString());
  }

  /** What the shim of rank 0 said when it refused {@code spool}, having checked it did. */
  private String refused(Path spool) throws Exception {
    Process p = shim(spool, 0);
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS), out);
    assertEquals(127, p.exitValue(), out);
    assertTrue(
        out.contains(
            "sdm: rank 0 does not start: the spool directory "
                + spool
                + " on "
                + hostname()
                + " is not this user's alone: "),
        out);
    return out;
  }

  /** Waits until rank {@code rank}'s pid file holds {@code shim}'s pid, at most {@link #BOUND}. */
  private static void awaitPidFile(Path spool, int rank, Process shim) throws Exception {
    Path file = spool.resolve("rank." + rank);
    await(() -> whole(file) || !shim.isAlive(), "rank " + rank + "'s pid file");
    assertTrue(shim.isAlive(), () -> "the shim ended: " + output(shim));
    assertEquals(Long.toString(shim.pid()), Files.readString(file).strip());
  }

  /** Whether {@code file} is a regular file with its line written (the shim writes it at once). */
  private static boolean whole(Path file) {
    try {
      return Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
          && Files.readString(file).endsWith("\n");
    } catch (IOException e) {
      return false; // not there yet
    }
  }

  @Test
  void aSpoolMadeByTheShimIsPrivateHoldsTheRanksPidsAndIsSharedByTheNodesRanks() throws Exception {
    Path spool = tmp.resolve("spool");
    Process first = shim(spool, 0);
    awaitPidFile(spool, 0, first);
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(spool)));
    Process second = shim(spool, 1); // finds the directory rank 0 made, and takes it
    awaitPidFile(spool, 1, second);
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(spool.resolve("rank.1"))));
  }

  @Test
  void aSpoolThatIsALinkOrOpenToOthersIsRefusedAndNothingIsWrittenThere() throws Exception {
    Path target = Files.createDirectory(tmp.resolve("target"));
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwx------"));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), target);
    assertTrue(refused(link).contains("it is a symbolic link"));
    assertEquals(List.of(), list(target));

    Path open = Files.createDirectory(tmp.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwx---"));
    assertTrue(refused(open).contains("it has mode 770: not 700"));
    assertEquals(List.of(), list(open));
  }

  @Test
  void aSpoolAnotherUserMadeFirstIsRefused() throws Exception {
    assumeTrue(
        "root".equals(System.getProperty("user.name")),
        "only root can make a directory another user owns");
    Path theirs = Files.createDirectory(tmp.resolve("theirs"));
    Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rwx------"));
    Process chown = new ProcessBuilder("chown", "nobody", theirs.toString()).start();
    assertEquals(0, chown.waitFor());
    assertTrue(refused(theirs).contains("it is owned by nobody, not by root"));
    assertEquals(List.of(), list(theirs));
  }

  @Test
  void aSpoolThatCannotBeMadeIsRefusedWithMkdirsReason() throws Exception {
    Path nowhere = tmp.resolve("missing").resolve("spool");
    assertTrue(refused(nowhere).contains("it cannot be made: mkdir: "));
  }

  /**
   * Links in a spool of the user's own (left by an earlier run, say) are replaced, not written
   * through: the pid file named as a link to a FIFO (a shell's noclobber would open a FIFO or a
   * device without O_EXCL, and block on this one), or as a link to a directory.
   */
  @Test
  void linksPlantedInTheSpoolAreNotWrittenThrough() throws Exception {
    Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
    Path fifo = elsewhere.resolve("fifo");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertEquals(0, mkfifo.waitFor());
    Path dir = Files.createDirectory(elsewhere.resolve("dir"));
    for (Path target : List.of(fifo, dir)) {
      Path spool = Files.createDirectory(tmp.resolve("spool-" + target.getFileName()));
      Files.setPosixFilePermissions(spool, PosixFilePermissions.fromString("rwx------"));
      Files.createSymbolicLink(spool.resolve("rank.0"), target);

      Process p = shim(spool, 0);
      awaitPidFile(spool, 0, p);
      assertEquals(List.of(), list(dir));
      assertEquals(List.of(spool.resolve("rank.0")), list(spool));
      assertTrue(Files.isRegularFile(spool.resolve("rank.0"), LinkOption.NOFOLLOW_LINKS));
    }
  }

  /**
   * What the program of a rank whose shim got {@code library} to preload sees in {@code
   * LD_PRELOAD}, and what the shim said: the shim is let go (SIGCONT, as gdb would) once it has
   * stopped itself, and its program prints {@code LD_PRELOAD=[...]}.
   */
  private String preloadSeen(Path library) throws Exception {
    Path spool = tmp.resolve("spool-" + started.size());
    ProcessBuilder b =
        new ProcessBuilder(
                RankShim.command(
                    spool.toString(),
                    library.toString(),
                    RankShim.Hold.AT_EXEC,
                    "/bin/sh",
                    List.of("-c", "echo \"LD_PRELOAD=[$LD_PRELOAD]\"")))
            .redirectErrorStream(true);
    b.environment().put("OMPI_COMM_WORLD_RANK", "0");
    b.environment().put("OMPI_COMM_WORLD_SIZE", "1");
    b.environment().remove("LD_PRELOAD");
    Process p = b.start();
    started.add(p);
    Path stat = Path.of("/proc/" + p.pid() + "/stat");
    await(() -> !p.isAlive() || stoppedItself(stat), "the shim to stop itself");
    assertTrue(p.isAlive(), () -> "the shim ended: " + output(p));
    assertEquals(0, new ProcessBuilder("kill", "-CONT", Long.toString(p.pid())).start().waitFor());
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS), out);
    return out;
  }

  private static boolean stoppedItself(Path stat) {
    try {
      String s = Files.readString(stat);
      return s.substring(s.lastIndexOf(')') + 2).startsWith("T");
    } catch (IOException e) {
      return false;
    }
  }

  /** mpiwait/KEY/libsdm_mpiwait.so under {@code home}, as MpiWaitLibrary makes it: all private. */
  private static Path library(Path home) throws IOException {
    Path key = Files.createDirectories(home.resolve("mpiwait").resolve("0123456789abcdef"));
    Files.setPosixFilePermissions(key.getParent(), PosixFilePermissions.fromString("rwx------"));
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rwx------"));
    Path library = key.resolve("libsdm_mpiwait.so");
    Files.writeString(library, "not really a library: ld.so says so and goes on\n");
    Files.setPosixFilePermissions(library, PosixFilePermissions.fromString("rwx------"));
    return library;
  }

  private static final String NONE = "LD_PRELOAD=[]";

  private static void assertNotPreloaded(String out, String why) {
    assertTrue(out.contains(NONE), out);
    assertTrue(
        out.contains(
            "sdm: rank 0 runs without sdm's MPI wait-records library (no MPI wait-for graph): it is"
                + " not this user's alone on "),
        out);
    assertTrue(out.contains(why), out);
  }

  @Test
  void theWaitRecordsLibraryIsPreloadedOnlyWhenItAndItsDirectoriesAreTheUsersAlone()
      throws Exception {
    Path proper = library(tmp.resolve("proper"));
    assertTrue(preloadSeen(proper).contains("LD_PRELOAD=[" + proper + "]"));

    Path linked = library(tmp.resolve("linked"));
    Path elsewhere = library(tmp.resolve("elsewhere"));
    Files.delete(linked);
    Files.createSymbolicLink(linked, elsewhere);
    assertNotPreloaded(preloadSeen(linked), linked + " is a symbolic link");

    Path groupWritable = library(tmp.resolve("group-writable"));
    Files.setPosixFilePermissions(groupWritable, PosixFilePermissions.fromString("rwxrwxr-x"));
    assertNotPreloaded(
        preloadSeen(groupWritable), groupWritable + " has mode 775: others can write it");

    Path openDirectory = library(tmp.resolve("open-directory"));
    Files.setPosixFilePermissions(
        openDirectory.getParent(), PosixFilePermissions.fromString("rwxr-xr-x"));
    assertNotPreloaded(
        preloadSeen(openDirectory), openDirectory.getParent() + " has mode 755: not 700");

    Path openParent = library(tmp.resolve("open-parent"));
    Files.setPosixFilePermissions(
        openParent.getParent().getParent(), PosixFilePermissions.fromString("rwxrwxrwx"));
    assertNotPreloaded(
        preloadSeen(openParent), openParent.getParent().getParent() + " has mode 777: not 700");

    Path missing = tmp.resolve("missing").resolve("libsdm_mpiwait.so");
    assertEquals(NONE, preloadSeen(missing).strip(), "a node without it: none, in silence");
  }

  @Test
  void aWaitRecordsLibraryAnotherUserOwnsIsNotPreloaded() throws Exception {
    assumeTrue(
        "root".equals(System.getProperty("user.name")),
        "only root can make a file another user owns");
    Path theirs = library(tmp.resolve("theirs"));
    assertEquals(0, new ProcessBuilder("chown", "nobody", theirs.toString()).start().waitFor());
    assertNotPreloaded(preloadSeen(theirs), theirs + " is owned by nobody, not by root");

    Path theirDirectory = library(tmp.resolve("their-directory"));
    assertEquals(
        0,
        new ProcessBuilder("chown", "nobody", theirDirectory.getParent().toString())
            .start()
            .waitFor());
    assertNotPreloaded(
        preloadSeen(theirDirectory),
        theirDirectory.getParent() + " is owned by nobody, not by root");
  }

  /**
   * A rank to be held in MPI_Init execs its program at once, with the library preloaded and told to
   * hold it ({@code SDM_HOLD_IN_INIT=1}), and its pid file says so; one whose library is not
   * preloaded on its node stops before its exec as ever, for nothing would stop it in MPI_Init.
   */
  @Test
  void aRankHeldInMpiInitExecsAtOnceUnlessItsLibraryIsNotPreloaded() throws Exception {
    Path library = library(tmp.resolve("home"));
    Path spool = tmp.resolve("spool-init");
    String program = "echo \"LD_PRELOAD=[$LD_PRELOAD] HOLD=[$SDM_HOLD_IN_INIT]\"";
    ProcessBuilder b =
        new ProcessBuilder(
                RankShim.command(
                    spool.toString(),
                    library.toString(),
                    RankShim.Hold.IN_MPI_INIT,
                    "/bin/sh",
                    List.of("-c", program)))
            .redirectErrorStream(true);
    b.environment().put("OMPI_COMM_WORLD_RANK", "0");
    b.environment().put("OMPI_COMM_WORLD_SIZE", "1");
    b.environment().remove("LD_PRELOAD");
    b.environment().remove("SDM_HOLD_IN_INIT");
    Process p = b.start();
    started.add(p);
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS), out);
    assertTrue(out.contains("LD_PRELOAD=[" + library + "] HOLD=[1]"), out);
    assertEquals(p.pid() + " init", Files.readString(spool.resolve("rank.0")).strip());

    Path missing = tmp.resolve("missing").resolve("libsdm_mpiwait.so");
    Path plain = tmp.resolve("spool-plain");
    b.command(
        RankShim.command(
            plain.toString(),
            missing.toString(),
            RankShim.Hold.IN_MPI_INIT,
            "/bin/sh",
            List.of("-c", program)));
    Process q = b.start();
    started.add(q);
    await(() -> !q.isAlive() || stoppedItself(Path.of("/proc/" + q.pid() + "/stat")), "a stop");
    assertTrue(q.isAlive(), () -> "the shim ended: " + output(q));
    assertEquals(Long.toString(q.pid()), Files.readString(plain.resolve("rank.0")).strip());
    assertEquals(0, new ProcessBuilder("kill", "-CONT", Long.toString(q.pid())).start().waitFor());
    String plainOut = new String(q.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(q.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS), plainOut);
    assertTrue(plainOut.contains("LD_PRELOAD=[] HOLD=[]"), plainOut);
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.toList();
    }
  }

  private static String hostname() throws Exception {
    Process p = new ProcessBuilder("uname", "-n").start();
    String name = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertEquals(0, p.waitFor());
    return name;
  }

  /** What an ended shim said (its streams are merged into standard output). */
  private static String output(Process shim) {
    try {
      return new String(shim.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(" + e + ")";
    }
  }

  /** Waits at most {@link #BOUND} for {@code condition}. */
  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + BOUND.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + BOUND + ": " + what);
      }
      TimeUnit.MILLISECONDS.sleep(20);
    }
  }
}
