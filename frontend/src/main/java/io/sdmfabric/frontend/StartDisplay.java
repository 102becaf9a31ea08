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
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Shows the progress of a session's start, from the first launch step until the program is loaded
 * ({@link StartProgress.Ready}): on a terminal as a {@link ProgressLine}, redrawn by a ticker so
 * that its seconds go on while nothing else changes; as JSON {@code progress} events ({@link
 * JsonRenderer#progress}: each phase's first, then at most one per {@link ProgressLine#INTERVAL},
 * and the end); or not at all (standard error is no terminal). Progress comes from any thread.
 *
 * <p>The line must not be left among other output: {@link #around(Renderer)} and {@link
 * #around(PrintStream)} erase it before they write, and the ticker draws it again later.
 */
public final class StartDisplay implements Consumer<StartProgress>, AutoCloseable {
  private final LongSupplier nanoTime;
  private final long startNanos;
  private final ProgressLine line;
  private final JsonRenderer json;
  private final ScheduledExecutorService ticker;
  private String lastPhase = "";
  private long emittedNanos;
  private boolean ended;

  private StartDisplay(
      LongSupplier nanoTime,
      ProgressLine line,
      JsonRenderer json,
      ScheduledExecutorService ticker) {
    this.nanoTime = nanoTime;
    this.startNanos = nanoTime.getAsLong();
    this.line = line;
    this.json = json;
    this.ticker = ticker;
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
    ProgressLine line = new ProgressLine(terminal, System::nanoTime);
    ticker.scheduleAtFixedRate(
        line::refresh,
        ProgressLine.INTERVAL.toMillis(),
        ProgressLine.INTERVAL.toMillis(),
        TimeUnit.MILLISECONDS);
    return new StartDisplay(System::nanoTime, line, null, ticker);
  }

  /** A line on {@code terminal} that {@link ProgressLine#refresh} redraws: for tests. */
  static StartDisplay onTerminal(ProgressLine line, LongSupplier nanoTime) {
    return new StartDisplay(nanoTime, line, null, null);
  }

  /** JSON {@code progress} events through {@code json}, timed by {@code nanoTime}. */
  public static StartDisplay asJson(JsonRenderer json, LongSupplier nanoTime) {
    return new StartDisplay(nanoTime, null, json, null);
  }

  @Override
  public void accept(StartProgress progress) {
    if (line != null) {
      line.update(progress);
    }
    if (json != null) {
      emit(progress);
    }
    if (progress instanceof StartProgress.Ready) {
      stopTicker();
    }
  }

  /** Emits a JSON event: a phase's first, the end, else one per interval at most. */
  private synchronized void emit(StartProgress progress) {
    if (ended) {
      return;
    }
    long now = nanoTime.getAsLong();
    boolean newPhase = !progress.phase().equals(lastPhase);
    if (!newPhase && now - emittedNanos < ProgressLine.INTERVAL.toNanos()) {
      return;
    }
    lastPhase = progress.phase();
    emittedNanos = now;
    ended = progress instanceof StartProgress.Ready;
    json.progress(progress, Duration.ofNanos(now - startNanos));
  }

  /**
   * Runs {@code write} with the line taken away, if there is one: the line is not drawn again until
   * {@code write} is done, so that nothing lands behind it.
   */
  void erasing(Runnable write) {
    if (line == null) {
      write.run();
      return;
    }
    synchronized (line) {
      line.erase();
      write.run();
    }
  }

  /** {@link #erasing} for a write that may fail as a stream's do. */
  private void erasingBytes(byte[] b, int off, int len, OutputStream out) throws IOException {
    synchronized (line) {
      line.erase();
      out.write(b, off, len);
    }
  }

  /**
   * {@code renderer}, erasing the line before each thing it shows, and showing the progress it is
   * given ({@link Renderer#progress}) here.
   */
  public Renderer around(Renderer renderer) {
    return line == null && json == null ? renderer : new ErasingRenderer(renderer, this);
  }

  /** {@code stream}, erasing the line before each write: for the launcher's lines on the way. */
  public PrintStream around(PrintStream stream) {
    if (line == null) {
      return stream;
    }
    return new PrintStream(
        new FilterOutputStream(stream) {
          @Override
          public void write(int b) throws IOException {
            erasingBytes(new byte[] {(byte) b}, 0, 1, out);
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            erasingBytes(b, off, len, out);
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

  private void stopTicker() {
    if (ticker != null) {
      ticker.shutdownNow();
    }
  }

  /** Ends the display: the line is erased for good (also after a failed start). */
  @Override
  public void close() {
    stopTicker();
    if (line != null) {
      line.end();
    }
  }
}
