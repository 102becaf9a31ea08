package io.sdmfabric.launch;

import io.sdmfabric.frontend.RankReply;
import io.sdmfabric.frontend.SessionClient;
import io.sdmfabric.master.Session;
import io.sdmfabric.model.Debugger;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.DebuggerBackend;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.ReplyCache;
import io.sdmfabric.wire.proto.CommandBody;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * A session whose master and servers run in this JVM, one debugger per rank: the embedded default
 * of {@code sdm debug}.
 */
final class EmbeddedSession implements SessionClient {
  private final List<? extends Debugger> debuggers;
  private final MasterClient master;

  /** A session over ready debuggers, rank {@code r} being {@code debuggers.get(r)}. */
  EmbeddedSession(List<? extends Debugger> debuggers, FabricConfig config) {
    this.debuggers = List.copyOf(debuggers);
    ReplyCache cache = new ReplyCache();
    int size = debuggers.size();
    this.master =
        new MasterClient(
            ActorSystem.create(
                Session.embedded(
                    size, config, rank -> new DebuggerBackend(debuggers.get(rank), cache)),
                "sdm"));
  }

  @Override
  public int size() {
    return debuggers.size();
  }

  @Override
  public CompletableFuture<List<RankReply>> call(
      CommandBody command, RankSet dest, Duration timeout) {
    return master.call(command, dest, timeout);
  }

  @Override
  public void onEvent(Consumer<RankReply> listener) {
    master.onEvent(listener);
  }

  /** Ends every debugger (and so every program) at once, then the actors. */
  @Override
  public void close() {
    List<Thread> closers = new ArrayList<>();
    for (Debugger d : debuggers) {
      Thread t = new Thread(d::close, "close-debugger");
      t.start();
      closers.add(t);
    }
    for (Thread t : closers) {
      try {
        t.join(TimeUnit.SECONDS.toMillis(15));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    master.terminate();
  }
}
