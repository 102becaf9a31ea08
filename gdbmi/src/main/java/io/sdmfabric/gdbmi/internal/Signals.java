package io.sdmfabric.gdbmi.internal;

import com.sun.jna.LastErrorException;
import java.util.List;

/** Signals to processes, which the JDK cannot send but SIGTERM and SIGKILL. */
public final class Signals {
  /** SIGCONT on Linux (x86_64 and aarch64 alike). */
  private static final int SIGCONT = 18;

  /** SIGSTOP on Linux (x86_64 and aarch64 alike). */
  private static final int SIGSTOP = 19;

  /** The names of signals 1 to 15, Linux numbering. */
  private static final List<String> NAMES =
      List.of(
          "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE",
          "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM");

  private Signals() {}

  /**
   * The name of signal {@code number} ({@code SIGSEGV}), or {@code signal N} past the common 15.
   */
  public static String name(int number) {
    return number >= 1 && number <= NAMES.size() ? NAMES.get(number - 1) : "signal " + number;
  }

  /**
   * Sends SIGCONT to {@code pid}: ends a stop by job control (SIGSTOP), which a process a debugger
   * holds would otherwise go back to when the debugger lets it go. Returns whether it was sent.
   */
  public static boolean resume(long pid) {
    try {
      return LibC.INSTANCE.kill((int) pid, SIGCONT) == 0;
    } catch (LastErrorException e) {
      return false; // gone, or not ours
    }
  }

  /**
   * Sends SIGSTOP to {@code pid}: a stop by job control, which only SIGCONT ends. Returns whether
   * it was sent.
   */
  public static boolean stop(long pid) {
    try {
      return LibC.INSTANCE.kill((int) pid, SIGSTOP) == 0;
    } catch (LastErrorException e) {
      return false; // gone, or not ours
    }
  }
}
