package io.sdmfabric.server;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The unsolicited events a node holds before it sends them up as one batch, merged by body, and
 * when that batch is due: a window ({@link FabricConfig#eventWindow()}) counted from when the first
 * of them was reported, wherever that was. Used in the node's actor only; the node keeps the timer.
 */
final class EventWindow {
  private final ReplyMerger events;
  private final long windowNanos;
  private long originNanos; // System.nanoTime() when the held batch's first event was reported

  EventWindow(FabricConfig config) {
    this.events = new ReplyMerger(config.hasher());
    this.windowNanos = config.eventWindow().toNanos();
  }

  /**
   * Holds {@code groups}, held {@code heldMs} already below this node, and says how long until the
   * batch is due (0 or less: due now).
   *
   * @param root whether this is the root of the tree (node 0)
   * @param height the height of this node's subtree
   */
  long add(List<ReplyGroup> groups, long heldMs, boolean root, int height, long nowNanos) {
    long reported = nowNanos - TimeUnit.MILLISECONDS.toNanos(heldMs);
    if (events.isEmpty() || reported - originNanos < 0) {
      originNanos = reported;
    }
    events.addAll(groups);
    // The root holds a batch for the whole window, counted from the first report, so that ranks
    // reporting within a window of each other meet there; the nodes below hold it only a tenth
    // of the window per level of their subtree, enough for their children's batches to reach
    // them first. (A window at every node would start over for every late rank's report.)
    return originNanos + (root ? windowNanos : 0) + height * (windowNanos / 10) - nowNanos;
  }

  boolean isEmpty() {
    return events.isEmpty();
  }

  /** How long the held batch has been held since its first event was reported. */
  long heldMs(long nowNanos) {
    return TimeUnit.NANOSECONDS.toMillis(nowNanos - originNanos);
  }

  /** Takes the held batch. */
  List<ReplyGroup> drain() {
    return events.drain();
  }
}
