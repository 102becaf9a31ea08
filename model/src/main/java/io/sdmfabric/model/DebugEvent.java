package io.sdmfabric.model;

import java.util.Arrays;
import java.util.Objects;

/** What a debugged process reports without being asked. */
public sealed interface DebugEvent
    permits DebugEvent.Stopped,
        DebugEvent.Resumed,
        DebugEvent.Exited,
        DebugEvent.Output,
        DebugEvent.DebuggerEnded {

  /**
   * The process stopped.
   *
   * @param reason why
   * @param signal the signal's name (e.g. {@code SIGSEGV}) for {@link StopReason#SIGNAL_RECEIVED},
   *     empty otherwise
   * @param frame where
   * @param threadId the thread that stopped, 0 when unknown
   * @param breakpointId the breakpoint or watchpoint hit, 0 for none
   */
  record Stopped(StopReason reason, String signal, Frame frame, int threadId, int breakpointId)
      implements DebugEvent {
    public Stopped {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(signal, "signal");
      Objects.requireNonNull(frame, "frame");
    }
  }

  /** The process runs again. */
  record Resumed() implements DebugEvent {}

  /**
   * The process ended.
   *
   * @param code the exit code; meaningful when {@code signal} is empty
   * @param signal the signal that ended it (e.g. {@code SIGSEGV}), empty for a normal exit
   * @param statusLost the debugger saw the process end but not how: code and signal say nothing
   *     (gdb 13 running several programs can report a program's end as its last thread's alone)
   */
  record Exited(int code, String signal, boolean statusLost) implements DebugEvent {
    public Exited {
      Objects.requireNonNull(signal, "signal");
    }

    /** An end whose code or signal is known. */
    public Exited(int code, String signal) {
      this(code, signal, false);
    }

    /** An end seen without its code or signal. */
    public static Exited withStatusLost() {
      return new Exited(0, "", true);
    }

    /** A normal exit with a code. */
    public static Exited withCode(int code) {
      return new Exited(code, "");
    }

    /** The end by a signal. */
    public static Exited bySignal(String signal) {
      return new Exited(0, signal);
    }

    /** Whether a signal ended the process. */
    public boolean signalled() {
      return !signal.isEmpty();
    }
  }

  /**
   * Bytes the program wrote to its terminal (standard output and standard error share it).
   *
   * @param bytes the bytes, as written; not necessarily whole lines or whole UTF-8 sequences
   */
  record Output(byte[] bytes) implements DebugEvent {
    public Output {
      bytes = bytes.clone();
    }

    @Override
    public byte[] bytes() {
      return bytes.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Output other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
      return "Output[" + new String(bytes, java.nio.charset.StandardCharsets.UTF_8) + "]";
    }
  }

  /**
   * The debugger itself ended without being closed (gdb killed or crashed): the last event of a
   * debugger. Every request fails from then on, and the process is gone with it.
   *
   * @param reason what happened, e.g. {@code gdb exited unexpectedly (killed by SIGKILL)}
   */
  record DebuggerEnded(String reason) implements DebugEvent {
    public DebuggerEnded {
      Objects.requireNonNull(reason, "reason");
    }
  }
}
