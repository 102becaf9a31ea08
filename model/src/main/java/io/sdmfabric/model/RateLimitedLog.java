package io.sdmfabric.model;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Lines about what others do (connections a relay carries, messages a JVM refuses), at most a few
 * per source and interval, so that a flood, which costs its sender nothing, cannot flood a log or a
 * terminal. Each source's interval starts with its first line: the first {@code perInterval} lines
 * in it are shown in full, the others counted, and the count is written as one line of its own when
 * the interval is over (at the source's next line, or at {@link #flush}). At most {@code
 * maxSources} sources are followed at once; lines of any further source count under one more,
 * {@value #OTHERS}, so that a sender that names itself anew every time gains nothing. So over any
 * interval a log gets at most {@code (maxSources + 1) * (perInterval + 1)} lines, whatever comes.
 *
 * <p>The lines are written as given: text that others chose must be escaped ({@link TerminalText})
 * by the caller, the source included. Safe to call from any thread; {@code out} is called under
 * this object's lock, one line at a time.
 */
public final class RateLimitedLog {
  /** The source that lines of sources beyond the most followed count under. */
  public static final String OTHERS = "other sources";

  private final Consumer<String> out;
  private final Duration interval;
  private final int perInterval;
  private final int maxSources;
  private final String what;
  private final LongSupplier nanoTime;
  private final Map<String, Window> windows = new LinkedHashMap<>();

  /** One source's interval: when it started, the lines shown and not shown in it. */
  private static final class Window {
    final long start;
    int shown;
    long unshown;

    Window(long start) {
      this.start = start;
    }
  }

  /**
   * @param out where lines go
   * @param interval the interval each source's lines are counted over
   * @param perInterval lines shown in full per source and interval, at least 1
   * @param maxSources sources followed at once, at least 1
   * @param what what a line is about, in the plural, for the counts: {@code "refused messages"}
   * @param nanoTime the clock, {@code System::nanoTime} but in tests
   */
  public RateLimitedLog(
      Consumer<String> out,
      Duration interval,
      int perInterval,
      int maxSources,
      String what,
      LongSupplier nanoTime) {
    if (interval.isNegative() || interval.isZero() || perInterval < 1 || maxSources < 1) {
      throw new IllegalArgumentException(
          "a positive interval, and at least one line and one source: "
              + interval
              + ", "
              + perInterval
              + ", "
              + maxSources);
    }
    this.out = out;
    this.interval = interval;
    this.perInterval = perInterval;
    this.maxSources = maxSources;
    this.what = what;
    this.nanoTime = nanoTime;
  }

  /** Shows {@code line}, about {@code source}, unless that source has had its lines already. */
  public synchronized void log(String source, String line) {
    long now = nanoTime.getAsLong();
    Window w = windows.get(source);
    if (w != null && now - w.start >= interval.toNanos()) {
      report(source, w);
      windows.remove(source);
      w = null;
    }
    if (w == null) {
      if (windows.size() >= maxSources && !windows.containsKey(OTHERS)) {
        endIntervals(now);
      }
      if (windows.size() >= maxSources) {
        source = OTHERS;
        w = windows.get(OTHERS);
        if (w != null && now - w.start >= interval.toNanos()) {
          report(OTHERS, w);
          windows.remove(OTHERS);
          w = null;
        }
      }
      if (w == null) {
        w = new Window(now);
        windows.put(source, w);
      }
    }
    if (w.shown < perInterval) {
      w.shown++;
      out.accept(line);
    } else {
      w.unshown++;
    }
  }

  /** Writes the counts of the intervals that are over; to be called now and then. */
  public synchronized void flush() {
    endIntervals(nanoTime.getAsLong());
  }

  /** Writes every count there is, intervals over or not: when the log's owner ends. */
  public synchronized void flushAll() {
    windows.forEach(this::report);
    windows.clear();
  }

  private void endIntervals(long now) {
    for (Iterator<Map.Entry<String, Window>> i = windows.entrySet().iterator(); i.hasNext(); ) {
      Map.Entry<String, Window> e = i.next();
      if (now - e.getValue().start >= interval.toNanos()) {
        report(e.getKey(), e.getValue());
        i.remove();
      }
    }
  }

  private void report(String source, Window w) {
    if (w.unshown > 0) {
      out.accept(
          source
              + ": "
              + w.unshown
              + " more "
              + what
              + " not shown (at most "
              + perInterval
              + (perInterval == 1 ? " line" : " lines")
              + " per source every "
              + seconds(interval)
              + ")");
    }
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
  }
}
