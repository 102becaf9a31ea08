package io.sdmfabric.runtime;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What this machine lets one embedded session have, read before its gdbs start, so that a session
 * too large for it ends at once with a line that says which limit and what to do, rather than
 * partway through its start (an {@code ENOSPC} from {@code posix_openpt} at rank 4,031, say).
 *
 * <p>An embedded rank takes a pseudo-terminal of its own (its output, apart from the others') and
 * two of the JVM's file descriptors (the terminal's two sides); each gdb takes five descriptors
 * (its three pipes and its terminals' reader's wake-up pipe), a process, two threads of its own and
 * five of the JVM (one reads all its ranks' terminals). Measured on this machine: {@code
 * kernel.pty.max} is 4,096 here, so 4,096 ranks cannot all have a terminal while anything else
 * holds one.
 *
 * @param ptyMax the kernel's limit on pseudo-terminals ({@code /proc/sys/kernel/pty/max})
 * @param ptyInUse how many are open now ({@code /proc/sys/kernel/pty/nr})
 * @param fdMax the JVM's limit on open files ({@code ulimit -n}, raised to the hard limit by the
 *     JVM)
 * @param fdOpen the JVM's open files now
 * @param processMax the user's limit on processes and threads ({@code ulimit -u}); {@code
 *     Long.MAX_VALUE} when unlimited
 */
public record RankLimits(long ptyMax, long ptyInUse, long fdMax, long fdOpen, long processMax) {

  /** File descriptors kept aside for what else the session opens (sockets, jars, logs). */
  static final int FD_MARGIN = 256;

  /** This machine's limits now; a limit that cannot be read counts as unlimited. */
  public static RankLimits current() {
    long fdMax = Long.MAX_VALUE;
    long fdOpen = 0;
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
      fdMax = unix.getMaxFileDescriptorCount();
      fdOpen = unix.getOpenFileDescriptorCount();
    }
    return new RankLimits(
        number(Path.of("/proc/sys/kernel/pty/max")).orElse(Long.MAX_VALUE),
        number(Path.of("/proc/sys/kernel/pty/nr")).orElse(0L),
        fdMax,
        fdOpen,
        processLimit().orElse(Long.MAX_VALUE));
  }

  /**
   * Why {@code size} ranks at {@code ranksPerGdb} to a gdb cannot start here, in one line that
   * names the limit and how to raise it; empty when they fit.
   */
  public Optional<String> problem(int size, int ranksPerGdb) {
    long gdbs = (size + ranksPerGdb - 1L) / ranksPerGdb;
    long ptyFree = ptyMax - ptyInUse;
    if (size > ptyFree) {
      return Optional.of(
          String.format(
              "%,d ranks need %,d pseudo-terminals (one each, for its output) and this machine has"
                  + " %,d free (kernel.pty.max %,d, %,d in use): raise it (sysctl -w"
                  + " kernel.pty.max=%d) or run at most %,d ranks",
              size,
              size,
              Math.max(0, ptyFree),
              ptyMax,
              ptyInUse,
              2 * ptyMax,
              Math.max(0, ptyFree)));
    }
    long fds = 2L * size + 5 * gdbs + FD_MARGIN;
    if (fdOpen + fds > fdMax) {
      return Optional.of(
          String.format(
              "%,d ranks need about %,d open files in sdm (two per rank, five per gdb) and its"
                  + " limit is %,d with %,d open: raise it (ulimit -n %d) or run fewer ranks",
              size, fds, fdMax, fdOpen, 2 * (fdOpen + fds)));
    }
    // Each rank is a process; each gdb is a process with two worker threads and five of sdm's.
    long tasks = size + 8L * gdbs;
    if (tasks > processMax) {
      return Optional.of(
          String.format(
              "%,d ranks need about %,d processes and threads and the limit is %,d: raise it"
                  + " (ulimit -u %d) or run fewer ranks",
              size, tasks, processMax, 2 * tasks));
    }
    return Optional.empty();
  }

  /** {@link #problem} as an exception, for a start to fail with. */
  public void check(int size, int ranksPerGdb) throws IOException {
    Optional<String> p = problem(size, ranksPerGdb);
    if (p.isPresent()) {
      throw new IOException(p.get());
    }
  }

  private static Optional<Long> number(Path file) {
    try {
      // Not Files.readString: a /proc file's size is 0, and it read "4" of "4096".
      return Optional.of(Long.parseLong(Files.readAllLines(file).get(0).trim()));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * The soft limit of "Max processes" in {@code /proc/self/limits}; empty when unlimited or when
   * sdm runs as root, whom the kernel does not hold to it.
   */
  private static Optional<Long> processLimit() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Uid:") && line.split("\\s+")[2].equals("0")) {
          return Optional.empty();
        }
      }
      for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
        if (line.startsWith("Max processes")) {
          String soft = line.substring("Max processes".length()).trim().split("\\s+")[0];
          return soft.equals("unlimited") ? Optional.empty() : Optional.of(Long.parseLong(soft));
        }
      }
    } catch (IOException | NumberFormatException e) {
      // Not Linux, or a format this does not know: no limit is checked.
    }
    return Optional.empty();
  }
}
