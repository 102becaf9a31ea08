package io.sdmfabric.connect;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** What a console printed, line by line, with a bounded wait for a line to come. */
final class AwaitedLines extends OutputStream {
  private final ByteArrayOutputStream current = new ByteArrayOutputStream();
  private final List<String> lines = new ArrayList<>();

  @Override
  public synchronized void write(int b) {
    if (b == '\n') {
      lines.add(current.toString(StandardCharsets.UTF_8));
      current.reset();
      notifyAll();
    } else {
      current.write(b);
    }
  }

  /**
   * The first line printed so far or within {@code limit} that {@code wanted} accepts.
   *
   * @throws AssertionError when none comes in time; it shows every line
   */
  synchronized String await(Predicate<String> wanted, Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    int seen = 0;
    while (true) {
      for (; seen < lines.size(); seen++) {
        if (wanted.test(lines.get(seen))) {
          return lines.get(seen);
        }
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("no such line within " + limit.toSeconds() + " s in:\n" + this);
      }
      wait(Math.max(1, left / 1_000_000));
    }
  }

  @Override
  public synchronized String toString() {
    return String.join("\n", lines);
  }
}
