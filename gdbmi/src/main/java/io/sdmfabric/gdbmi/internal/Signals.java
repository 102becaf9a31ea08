package io.sdmfabric.gdbmi.internal;

import com.sun.jna.LastErrorException;

/** Signals to processes, which the JDK cannot send but SIGTERM and SIGKILL. */
public final class Signals {
  /** SIGCONT on Linux (x86_64 and aarch64 alike). */
  private static final int SIGCONT = 18;

  private Signals() {}

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
}
