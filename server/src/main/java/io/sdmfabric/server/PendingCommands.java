package io.sdmfabric.server;

import io.sdmfabric.model.RankSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.Cancellable;

/**
 * The commands a node still gathers replies to: for each, the ranks it went to, the replies merged
 * so far ({@link ReplyMerger}) and how many ranks have yet to answer. When the last one answers,
 * the merged groups go to the {@link Outlet} at once; a timeout ({@link #flush}) sends what came
 * and forgets the command, so that later replies pass through as stragglers. Used in the node's
 * actor only.
 */
final class PendingCommands {

  /** Where a command's merged replies go: the node's parent, as one {@code Replies}. */
  interface Outlet {
    void send(long id, List<ReplyGroup> groups);
  }

  private static final class Pending {
    final RankSet dest;
    final ReplyMerger merger;
    int remaining;
    final Cancellable timer; // null: no timeout
    RankSet givenUp; // null until a rewiring gives up some ranks

    Pending(RankSet dest, ReplyMerger merger, int remaining, Cancellable timer) {
      this.dest = dest;
      this.merger = merger;
      this.remaining = remaining;
      this.timer = timer;
    }
  }

  private final Outlet outlet;

  /** Null while idle: a node keeps no map then (a million idle nodes would). */
  private Map<Long, Pending> pending;

  PendingCommands(Outlet outlet) {
    this.outlet = outlet;
  }

  /**
   * Starts gathering command {@code id}'s replies to {@code dest}, with those in {@code ready}
   * merged already and {@code remaining} still to come.
   *
   * @param timer the command's timeout, to cancel when it completes; null when it has none
   */
  void open(long id, RankSet dest, ReplyMerger ready, int remaining, Cancellable timer) {
    if (pending == null) {
      pending = new HashMap<>(4);
    }
    pending.put(id, new Pending(dest, ready, remaining, timer));
  }

  /**
   * Merges a child's groups into command {@code id}, less the ranks given up; false when the
   * command is not pending (a straggler after a partial flush: it follows on its own).
   */
  boolean mergeFromChild(long id, List<ReplyGroup> groups) {
    Pending p = pending == null ? null : pending.get(id);
    if (p == null) {
      return false;
    }
    for (ReplyGroup g : groups) {
      RankSet ranks = p.givenUp == null ? g.ranks() : g.ranks().minus(p.givenUp);
      if (!ranks.isEmpty()) {
        p.merger.add(ranks, g.body());
        p.remaining -= ranks.size();
      }
    }
    if (p.remaining <= 0) {
      complete(id, p);
    }
    return true;
  }

  /**
   * Merges the answer of some of the node's own ranks into command {@code id}; false when the
   * command is not pending.
   */
  boolean mergeOwn(long id, RankSet ranks, byte[] body) {
    Pending p = pending == null ? null : pending.get(id);
    if (p == null) {
      return false;
    }
    accept(id, p, ranks, body);
    return true;
  }

  /** Command {@code id}'s timeout: sends what came, if anything, and forgets it. */
  void flush(long id) {
    Pending p = pending == null ? null : pending.get(id);
    if (p != null) {
      forget(id);
      if (!p.merger.isEmpty()) {
        outlet.send(id, p.merger.drain());
      }
    }
  }

  /** Answers {@code body} for every rank of {@code ranks} that a pending command still awaits. */
  void answerOwed(RankSet ranks, byte[] body) {
    if (pending == null) {
      return;
    }
    for (Map.Entry<Long, Pending> e : new ArrayList<>(pending.entrySet())) {
      Pending p = e.getValue();
      RankSet owed = p.dest.intersect(ranks).minus(p.merger.ranks());
      if (!owed.isEmpty()) {
        accept(e.getKey(), p, owed, body);
      }
    }
  }

  /**
   * Gives up the ranks of {@code range} that pending commands still await (their replies went up
   * through a server that stopped): those in {@code lost} answer {@code lostBody}, the others
   * {@code replyLost}, and their later replies are dropped.
   */
  void giveUp(RankSet range, RankSet lost, byte[] lostBody, byte[] replyLost) {
    if (pending == null) {
      return;
    }
    for (Map.Entry<Long, Pending> e : new ArrayList<>(pending.entrySet())) {
      Pending p = e.getValue();
      RankSet owed = p.dest.intersect(range).minus(p.merger.ranks());
      if (owed.isEmpty()) {
        continue;
      }
      p.givenUp = p.givenUp == null ? owed : p.givenUp.union(owed);
      RankSet dead = owed.intersect(lost);
      RankSet alive = owed.minus(lost);
      if (!dead.isEmpty()) {
        p.merger.add(dead, lostBody);
      }
      if (!alive.isEmpty()) {
        p.merger.add(alive, replyLost);
      }
      p.remaining -= owed.size();
      if (p.remaining <= 0) {
        complete(e.getKey(), p);
      }
    }
  }

  /** Whether any command is pending. */
  boolean isEmpty() {
    return pending == null;
  }

  /** Cancels every pending command's timer: the node stops. */
  void cancelTimers() {
    if (pending != null) {
      pending
          .values()
          .forEach(
              p -> {
                if (p.timer != null) {
                  p.timer.cancel();
                }
              });
    }
  }

  private void accept(long id, Pending p, RankSet ranks, byte[] body) {
    p.merger.add(ranks, body);
    p.remaining -= ranks.size();
    if (p.remaining <= 0) {
      complete(id, p);
    }
  }

  private void complete(long id, Pending p) {
    forget(id);
    if (p.timer != null) {
      p.timer.cancel();
    }
    outlet.send(id, p.merger.drain());
  }

  private void forget(long id) {
    pending.remove(id);
    if (pending.isEmpty()) {
      pending = null;
    }
  }
}
