package io.sdmfabric.server;

import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * A test backend whose replies a test scripts: a function of (rank, command); a rank can be held
 * back until released, and any rank can report events on demand.
 */
final class ScriptedBackend implements RankBackend {
  /** Ranks that ran a command, over all backends of a test. */
  final Set<Integer> executed;

  private final int rank;
  private final BiFunction<Integer, CommandBody, EventBody> replies;
  private final CompletableFuture<Void> release;
  private volatile Consumer<EventBody> events = e -> {};

  ScriptedBackend(
      int rank,
      BiFunction<Integer, CommandBody, EventBody> replies,
      CompletableFuture<Void> release,
      Set<Integer> executed) {
    this.rank = rank;
    this.replies = replies;
    this.release = release;
    this.executed = executed;
  }

  static Set<Integer> newLog() {
    return ConcurrentHashMap.newKeySet();
  }

  /** Every rank replies {@code ok}. */
  static EventBody ok(int rank, CommandBody command) {
    return EventBodies.ok();
  }

  /** Every rank replies its own text. */
  static EventBody byRank(int rank, CommandBody command) {
    return EventBodies.text("rank " + rank);
  }

  @Override
  public CompletionStage<ReplyBody> execute(CommandBody command) {
    executed.add(rank);
    ReplyBody reply = ReplyBody.of(replies.apply(rank, command));
    return release.thenApply(v -> reply);
  }

  @Override
  public void subscribe(Consumer<EventBody> listener) {
    this.events = listener;
  }

  /** Reports an event as if the program did. */
  void report(EventBody event) {
    events.accept(event);
  }

  @Override
  public void close() {}
}
