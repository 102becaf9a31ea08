package io.sdmfabric.frontend.dap;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.proto.CommandBody;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A session whose events reach every receiver set on it, in the order they were set, where a {@link
 * SessionClient} has one receiver: the adapter and the console of its Debug Console both hear them.
 * Closing it closes the session.
 */
final class SharedEvents implements SessionClient {
  private final SessionClient session;
  private final List<Consumer<RankReply>> receivers = new CopyOnWriteArrayList<>();

  SharedEvents(SessionClient session) {
    this.session = session;
    session.onEvent(e -> receivers.forEach(r -> r.accept(e)));
  }

  @Override
  public int size() {
    return session.size();
  }

  @Override
  public Started started() {
    return session.started();
  }

  @Override
  public CompletableFuture<List<RankReply>> call(
      CommandBody command, RankSet dest, Duration timeout) {
    return session.call(command, dest, timeout);
  }

  /** Adds {@code events} to the receivers. */
  @Override
  public void onEvent(Consumer<RankReply> events) {
    receivers.add(events);
  }

  @Override
  public void close() {
    session.close();
  }
}
