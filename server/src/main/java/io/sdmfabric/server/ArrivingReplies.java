package io.sdmfabric.server;

import io.sdmfabric.model.RankSet;

/**
 * Takes a command's answers from a node's backend: those given while {@code execute} runs are
 * merged into the command's first batch ({@code ready}) without a message through the mailbox,
 * later ones go to {@code later} (which sends them to the node as messages).
 */
final class ArrivingReplies implements NodeBackend.ReplySink {
  private final ReplyMerger ready;
  private final NodeBackend.ReplySink later;
  private int inlineCount; // guarded by this
  private boolean inline = true; // guarded by this

  ArrivingReplies(ReplyMerger ready, NodeBackend.ReplySink later) {
    this.ready = ready;
    this.later = later;
  }

  @Override
  public synchronized void reply(RankSet ranks, ReplyBody body) {
    if (inline) {
      ready.add(ranks, body.bytes());
      inlineCount += ranks.size();
    } else {
      later.reply(ranks, body);
    }
  }

  @Override
  public synchronized void reply(int rank, ReplyBody body) {
    if (inline) {
      ready.add(rank, body.bytes());
      inlineCount++;
    } else {
      later.reply(rank, body);
    }
  }

  /** The ranks answered so far (and any the merger held before: none of the node's own). */
  synchronized RankSet answered() {
    return ready.ranks();
  }

  /** From now on answers go to {@code later}; returns how many ranks answered inline. */
  synchronized int stopInline() {
    inline = false;
    return inlineCount;
  }
}
