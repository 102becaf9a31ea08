package io.sdmfabric.server;

import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * A rank that has no debugger, e.g. because gdb could not attach to it: it answers every command
 * with the same error saying why, so that the user sees the reason and its subtree still routes.
 */
public final class UnavailableRank implements RankBackend {
  private final ReplyBody error;

  /** A rank answering every command with {@code why}. */
  public UnavailableRank(String why) {
    this.error = ReplyBody.of(Protos.error(why));
  }

  @Override
  public CompletionStage<ReplyBody> execute(CommandBody command) {
    return CompletableFuture.completedFuture(error);
  }

  @Override
  public void subscribe(Consumer<EventBody> events) {}

  @Override
  public void close() {}
}
