package io.sdmfabric.runtime;

import io.sdmfabric.runtime.launch.Executables;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/** Starting, reading and ending the processes a distributed session runs: launchers, agents. */
final class ChildProcesses {
  private ChildProcesses() {}

  /**
   * setsid(1) of util-linux, where this host has it: a child started through it leads a session of
   * its own, out of the terminal's foreground process group.
   */
  private static final Optional<String> SETSID =
      Stream.of("/usr/bin/setsid", "/bin/setsid")
          .filter(p -> Files.isExecutable(Path.of(p)))
          .findFirst();

  /**
   * Starts {@code command} with more environment variables; its standard input is {@code
   * /dev/null}, or a pipe when {@code input} is true.
   *
   * <p>It runs in a session of its own (setsid), so that what the terminal sends sdm's process
   * group does not reach it: a Ctrl-C at sdm's prompt, which clears the line there, would make
   * mpirun abort the job, and a hang-up would end a launcher before sdm ends the job through it.
   * sdm's own end ends it (its shutdown hook, on SIGINT, SIGTERM or SIGHUP).
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
    String program = command.get(0);
    if (SETSID.isPresent()) {
      // setsid itself would start, and only then fail to run a missing program.
      if (Executables.find(program, b.environment().get("PATH")).isEmpty()) {
        throw new IOException(
            "cannot run " + program + ": is it installed and on the PATH? (not found)");
      }
      List<String> inSession = new ArrayList<>(List.of(SETSID.get()));
      inSession.addAll(command);
      b.command(inSession);
    }
    try {
      return b.start();
    } catch (IOException e) {
      throw new IOException(
          "cannot run " + program + ": is it installed and on the PATH? (" + e.getMessage() + ")",
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
