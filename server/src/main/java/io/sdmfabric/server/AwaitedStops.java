package io.sdmfabric.server;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.CanonicalBytes;
import io.sdmfabric.wire.proto.EventBody;
import java.util.List;

/**
 * The ranks of a node's subtree that a run, continue or step set running and that have not told
 * their stop yet: what lets a node send its held events up as soon as the last of them has
 * reported, instead of at the end of the event window. A {@code next} on a group then returns when
 * every rank it addressed has stopped, and only events that nobody waits for (output, and stops
 * while other addressed ranks still run) wait out the window.
 *
 * <p>A rank stops being awaited when it stops, exits, loses its debugger or its server, or answers
 * the command that resumed it with an error (it did not resume). An exit alone sends nothing up
 * early: the exited program's last output may still be on its way. Used in the node's actor only.
 */
final class AwaitedStops {
  /** How many resuming commands a node remembers, to know their error replies. */
  private static final int REMEMBERED = 16;

  private RankSet awaited = RankSet.empty();
  private final long[] resumes = new long[REMEMBERED];
  private int resumesSeen;

  /** Command {@code id} set {@code ranks} (of this node's subtree) running. */
  void resumed(long id, RankSet ranks) {
    resumes[resumesSeen++ % REMEMBERED] = id;
    awaited = awaited.union(ranks);
  }

  /**
   * Replies to command {@code id} pass up: if it resumed ranks, those that answered with an error
   * did not resume, and are not awaited.
   */
  void replied(long id, List<ReplyGroup> groups) {
    if (awaited.isEmpty() || !resumedBy(id)) {
      return;
    }
    for (ReplyGroup g : groups) {
      if (CanonicalBytes.kindOf(g.body()) == EventBody.KindCase.ERROR) {
        awaited = awaited.minus(g.ranks());
      }
    }
  }

  /**
   * Events pass up; returns true when they told the stop of the last awaited rank (a stop, not an
   * exit), so that what is held should go up now.
   */
  boolean reported(List<ReplyGroup> events) {
    if (awaited.isEmpty()) {
      return false;
    }
    boolean stopped = false;
    for (ReplyGroup g : events) {
      EventBody.KindCase kind = CanonicalBytes.kindOf(g.body());
      if (endsRunning(kind) && g.ranks().intersects(awaited)) {
        awaited = awaited.minus(g.ranks());
        // An exit sends nothing up by itself: a program's last output can trail its exit (its
        // terminal is read on), and the window lets it catch up, as before. A stopped program
        // writes nothing more.
        stopped |= kind != EventBody.KindCase.EXIT;
      }
    }
    return stopped && awaited.isEmpty();
  }

  /**
   * {@code ranks} are gone: nothing will come from them. Returns true when the last awaited rank
   * was among them.
   */
  boolean lost(RankSet ranks) {
    if (!awaited.intersects(ranks)) {
      return false;
    }
    awaited = awaited.minus(ranks);
    return awaited.isEmpty();
  }

  private boolean resumedBy(long id) {
    for (int i = Math.max(0, resumesSeen - REMEMBERED); i < resumesSeen; i++) {
      if (resumes[i % REMEMBERED] == id) {
        return true;
      }
    }
    return false;
  }

  private static boolean endsRunning(EventBody.KindCase kind) {
    return switch (kind) {
      case SUSPENDED, EXIT, DEBUGGER_ENDED, LOST -> true;
      default -> false;
    };
  }
}
