package io.sdmfabric.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The CPU time a live process has used, from {@code /proc/PID/stat}. */
final class ProcessCpu {
  /** Clock ticks per second of {@code /proc}'s times: 100 on every Linux this runs on. */
  private static final double TICKS_PER_SECOND = 100;

  private ProcessCpu() {}

  /** User plus system time of {@code pid} in seconds; 0 when it has ended. */
  static double seconds(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // The command's name, in parentheses, may hold spaces: count fields after its end.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS_PER_SECOND;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
