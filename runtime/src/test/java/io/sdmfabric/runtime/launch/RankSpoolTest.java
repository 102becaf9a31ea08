package io.sdmfabric.runtime.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's side of the spool: it reads only what the shims write there. */
class RankSpoolTest {
  @TempDir Path tmp;

  private Path spool() throws IOException {
    Path spool = Files.createDirectory(tmp.resolve("spool"));
    Files.setPosixFilePermissions(spool, PosixFilePermissions.fromString("rwx------"));
    return spool;
  }

  @Test
  void aPidFileThatIsALinkIsNotFollowed() throws Exception {
    Path spool = spool();
    Path elsewhere =
        Files.writeString(tmp.resolve("elsewhere"), ProcessHandle.current().pid() + "\n");
    Files.createSymbolicLink(spool.resolve("rank.0"), elsewhere);
    IOException e = assertThrows(IOException.class, () -> new RankSpool(spool).poll());
    assertTrue(
        e.getMessage().contains(spool.resolve("rank.0") + " is not a regular file"),
        e.getMessage());
  }

  @Test
  void aSpoolOpenToOthersIsNotRead() throws Exception {
    Path spool = spool();
    Files.setPosixFilePermissions(spool, PosixFilePermissions.fromString("rwxrwxrwx"));
    IOException e = assertThrows(IOException.class, () -> new RankSpool(spool).poll());
    assertTrue(e.getMessage().contains("has mode rwxrwxrwx"), e.getMessage());
  }

  @Test
  void deletingRemovesWhatTheShimsWroteAndTheSpool() throws Exception {
    Path spool = spool();
    Files.writeString(spool.resolve("rank.0"), "1\n");
    Files.writeString(spool.resolve(".rank.1"), "2\n");
    new RankSpool(spool).delete();
    assertFalse(Files.exists(spool, LinkOption.NOFOLLOW_LINKS));
  }

  /**
   * A spool name someone planted first, as a link to a directory of the user's: the session that
   * could not use it removes nothing through it as it cleans up.
   */
  @Test
  void deletingALinkedSpoolRemovesNothingThroughIt() throws Exception {
    Path users = Files.createDirectory(tmp.resolve("users"));
    Files.setPosixFilePermissions(users, PosixFilePermissions.fromString("rwx------"));
    Path precious = Files.writeString(users.resolve("rank.0"), "the user's own\n");
    Path planted = Files.createSymbolicLink(tmp.resolve("planted"), users);
    new RankSpool(planted).delete();
    assertEquals("the user's own\n", Files.readString(precious));
  }

  @Test
  void aRankThatHasNotStoppedIsNotReadyYet() throws Exception {
    Path spool = spool();
    Files.writeString(spool.resolve("rank.0"), ProcessHandle.current().pid() + "\n");
    assertEquals(List.of(), new RankSpool(spool).poll());
  }

  /**
   * A rank to be held at the end of MPI_Init that runs still is taken when the agent has waited
   * long enough (it is attached where it is); a rank to stop before its exec is not, nor a rank
   * whose process is gone.
   */
  @Test
  void aRankNotHeldInMpiInitYetIsTakenOnlyWhenAskedFor() throws Exception {
    Path spool = spool();
    long running = ProcessHandle.current().pid();
    Files.writeString(spool.resolve("rank.0"), running + " init\n");
    Files.writeString(spool.resolve("rank.1"), running + "\n");
    Files.writeString(spool.resolve("rank.2"), "2147483646 init\n");
    RankSpool ranks = new RankSpool(spool);
    assertEquals(List.of(), ranks.poll());
    assertEquals(List.of(new RankSpool.StoppedRank(0, running, true)), ranks.pollHeldOrNot());
    assertEquals(List.of(), ranks.pollHeldOrNot(), "each rank is taken once");
  }

  /**
   * A stopped rank's pid file says where it stopped: {@code PID} before its exec, {@code PID init}
   * at the end of MPI_Init; anything else there is not a rank's.
   */
  @Test
  void aPidFileSaysWhetherItsRankStoppedBeforeItsExecOrInMpiInit() throws Exception {
    Path spool = spool();
    Process stopped = stoppedShell();
    try {
      long pid = stopped.pid();
      Files.writeString(spool.resolve("rank.0"), pid + "\n");
      Files.writeString(spool.resolve("rank.1"), pid + " init\n");
      Files.writeString(spool.resolve("rank.2"), pid + " later\n");
      Files.writeString(spool.resolve("rank.3"), pid + " init more\n");
      List<RankSpool.StoppedRank> ready =
          new RankSpool(spool)
              .poll().stream()
                  .sorted(java.util.Comparator.comparingInt(RankSpool.StoppedRank::rank))
                  .toList();
      assertEquals(
          List.of(
              new RankSpool.StoppedRank(0, pid, false), new RankSpool.StoppedRank(1, pid, true)),
          ready);
    } finally {
      stopped.destroyForcibly();
    }
  }

  /**
   * The shim writes its pid file in one write, with no rename: one without its newline is still
   * being written, and comes later. A rank taken is not read again (each poll of a thousand ranks
   * read every file).
   */
  @Test
  void aPidFileIsTakenOnceItsLineIsWholeAndNotReadAgain() throws Exception {
    Path spool = spool();
    Process stopped = stoppedShell();
    try {
      long pid = stopped.pid();
      RankSpool ranks = new RankSpool(spool);
      Path file = spool.resolve("rank.0");
      Files.writeString(file, Long.toString(pid).substring(0, 1));
      assertEquals(List.of(), ranks.poll());
      Files.writeString(file, pid + "\n");
      assertEquals(List.of(new RankSpool.StoppedRank(0, pid, false)), ranks.poll());
      Files.delete(file);
      Files.createSymbolicLink(file, spool.resolve("elsewhere")); // refused if it were read
      assertEquals(List.of(), ranks.poll());
    } finally {
      stopped.destroyForcibly();
    }
  }

  /** A shell that has stopped itself, as a rank's shim does (at most 30 s to do so). */
  private static Process stoppedShell() throws Exception {
    Process shell = new ProcessBuilder("sh", "-c", "kill -STOP $$").start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!RankSpool.stopped(shell.pid())) {
      if (System.nanoTime() > deadline) {
        shell.destroyForcibly();
        throw new AssertionError("sh did not stop itself within 30 s");
      }
      Thread.sleep(10);
    }
    return shell;
  }
}
