package io.sdmfabric.runtime.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one of Slurm's commands ({@code squeue}, {@code sinfo}, {@code scontrol}) and gives its
 * output, within a bound: a slurmctld that does not answer (or a configuration Slurm retries to
 * read for a minute) must not hang sdm. Every failure is one line that names the command.
 *
 * @param bound how long the command may take
 */
public record SlurmCommand(Duration bound) {
  /** The bound a command gets unless told otherwise. */
  public static final Duration DEFAULT_BOUND = Duration.ofSeconds(15);

  /** Slurm's commands are not on this host. */
  public static final class NotInstalled extends IOException {
    private static final long serialVersionUID = 1L;

    NotInstalled(String command) {
      super("Slurm not found on this host (no " + command + " on the PATH)");
    }
  }

  public SlurmCommand {
    Objects.requireNonNull(bound, "bound");
    if (bound.isNegative() || bound.isZero()) {
      throw new IllegalArgumentException("the bound must be positive: " + bound);
    }
  }

  /**
   * What {@code command} printed on its standard output, once it ended with status 0.
   *
   * @throws NotInstalled when the command is not there
   * @throws IOException with one line, {@code squeue failed: WHY} (Slurm's last line of error), or
   *     that it did not answer within the bound
   */
  public String run(List<String> command) throws IOException {
    String name = command.get(0);
    Process p;
    try {
      p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.PIPE).start();
    } catch (IOException e) {
      throw new NotInstalled(name);
    }
    p.getOutputStream().close();
    CompletableFuture<String> out = read(p.getInputStream());
    CompletableFuture<String> err = read(p.getErrorStream());
    try {
      if (!p.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        throw new IOException(
            name + " failed: no answer within " + bound.toSeconds() + " s (is slurmctld up?)");
      }
      String output = out.get(5, TimeUnit.SECONDS);
      String error = err.get(5, TimeUnit.SECONDS);
      if (p.exitValue() != 0) {
        throw new IOException(name + " failed: " + why(name, error, p.exitValue()));
      }
      return output;
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException(name + " failed: interrupted", e);
    } catch (ExecutionException | TimeoutException e) {
      p.destroyForcibly();
      throw new IOException(name + " failed: its output could not be read", e);
    }
  }

  /**
   * Slurm's last line of error (its {@code fatal:} line comes last), without the command's name.
   */
  static String why(String name, String error, int status) {
    List<String> lines = error.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    if (lines.isEmpty()) {
      return "exit status " + status;
    }
    String last = lines.get(lines.size() - 1);
    return last.startsWith(name + ": ") ? last.substring(name.length() + 2) : last;
  }

  /**
   * The whole of {@code in}, read on a thread of its own: the common pool may have one thread, and
   * a command that fills one pipe while the other is read would wait forever.
   */
  private static CompletableFuture<String> read(InputStream in) {
    CompletableFuture<String> text = new CompletableFuture<>();
    Thread reader = new Thread(() -> text.complete(text(in)), "slurm-output");
    reader.setDaemon(true);
    reader.start();
    return text;
  }

  private static String text(InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
