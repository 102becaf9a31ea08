package io.sdmfabric.gdbmi;

import io.sdmfabric.gdbmi.internal.Signals;
import io.sdmfabric.model.DebugEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How a process ended, as {@code /proc} tells it, for an end gdb did not report: while the process
 * is a zombie its parent has not reaped, the kernel keeps its wait status (field 52 of {@code
 * /proc/PID/stat}, since Linux 3.5); once it is reaped, only that it ended is known.
 */
final class ProcessEnd {
  /** The index of the wait status among the fields after the command's closing parenthesis. */
  private static final int EXIT_CODE_FIELD = 52 - 3;

  private ProcessEnd() {}

  /** The end of process {@code pid}; empty while it runs, or when it cannot be told. */
  static Optional<DebugEvent.Exited> of(long pid) {
    String stat;
    try {
      stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    } catch (NoSuchFileException e) {
      return Optional.of(DebugEvent.Exited.withStatusLost());
    } catch (IOException e) {
      return Optional.empty();
    }
    return ofStat(stat);
  }

  /** The end a line of {@code /proc/PID/stat} describes; empty while the process runs. */
  static Optional<DebugEvent.Exited> ofStat(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    String state = fields[0];
    if (!state.equals("Z") && !state.equals("X")) {
      return Optional.empty();
    }
    if (fields.length <= EXIT_CODE_FIELD) {
      return Optional.of(DebugEvent.Exited.withStatusLost());
    }
    int status = Integer.parseInt(fields[EXIT_CODE_FIELD]);
    int signal = status & 0x7f;
    return Optional.of(
        signal == 0
            ? DebugEvent.Exited.withCode((status >> 8) & 0xff)
            : DebugEvent.Exited.bySignal(Signals.name(signal)));
  }
}
