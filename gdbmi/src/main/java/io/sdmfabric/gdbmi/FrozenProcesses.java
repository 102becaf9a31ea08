package io.sdmfabric.gdbmi;

import io.sdmfabric.gdbmi.internal.Signals;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Running processes that an attach stopped (SIGSTOP) as soon as it found them, each let go
 * (SIGCONT) just before its gdb attaches to it, when it cannot be attached, or at the latest when
 * the attach is over. Until its gdb has it, a process neither runs on, so that the stacks of all
 * ranks are of one moment rather than of the seconds an attach takes, nor takes the cores that the
 * debugger's start needs (64 ranks busy-polling in MPI on 2 cores).
 *
 * <p>A process stopped already (by its user, or held by its launcher) is left as it is. Should this
 * JVM end in any way before it has let them all go, a small shell left behind sends the SIGCONT: a
 * job is never left stopped by a debugger that is gone.
 */
public final class FrozenProcesses implements AutoCloseable {
  private final Set<Long> frozen = ConcurrentHashMap.newKeySet();
  private final Process guard;

  private FrozenProcesses(List<Long> frozen, Process guard) {
    this.frozen.addAll(frozen);
    this.guard = guard;
  }

  /** Stops each of {@code pids} that is running now. */
  public static FrozenProcesses freeze(List<Long> pids) {
    List<Long> running = pids.stream().filter(FrozenProcesses::isRunning).toList();
    Process guard = running.isEmpty() ? null : startGuard(running);
    List<Long> stopped = new ArrayList<>();
    if (guard != null) {
      for (long pid : running) {
        if (Signals.stop(pid)) {
          stopped.add(pid);
        }
      }
    }
    FrozenProcesses f = new FrozenProcesses(stopped, guard);
    if (stopped.isEmpty()) {
      f.close();
    }
    return f;
  }

  /** Nothing stopped. */
  public static FrozenProcesses none() {
    return new FrozenProcesses(List.of(), null);
  }

  /** Lets {@code pid} go, if this stopped it and has not let it go yet. */
  public void thaw(long pid) {
    if (frozen.remove(pid)) {
      Signals.resume(pid);
    }
    if (frozen.isEmpty()) {
      endGuard();
    }
  }

  /** How many processes are still stopped by this. */
  public int count() {
    return frozen.size();
  }

  /** Lets every process still stopped go. */
  @Override
  public void close() {
    for (long pid : List.copyOf(frozen)) {
      thaw(pid);
    }
    endGuard();
  }

  private void endGuard() {
    if (guard != null) {
      guard.destroy();
    }
  }

  /**
   * A shell that sends SIGCONT to {@code pids} once this JVM has ended: this JVM's end makes its
   * standard input reach end of file (it holds the only writer), and so does {@link #endGuard}'s
   * SIGTERM end the shell before it sends anything.
   */
  private static Process startGuard(List<Long> pids) {
    String list = pids.stream().map(String::valueOf).collect(Collectors.joining(" "));
    try {
      return new ProcessBuilder("sh", "-c", "read -r never; kill -CONT " + list + " 2>/dev/null")
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(ProcessBuilder.Redirect.DISCARD)
          .start();
    } catch (IOException e) {
      return null; // no guard, no freeze: the attach goes on with the processes running
    }
  }

  /** Whether {@code pid} is there and neither stopped nor traced nor a zombie. */
  private static boolean isRunning(long pid) {
    char state = ProcessStates.of(pid);
    return state == 'R' || state == 'S' || state == 'D';
  }
}
