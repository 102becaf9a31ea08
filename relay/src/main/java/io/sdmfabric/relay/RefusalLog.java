package io.sdmfabric.relay;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The relay's lines for connections it refuses at a limit, at most one per {@link #INTERVAL}, so
 * that a flood of connections, which costs its sender nothing, cannot flood the log. A line that
 * follows refusals it did not show counts them. Refusals that end a flood are counted in the next
 * line, whenever that comes. Called from the relay's acceptor thread only.
 */
final class RefusalLog {
  /** The least time between two lines. */
  static final Duration INTERVAL = Duration.ofSeconds(10);

  private final Consumer<String> log;
  private final LongSupplier nanoTime;
  private boolean shown;
  private long lastShown;
  private long unshown;

  /**
   * @param nanoTime the clock, {@code System::nanoTime} but in tests
   */
  RefusalLog(Consumer<String> log, LongSupplier nanoTime) {
    this.log = log;
    this.nanoTime = nanoTime;
  }

  /** Records that the connection from {@code who} was refused because {@code why}. */
  void refused(String who, String why) {
    long now = nanoTime.getAsLong();
    if (shown && now - lastShown < INTERVAL.toNanos()) {
      unshown++;
      return;
    }
    log.accept(
        "refused "
            + who
            + ": "
            + why
            + (unshown == 0
                ? ""
                : " (and "
                    + unshown
                    + " refused since the last such line, not shown: at most one line per "
                    + Texts.duration(INTERVAL)
                    + ")"));
    shown = true;
    lastShown = now;
    unshown = 0;
  }
}
