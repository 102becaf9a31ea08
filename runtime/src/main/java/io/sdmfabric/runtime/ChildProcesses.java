package io.sdmfabric.runtime;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** Starting, reading and ending the processes a distributed session runs: launchers, agents. */
final class ChildProcesses {
  private ChildProcesses() {}

  /**
   * Starts {@code command} with more environment variables; its standard input is {@code
   * /dev/null}, or a pipe when {@code input} is true.
   *
   * @throws IOException saying which command could not be started
   */
  static Process start(List<String> command, Map<String, String> env, boolean input)
      throws IOException {
    ProcessBuilder b = new ProcessBuilder(command);
    if (!input) {
      b.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    }
    b.environment().putAll(env);
    try {
      return b.start();
    } catch (IOException e) {
      throw new IOException(
          "cannot run "
              + command.get(0)
              + ": is it installed and on the PATH? ("
              + e.getMessage()
              + ")",
          e);
    }
  }

  /**
   * Hands each line of {@code in} to {@code lines}, on a daemon thread, until it ends; returns the
   * thread, which ends when the stream does.
   */
  static Thread pump(InputStream in, Consumer<String> lines, String name) {
    Thread t =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                  lines.accept(line);
                }
              } catch (IOException e) {
                // The process is gone.
              }
            },
            name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  /** SIGTERM to {@code p}, SIGKILL to it and its descendants after {@code grace} seconds. */
  static void end(Process p, int grace) {
    if (p == null) {
      return;
    }
    List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
    p.destroy();
    try {
      if (!p.waitFor(grace, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        p.waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    tree.forEach(ProcessHandle::destroyForcibly);
  }

  /**
   * Ends an agent whose gdbs are attached to programs sdm did not start: SIGTERM to {@code p}, and
   * after {@code grace} seconds SIGTERM to its descendants before any SIGKILL, since a gdb detaches
   * from its program when it gets SIGTERM but leaves it to die of SIGTRAP when it gets SIGKILL
   * while breakpoints are in.
   */
  static void endLeavingPrograms(Process p, int grace) {
    if (p == null) {
      return;
    }
    List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
    p.destroy();
    try {
      p.waitFor(grace, TimeUnit.SECONDS);
      tree.forEach(ProcessHandle::destroy);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      for (ProcessHandle h : tree) {
        long left = deadline - System.nanoTime();
        if (left > 0 && h.isAlive()) {
          h.onExit().get(left, TimeUnit.NANOSECONDS);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      // Killed below.
    }
    p.destroyForcibly();
    tree.forEach(ProcessHandle::destroyForcibly);
  }
}
