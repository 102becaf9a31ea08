package io.sdmfabric.server;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.proto.CommandBody;
import java.util.Objects;

/**
 * Ranks that have no debugger in the tree: ranks a session does not attach to, ranks that never
 * registered, ranks whose server is gone. They answer every command with one reply that says why,
 * so that the user sees the reason and their place in the tree still routes.
 */
public final class UnavailableRanks implements NodeBackend {
  private final ReplyBody answer;

  private UnavailableRanks(ReplyBody answer) {
    this.answer = answer;
  }

  /** Ranks answering every command with the error {@code why}. */
  public static UnavailableRanks because(String why) {
    return new UnavailableRanks(
        ReplyBody.of(EventBodies.error(Objects.requireNonNull(why, "why"))));
  }

  /** The stand-in of ranks whose server is gone: they answer {@link EventBodies#rankLost()}. */
  public static UnavailableRanks lost() {
    return lost("");
  }

  /** The stand-in of ranks whose server is gone, saying why ({@link EventBodies#lostReason}). */
  public static UnavailableRanks lost(String reason) {
    return new UnavailableRanks(ReplyBody.of(EventBodies.rankLost(reason)));
  }

  @Override
  public void execute(RankSet ranks, CommandBody command, ReplySink replies) {
    replies.reply(ranks, answer);
  }

  @Override
  public void subscribe(EventSink events) {}

  @Override
  public void close() {}
}
