package io.sdmfabric.runtime.attach;

import io.sdmfabric.model.Shell;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Finds the rank of each process {@code sdm attach} is given, before anything is started, so that a
 * wrong pid is reported at once: on this host from {@code /proc} ({@link
 * RankEnvironment#ofProcess}), on another host through the remote shell, with a small POSIX sh
 * script that prints each process's program and the rank variables of its environment.
 */
public final class ProcessProbe {
  /** How long the remote shell may take to answer. */
  private static final long REMOTE_SECONDS = 60;

  /**
   * A process found, with its place in the job.
   *
   * @param host where it runs, as given
   * @param pid its process id there
   * @param executable the program it runs (empty when unknown)
   * @param env its rank, the job's size, and the job
   */
  public record Found(String host, long pid, String executable, RankEnvironment env) {
    public Found {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(executable, "executable");
      Objects.requireNonNull(env, "env");
    }

    /** How messages name it: the pid, with the host when it is another's. */
    String name() {
      return AttachTargets.isLocal(host) ? Long.toString(pid) : host + ":" + pid;
    }
  }

  private ProcessProbe() {}

  /**
   * The processes of {@code host}, in the order given.
   *
   * @param rsh the remote shell's command, e.g. {@code [ssh]} (the host and the command follow)
   * @throws IOException naming the first process that is not there or has no rank, or why the
   *     remote shell failed
   */
  public static List<Found> probe(AttachTargets.Host host, List<String> rsh) throws IOException {
    List<Found> found = new ArrayList<>();
    if (host.isLocal()) {
      for (long pid : host.pids()) {
        found.add(
            new Found(
                host.name(), pid, RankEnvironment.executable(pid), RankEnvironment.ofProcess(pid)));
      }
      return found;
    }
    List<String> command = new ArrayList<>(rsh);
    command.add(host.name());
    command.add(remoteCommand(host.pids()));
    Process p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.PIPE).start();
    p.getOutputStream().close();
    String out;
    String err;
    try {
      var errText = java.util.concurrent.CompletableFuture.supplyAsync(() -> readAll(p, true));
      out = readAll(p, false);
      if (!p.waitFor(REMOTE_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(
            "no answer from " + host.name() + " through " + String.join(" ", rsh) + " in time");
      }
      err = errText.join();
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while asking " + host.name() + " for its processes", e);
    }
    return parse(host.name(), out, err.strip());
  }

  private static String readAll(Process p, boolean error) {
    try {
      return new String(
          (error ? p.getErrorStream() : p.getInputStream()).readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  /** The command line the remote shell runs: sh with the script, the pids as its arguments. */
  static String remoteCommand(List<Long> pids) {
    StringBuilder c =
        new StringBuilder("sh -c ").append(Shell.quote(script())).append(" sdm-probe");
    pids.forEach(pid -> c.append(' ').append(pid));
    return c.toString();
  }

  /**
   * For each pid: {@code process PID}, then {@code absent}, or {@code exe PROGRAM} and either
   * {@code env NAME=VALUE} lines (only the variables {@link RankEnvironment} reads) or {@code
   * unreadable}; {@code end} last, so that a cut answer shows.
   */
  static String script() {
    String names = String.join("|", RankEnvironment.variables());
    return String.join(
        "\n",
        "for p in \"$@\"; do",
        "  echo \"process $p\"",
        "  if [ ! -d \"/proc/$p\" ]; then echo absent; continue; fi",
        "  echo \"exe $(readlink \"/proc/$p/exe\" 2>/dev/null || cat \"/proc/$p/comm\" 2>/dev/null)\"",
        "  if env=$(tr '\\000' '\\n' < \"/proc/$p/environ\" 2>/dev/null); then",
        "    printf '%s\\n' \"$env\" | grep -E '^(" + names + ")=' | sed 's/^/env /'",
        "  else",
        "    echo unreadable",
        "  fi",
        "done",
        "echo end");
  }

  /** Reads the script's answer from {@code host}. */
  static List<Found> parse(String host, String out, String err) throws IOException {
    List<String> lines = out.lines().toList();
    if (!lines.contains("end")) {
      throw new IOException(
          "could not look at the processes of "
              + host
              + (err.isEmpty() ? "" : ": " + err)
              + (out.isBlank() ? "" : " (it answered: " + out.strip() + ")"));
    }
    List<Found> found = new ArrayList<>();
    long pid = -1;
    String exe = "";
    Map<String, String> env = new HashMap<>();
    boolean readable = true;
    for (String line : lines) {
      if (line.startsWith("process ") || line.equals("end")) {
        if (pid > 0) {
          found.add(found(host, pid, exe, env, readable));
        }
        pid = line.equals("end") ? -1 : Long.parseLong(line.substring("process ".length()));
        exe = "";
        env = new HashMap<>();
        readable = true;
      } else if (line.equals("absent")) {
        throw new IOException("no process " + pid + " on " + host);
      } else if (line.startsWith("exe ")) {
        exe = line.substring("exe ".length()).strip();
      } else if (line.startsWith("env ")) {
        String entry = line.substring("env ".length());
        int eq = entry.indexOf('=');
        if (eq > 0) {
          env.putIfAbsent(entry.substring(0, eq), entry.substring(eq + 1));
        }
      } else if (line.equals("unreadable")) {
        readable = false;
      }
    }
    return found;
  }

  private static Found found(
      String host, long pid, String exe, Map<String, String> env, boolean readable)
      throws IOException {
    String name = host + ":" + pid;
    if (!readable) {
      throw new IOException(
          "cannot read the environment of process "
              + name
              + (exe.isEmpty() ? "" : " (" + exe + ")")
              + ": not yours");
    }
    return new Found(host, pid, exe, RankEnvironment.check(name, exe, env));
  }
}
