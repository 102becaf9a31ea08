package io.sdmfabric.frontend.dap;

import io.sdmfabric.model.RankSet;
import java.util.Arrays;
import java.util.function.BiConsumer;

/**
 * Which frame each rank has selected, as far as the adapter knows, so that it selects a frame only
 * on the ranks that have another one: a rank that stops has its innermost frame selected (the
 * debugger does that), and asking for the locals or a value of that frame, as a client does first,
 * then costs no round trip of its own. A rank whose selection the adapter cannot know (the Debug
 * Console's {@code frame} and {@code up} change it) is selected again. Thread-safe.
 */
final class FrameSelection {
  private static final int UNKNOWN = -1;

  private final int[] levels;
  private final BiConsumer<Integer, RankSet> select;

  /**
   * The selection of {@code size} ranks, every one unknown; {@code select} selects a level on
   * ranks.
   */
  FrameSelection(int size, BiConsumer<Integer, RankSet> select) {
    this.levels = new int[size];
    Arrays.fill(levels, UNKNOWN);
    this.select = select;
  }

  /** Selects frame {@code level} on {@code ranks}, sending the command only where it is needed. */
  void select(int level, RankSet ranks) {
    RankSet.Builder others = RankSet.builder();
    synchronized (this) {
      ranks.forEach(
          rank -> {
            if (levels[rank] != level) {
              others.add(rank);
            }
          });
    }
    RankSet needed = others.build();
    if (!needed.isEmpty()) {
      select.accept(level, needed);
      synchronized (this) {
        needed.forEach(rank -> levels[rank] = level);
      }
    }
  }

  /** {@code ranks} stopped: their innermost frame is selected. */
  synchronized void stopped(RankSet ranks) {
    ranks.forEach(rank -> levels[rank] = 0);
  }

  /** What {@code ranks} have selected is not known any more. */
  synchronized void forget(RankSet ranks) {
    ranks.forEach(rank -> levels[rank] = UNKNOWN);
  }
}
