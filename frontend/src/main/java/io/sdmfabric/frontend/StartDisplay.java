package io.sdmfabric.frontend;

import io.sdmfabric.model.StartProgress;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Shows what a session's user waits through: its start, from the first launch step until the
 * program is loaded ({@link StartProgress.Ready}), and later the ranks a command set running on
 * their way to their first stop ({@link StartProgress.Stopping}, until all have stopped). Each wait
 * is shown on a terminal as a {@link ProgressLine} of its own, redrawn by a ticker so that its
 * seconds go on while nothing else changes; as JSON {@code progress} events ({@link
 * JsonRenderer#progress}: each phase's first, then at most one per {@link ProgressLine#INTERVAL}
 * when it has changed, and the last); or not at all (standard error is no terminal). Progress comes
 * from any thread.
 *
 * <p>The line must not be left among other output: whatever goes to the same terminal goes through
 * {@link #around(PrintStream)}, which erases it before each write; the ticker draws it again later,
 * once the cursor is back at the start of a line. While the console shows its prompt ({@link
 * #suspend}) nothing is shown: the prompt is the last line.
 */
public final class StartDisplay implements Consumer<StartProgress>, AutoCloseable {
  private final LongSupplier nanoTime;
  private final PrintStream terminal;
  private final JsonRenderer json;
  private final ScheduledExecutorService ticker;

  // Guarded by this.
  private ProgressLine line;
  private ScheduledFuture<?> ticking;
  private boolean waiting;
  private boolean suspended;
  private boolean closed;
  private long startNanos;
  private String lastPhase = "";
  private long emittedNanos;
  private StartProgress lastEmitted;
  private boolean atLineStart = true;

  private StartDisplay(
      LongSupplier nanoTime,
      PrintStream terminal,
      JsonRenderer json,
      ScheduledExecutorService ticker) {
    this.nanoTime = nanoTime;
    this.terminal = terminal;
    this.json = json;
    this.ticker = ticker;
    synchronized (this) {
      begin();
    }
  }

  /** Shows nothing. */
  public static StartDisplay none() {
    return new StartDisplay(System::nanoTime, null, null, null);
  }

  /** A line on {@code terminal}, redrawn by a ticker thread of its own until {@link #close}. */
  public static StartDisplay onTerminal(PrintStream terminal) {
    ScheduledExecutorService ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "start-progress");
              t.setDaemon(true);
              return t;
            });
    return new StartDisplay(System::nanoTime, terminal, null, ticker);
  }

  /**
   * A line on {@code terminal} timed by {@code nanoTime}, redrawn by {@link #refresh}: for tests.
   */
  static StartDisplay onTerminal(PrintStream terminal, LongSupplier nanoTime) {
    return new StartDisplay(nanoTime, terminal, null, null);
  }

  /** JSON {@code progress} events through {@code json}, timed by {@code nanoTime}. */
  public static StartDisplay asJson(JsonRenderer json, LongSupplier nanoTime) {
    return new StartDisplay(nanoTime, null, json, null);
  }

  /** A wait begins: a new line, a new start time. */
  private void begin() {
    waiting = true;
    startNanos = nanoTime.getAsLong();
    lastPhase = "";
    lastEmitted = null;
    if (terminal != null) {
      ProgressLine l = new ProgressLine(terminal, nanoTime);
      l.hold(!atLineStart);
      line = l;
      if (ticker != null) {
        long every = ProgressLine.INTERVAL.toMillis();
        ticking = ticker.scheduleAtFixedRate(l::refresh, every, every, TimeUnit.MILLISECONDS);
      }
    }
  }

  /** The wait is over: the line goes for good. */
  private void end() {
    waiting = false;
    if (ticking != null) {
      ticking.cancel(false);
      ticking = null;
    }
    if (line != null) {
      line.end();
      line = null;
    }
  }

  @Override
  public synchronized void accept(StartProgress progress) {
    if (closed || suspended) {
      return;
    }
    if (!waiting) {
      if (progress.ends()) {
        return;
      }
      begin();
    }
    if (line != null) {
      line.update(progress);
    }
    if (json != null) {
      emit(progress);
    }
    if (progress.ends()) {
      end();
    }
  }

  /** Emits a JSON event: a phase's first, the last, else one per interval at most. */
  private void emit(StartProgress progress) {
    long now = nanoTime.getAsLong();
    boolean newPhase = !progress.phase().equals(lastPhase);
    if (!newPhase
        && !progress.ends()
        && (progress.equals(lastEmitted) || now - emittedNanos < ProgressLine.INTERVAL.toNanos())) {
      return;
    }
    lastPhase = progress.phase();
    lastEmitted = progress;
    emittedNanos = now;
    json.progress(progress, Duration.ofNanos(now - startNanos));
  }

  /** Draws the line if it is due: what the ticker does. */
  synchronized void refresh() {
    if (line != null) {
      line.refresh();
    }
  }

  /**
   * The console shows its prompt: the wait shown, if any, ends here, and progress is not shown
   * until {@link #resume}.
   */
  public synchronized void suspend() {
    end();
    suspended = true;
  }

  /** The console runs a command: progress is shown again, as a new wait. */
  public synchronized void resume() {
    suspended = false;
  }

  /**
   * Writes with the line taken away, if there is one; it is not drawn again until the write is
   * done, nor while the cursor is left inside a line.
   */
  private synchronized void erasing(byte[] b, int off, int len, OutputStream out)
      throws IOException {
    if (len > 0) {
      atLineStart = b[off + len - 1] == '\n';
    }
    ProgressLine l = line;
    if (l == null) {
      out.write(b, off, len);
      return;
    }
    synchronized (l) {
      l.erase();
      out.write(b, off, len);
      out.flush();
      l.hold(!atLineStart);
    }
  }

  /** {@code renderer}, showing the progress it is given ({@link Renderer#progress}) here. */
  public Renderer around(Renderer renderer) {
    return terminal == null && json == null ? renderer : new ProgressRenderer(renderer, this);
  }

  /**
   * {@code stream}, erasing the line before each write: for everything written to the terminal the
   * line is on while it may show (the console's output, the launcher's lines).
   */
  public PrintStream around(PrintStream stream) {
    if (terminal == null) {
      return stream;
    }
    return new PrintStream(
        new FilterOutputStream(stream) {
          @Override
          public void write(int b) throws IOException {
            erasing(new byte[] {(byte) b}, 0, 1, out);
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            erasing(b, off, len, out);
          }
        },
        true,
        StandardCharsets.UTF_8);
  }

  /**
   * Whether this process's file descriptor {@code fd} is a terminal (on Linux, read from where it
   * links in {@code /proc/self/fd}; Java itself knows only whether standard input and output are).
   */
  public static boolean isTerminal(int fd) {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  /** Ends the display: the line is erased for good (also after a failed start). */
  @Override
  public synchronized void close() {
    end();
    closed = true;
    if (ticker != null) {
      ticker.shutdownNow();
    }
  }
}
