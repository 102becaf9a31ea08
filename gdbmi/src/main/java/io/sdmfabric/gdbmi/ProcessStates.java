package io.sdmfabric.gdbmi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A process's state as {@code /proc/PID/stat} gives it: {@code R}, {@code S}, {@code T} ... */
final class ProcessStates {
  private ProcessStates() {}

  /** The state letter of process {@code pid}; {@code ?} when it is not there or cannot be read. */
  static char of(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      return stat.substring(stat.lastIndexOf(')') + 1).strip().charAt(0);
    } catch (IOException | RuntimeException e) {
      return '?';
    }
  }
}
