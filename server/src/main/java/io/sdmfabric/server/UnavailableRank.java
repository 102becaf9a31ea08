package io.sdmfabric.server;

import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * A rank of a node that has no debugger, e.g. because gdb could not attach to it: it answers every
 * command with the same error saying why, so that the user sees the reason. (Ranks without a node
 * are served by {@link UnavailableRanks}.)
 */
public final class UnavailableRank implements RankBackend {
  private final ReplyBody answer;

  /** A rank answering every command with the error {@code why}. */
  public UnavailableRank(String why) {
    this.answer = ReplyBody.of(EventBodies.error(Objects.requireNonNull(why, "why")));
  }

  @Override
  public CompletionStage<ReplyBody> execute(CommandBody command) {
    return CompletableFuture.completedFuture(answer);
  }

  @Override
  public void subscribe(Consumer<EventBody> events) {}

  @Override
  public void close() {}
}
