package io.sdmfabric.runtime.launch;

import io.sdmfabric.runtime.PrivateDirectory;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A node's spool directory of a session: each rank's shim writes {@code rank.R} holding its pid and
 * a newline, then stops itself (or holds {@code PID init}, and the rank stops at the end of
 * MPI_Init); a file without its newline is still being written. The agent polls it for ranks that
 * have stopped and are ready to be attached. The directory must be the user's own with mode 0700:
 * anyone else could plant pids in it. Its files are read only as the shim writes them: small
 * regular files of the user's, never through a link.
 */
public final class RankSpool {
  /** The most a pid file holds: a pid and a newline, with room to spare. */
  private static final int PID_FILE_LIMIT = 32;

  /**
   * A rank for its gdb: stopped before the exec of its program, or to be held at the end of its
   * MPI_Init ({@code inMpiInit}, the pid file's {@code PID init}), stopped there or, from {@link
   * #pollHeldOrNot}, not (yet).
   */
  public record StoppedRank(int rank, long pid, boolean inMpiInit) {}

  private final Path dir;
  private final BitSet seen = new BitSet();

  public RankSpool(Path dir) {
    this.dir = dir;
  }

  Path dir() {
    return dir;
  }

  /**
   * The ranks stopped since the last call. Ranks whose file is there but whose process has not
   * stopped yet come in a later call.
   *
   * @throws IOException when the directory is not the user's private one, or a pid file in it is
   *     not a small regular file of the user's (a link is not followed)
   */
  public List<StoppedRank> poll() throws IOException {
    return take(false);
  }

  /**
   * The ranks stopped since the last call, and those to be held at the end of MPI_Init that have
   * not stopped there (yet): a rank that never gets there (it hangs before, or in MPI_Init waiting
   * for one that does) is then attached where it is.
   *
   * @throws IOException as {@link #poll}
   */
  public List<StoppedRank> pollHeldOrNot() throws IOException {
    return take(true);
  }

  private List<StoppedRank> take(boolean evenNotHeld) throws IOException {
    List<StoppedRank> ready = new ArrayList<>();
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return ready;
    }
    PrivateDirectory.check(dir);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "rank.*")) {
      for (Path f : files) {
        int rank;
        long pid;
        boolean inMpiInit;
        try {
          rank = Integer.parseInt(f.getFileName().toString().substring("rank.".length()));
          if (rank < 0 || seen.get(rank)) {
            continue; // each poll of a thousand ranks read every pid file again
          }
          String line = PrivateDirectory.readSmall(f, PID_FILE_LIMIT);
          if (!line.endsWith("\n")) {
            continue; // being written: made, and its one write not done yet
          }
          String[] words = line.strip().split(" ", -1);
          pid = Long.parseLong(words[0]);
          inMpiInit = words.length == 2 && words[1].equals("init");
          if (words.length > 2 || (words.length == 2 && !inMpiInit)) {
            continue;
          }
        } catch (NumberFormatException e) {
          continue;
        }
        if (stopped(pid) || (evenNotHeld && inMpiInit && alive(pid))) {
          seen.set(rank);
          ready.add(new StoppedRank(rank, pid, inMpiInit));
        }
      }
    }
    return ready;
  }

  /**
   * Removes what the shims wrote and then the directory, if it is the user's private one. A spool
   * name someone else took first (a link to a directory of the user's, a directory of their own) is
   * left alone: nothing in it is the session's, and nothing is removed through a link.
   */
  public void delete() {
    try {
      PrivateDirectory.check(dir);
    } catch (IOException e) {
      return; // missing, or not this user's alone
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "{rank.*,.rank.*}")) {
      for (Path f : files) {
        Files.deleteIfExists(f); // a link itself, never what it names
      }
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // Gone already, or something else is in it: left for the user.
    }
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  /** Whether process {@code pid} is stopped (state T in /proc/PID/stat). */
  static boolean stopped(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      int end = stat.lastIndexOf(')');
      return end > 0 && end + 2 < stat.length() && stat.charAt(end + 2) == 'T';
    } catch (IOException e) {
      return false;
    }
  }
}
