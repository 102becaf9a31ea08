package io.sdmfabric.frontend;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StartProgress;
import java.io.PrintStream;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The progress of a session's start as one line of a terminal, rewritten in place ({@code \r}, the
 * text, then "erase to the end of the line"), e.g. {@code starting 1024 ranks: 812 with a gdb,
 * waiting for 212 (6 s)} or {@code 64 ranks: 48 joined, waiting for ranks 48-63 (3 s)}. A start
 * shorter than {@link #QUIET} shows nothing; after that the line is drawn at most once per {@link
 * #INTERVAL}, with the latest progress and the time since the start in seconds, and only when what
 * it says has changed. {@link #erase} takes it away, leaving the cursor at the start of an empty
 * line, so that it stays neither in the scrollback nor in front of what is printed next: whoever
 * prints on the same terminal erases it first. A progress that {@link StartProgress#ends} erases it
 * for good.
 *
 * <p>It never reads the clock on its own: {@link #refresh} is called often (by a ticker) and
 * whenever progress comes, with the time from {@code nanoTime}. Thread-safe.
 */
public final class ProgressLine {
  /** How long a start goes on before the line shows. */
  public static final Duration QUIET = Duration.ofSeconds(1);

  /** The shortest time between two drawings of the line. */
  public static final Duration INTERVAL = Duration.ofMillis(200);

  /** The longest line drawn: wider than the terminal, it would wrap and \r would not reach it. */
  static final int MAX_WIDTH = 79;

  /** The longest list of ranks waited for that the line spells out; more become a count. */
  private static final int MAX_RANKS_TEXT = 24;

  private static final String ERASE = "\r\033[K";

  private final PrintStream terminal;
  private final LongSupplier nanoTime;
  private final long startNanos;
  private StartProgress latest;
  private boolean shown;
  private boolean ended;
  private long drawnNanos;
  private String drawnText = "";
  private boolean held;

  /** A line on {@code terminal} for a start that begins now, as {@code nanoTime} tells time. */
  public ProgressLine(PrintStream terminal, LongSupplier nanoTime) {
    this.terminal = terminal;
    this.nanoTime = nanoTime;
    this.startNanos = nanoTime.getAsLong();
  }

  /** The wait has come as far as {@code progress}. */
  public synchronized void update(StartProgress progress) {
    if (ended) {
      return;
    }
    if (progress.ends()) {
      end();
      return;
    }
    latest = progress;
    refresh();
  }

  /**
   * Draws the line if it is due: after {@link #QUIET}, and {@link #INTERVAL} after the last. Before
   * any progress has come (a JVM, a launcher, a cluster starting) it says only that the session is
   * starting, and for how long.
   */
  public synchronized void refresh() {
    if (ended || held) {
      return;
    }
    long now = nanoTime.getAsLong();
    if (now - startNanos < QUIET.toNanos()) {
      return;
    }
    if (shown && now - drawnNanos < INTERVAL.toNanos()) {
      return;
    }
    Duration elapsed = Duration.ofNanos(now - startNanos);
    String text =
        latest == null
            ? "starting the session (" + elapsed.toSeconds() + " s)"
            : text(latest, elapsed);
    if (shown && text.equals(drawnText)) {
      return;
    }
    terminal.print("\r" + text + "\033[K");
    terminal.flush();
    shown = true;
    drawnNanos = now;
    drawnText = text;
  }

  /**
   * Takes the line away if it is shown, leaving the cursor at the start of the empty line; the next
   * {@link #refresh} draws it again.
   */
  public synchronized void erase() {
    if (shown) {
      terminal.print(ERASE);
      terminal.flush();
      shown = false;
    }
  }

  /**
   * Keeps the line from being drawn while the cursor is not at the start of a line: something else
   * wrote part of a line (a rank's prompt without its line feed), and {@code \r} would overwrite
   * it.
   */
  public synchronized void hold(boolean hold) {
    held = hold;
  }

  /** Erases the line for good: the start is over. */
  public synchronized void end() {
    erase();
    ended = true;
  }

  /** What the line says of {@code progress}, {@code elapsed} after the start. */
  static String text(StartProgress progress, Duration elapsed) {
    String what;
    if (progress instanceof StartProgress.Launching l) {
      what = "starting " + l.ranks() + " ranks: waiting for the launcher to start them all";
    } else if (progress instanceof StartProgress.GdbsStarting g && g.ready() == g.ranks()) {
      what = "starting " + g.ranks() + " ranks: all have a gdb, starting the tree";
    } else if (progress instanceof StartProgress.GdbsStarting g) {
      what =
          "starting "
              + g.ranks()
              + " ranks: "
              + g.ready()
              + " with a gdb, waiting for "
              + (g.ranks() - g.ready());
    } else if (progress instanceof StartProgress.Joining j && j.waiting().isEmpty()) {
      what =
          (j.expected() == j.ranks() ? "" : j.expected() + " of ")
              + j.ranks()
              + " ranks: all joined, building the tree";
    } else if (progress instanceof StartProgress.Joining j) {
      what =
          (j.expected() == j.ranks() ? "" : j.expected() + " of ")
              + j.ranks()
              + " ranks: "
              + j.joined()
              + " joined, waiting for "
              + waiting(j.waiting());
    } else if (progress instanceof StartProgress.Stopping r) {
      what =
          (r.resumed() == r.ranks() ? "" : r.resumed() + " of ")
              + r.ranks()
              + " ranks: "
              + r.stopped()
              + " stopped, waiting for "
              + (r.resumed() - r.stopped())
              + " running";
    } else if (progress instanceof StartProgress.Loading l) {
      what = "loading the program on " + l.ranks() + " ranks";
    } else {
      what = progress.ranks() + " ranks ready";
    }
    String time = " (" + elapsed.toSeconds() + " s)";
    if (what.length() + time.length() > MAX_WIDTH) {
      what = what.substring(0, MAX_WIDTH - time.length() - 3) + "...";
    }
    return what + time;
  }

  /** The ranks waited for: their list when it is short, else their count. */
  private static String waiting(RankSet ranks) {
    String list = ranks.toString();
    return list.length() <= MAX_RANKS_TEXT ? "ranks " + list : ranks.size() + " ranks";
  }
}
