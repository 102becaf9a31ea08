package io.sdmfabric.gdbmi;

import io.sdmfabric.model.DebugEvent;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** Collects a debugger's events so that a test can await the next stop or exit with a bound. */
public final class EventRecorder implements Consumer<DebugEvent> {
  private final BlockingQueue<DebugEvent> events = new LinkedBlockingQueue<>();
  private final ByteArrayOutputStream output = new ByteArrayOutputStream();

  @Override
  public void accept(DebugEvent e) {
    if (e instanceof DebugEvent.Output o) {
      synchronized (output) {
        output.writeBytes(o.bytes());
        output.notifyAll();
      }
    } else if (!(e instanceof DebugEvent.Resumed)) {
      events.add(e);
    }
  }

  /** The next stop or exit, failing the test after the bound. */
  public DebugEvent next(Duration bound) throws InterruptedException {
    DebugEvent e = events.poll(bound.toMillis(), TimeUnit.MILLISECONDS);
    if (e == null) {
      throw new AssertionError("no stop or exit within " + bound);
    }
    return e;
  }

  /** The next event, which must be a stop. */
  public DebugEvent.Stopped nextStop() throws InterruptedException {
    DebugEvent e = next(Duration.ofSeconds(20));
    if (e instanceof DebugEvent.Stopped s) {
      return s;
    }
    throw new AssertionError("expected a stop, got " + e);
  }

  /** The next event, which must be an exit. */
  public DebugEvent.Exited nextExit() throws InterruptedException {
    DebugEvent e = next(Duration.ofSeconds(20));
    if (e instanceof DebugEvent.Exited x) {
      return x;
    }
    throw new AssertionError("expected an exit, got " + e);
  }

  /** The program's output so far. */
  public String output() {
    synchronized (output) {
      return output.toString(StandardCharsets.UTF_8);
    }
  }

  /** Waits until the program's output contains a text, failing after the bound. */
  public String awaitOutput(String text, Duration bound) throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    synchronized (output) {
      while (true) {
        String all = output.toString(StandardCharsets.UTF_8);
        if (all.contains(text)) {
          return all;
        }
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          throw new AssertionError("output lacks \"" + text + "\" after " + bound + ": " + all);
        }
        output.wait(left);
      }
    }
  }
}
