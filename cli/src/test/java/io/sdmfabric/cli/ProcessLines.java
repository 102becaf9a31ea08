package io.sdmfabric.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * What a process prints, read line by line on a thread of its own as it comes, so that a test can
 * wait for a line (with a bound) while the process runs on.
 */
final class ProcessLines {
  private final StringBuilder text = new StringBuilder();
  private boolean ended;

  /** Starts reading {@code process}'s standard output (with its errors, if redirected there). */
  ProcessLines(Process process) {
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                  add(line);
                }
              } catch (IOException e) {
                // The process is gone.
              }
              end();
            },
            "lines of " + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  private synchronized void add(String line) {
    text.append(line).append('\n');
    notifyAll();
  }

  private synchronized void end() {
    ended = true;
    notifyAll();
  }

  /**
   * Waits at most {@code bound} for a line that starts with {@code prefix}; that line, or an
   * AssertionError with all that was printed ({@code what} says what the line would have meant).
   */
  synchronized String await(String prefix, Duration bound, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    while (true) {
      for (String line : text.toString().split("\n", -1)) {
        if (line.startsWith(prefix)) {
          return line;
        }
      }
      long left = deadline - System.nanoTime();
      if (ended || left <= 0) {
        throw new AssertionError(what + ": no line starting with \"" + prefix + "\" in\n" + text);
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  /**
   * Waits at most {@code bound} for {@code fragment} anywhere in what was printed (a terminal's
   * lines carry its escapes and the prompt before them); or an AssertionError with all of it.
   */
  synchronized void awaitText(String fragment, Duration bound, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    while (text.indexOf(fragment) < 0) {
      long left = deadline - System.nanoTime();
      if (ended || left <= 0) {
        throw new AssertionError(what + ": no \"" + fragment + "\" in\n" + text);
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  /** All it has printed so far. */
  @Override
  public synchronized String toString() {
    return text.toString();
  }
}
