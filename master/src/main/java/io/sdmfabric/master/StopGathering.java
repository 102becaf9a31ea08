package io.sdmfabric.master;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.ReplyGroup;
import io.sdmfabric.server.ReplyMerger;
import java.time.Duration;
import java.util.List;

/**
 * The stops (and exits) of the ranks one run, continue or step resumed, held from the first of them
 * until every one of them has stopped or none has for a quiet period, so that ranks that stop at
 * the same place are told as one line even when they stop a few hundred milliseconds apart
 * (programs start one after another). Bounded: it never holds a stop longer than {@link #MAX_HOLD}.
 * Before the first stop it holds nothing, however long the ranks run. Not thread-safe: the session
 * owns it.
 */
final class StopGathering {
  /** The longest a stop is held, however the ranks trickle in. */
  static final Duration MAX_HOLD = Duration.ofSeconds(10);

  private RankSet waiting;
  private final int resumed;
  private final ReplyMerger held = new ReplyMerger();
  private long firstNanos;
  private long lastNanos;

  /** Waits for the stops of {@code ranks}. */
  StopGathering(RankSet ranks) {
    this.waiting = ranks;
    this.resumed = ranks.size();
  }

  /** How many ranks it waited for at first. */
  int resumed() {
    return resumed;
  }

  /** How many ranks it still waits for. */
  int waiting() {
    return waiting.size();
  }

  /**
   * Holds the stop {@code body} of those of {@code ranks} it waits for, at {@code now} ({@link
   * System#nanoTime}); returns those.
   */
  RankSet take(RankSet ranks, byte[] body, long now) {
    RankSet mine = ranks.intersect(waiting);
    if (!mine.isEmpty()) {
      if (held.isEmpty()) {
        firstNanos = now;
      }
      held.add(mine, body);
      waiting = waiting.minus(mine);
      lastNanos = now;
    }
    return mine;
  }

  /** Stops waiting for {@code ranks} (lost, or resumed again by a newer command). */
  void forget(RankSet ranks) {
    waiting = waiting.minus(ranks);
  }

  /** Whether it waits for nothing more. */
  boolean complete() {
    return waiting.isEmpty();
  }

  /**
   * Whether what it holds should be told now: all have stopped, or none has for {@code quiet}, or
   * the first has waited {@link #MAX_HOLD}.
   */
  boolean due(long now, Duration quiet) {
    return waiting.isEmpty()
        || (!held.isEmpty()
            && (now - lastNanos >= quiet.toNanos() || now - firstNanos >= MAX_HOLD.toNanos()));
  }

  /** Whether it holds stops not told yet. */
  boolean holds() {
    return !held.isEmpty();
  }

  /** What it holds, merged by body. */
  List<ReplyGroup> drain() {
    return held.drain();
  }
}
