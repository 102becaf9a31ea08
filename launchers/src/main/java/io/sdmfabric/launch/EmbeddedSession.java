package io.sdmfabric.launch;

import io.sdmfabric.frontend.RankReply;
import io.sdmfabric.frontend.SessionClient;
import io.sdmfabric.master.Session;
import io.sdmfabric.master.SessionEvent;
import io.sdmfabric.model.Debugger;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.DebuggerBackend;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.ReplyCache;
import io.sdmfabric.server.ServerNode;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.proto.CommandBody;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * A session whose master and servers run in this JVM, one debugger per rank: the embedded default
 * of {@code sdm debug}.
 */
final class EmbeddedSession implements SessionClient {
  private final List<? extends Debugger> debuggers;
  private final ActorSystem<Session.Command> system;
  private final AtomicLong calls = new AtomicLong();
  private volatile Consumer<RankReply> events = e -> {};

  /** A session over ready debuggers, rank {@code r} being {@code debuggers.get(r)}. */
  EmbeddedSession(List<? extends Debugger> debuggers, FabricConfig config) {
    this.debuggers = List.copyOf(debuggers);
    ReplyCache cache = new ReplyCache();
    int size = debuggers.size();
    this.system =
        ActorSystem.create(
            Session.embedded(size, config, rank -> new DebuggerBackend(debuggers.get(rank), cache)),
            "sdm");
    ActorRef<SessionEvent> subscriber = system.systemActorOf(subscriber(), "events", Props.empty());
    system.tell(new Session.Subscribe(subscriber));
  }

  private Behavior<SessionEvent> subscriber() {
    return Behaviors.receive(SessionEvent.class)
        .onMessage(
            SessionEvent.Unsolicited.class,
            u -> {
              events.accept(new RankReply(u.ranks(), u.body()));
              return Behaviors.same();
            })
        .onMessage(
            SessionEvent.RanksLost.class,
            l -> {
              events.accept(new RankReply(l.ranks(), Protos.error(ServerNode.RANK_LOST)));
              return Behaviors.same();
            })
        .onAnyMessage(m -> Behaviors.same())
        .build();
  }

  private static Behavior<SessionEvent> collector(CompletableFuture<List<RankReply>> result) {
    List<RankReply> replies = new ArrayList<>();
    return Behaviors.receive(SessionEvent.class)
        .onMessage(
            SessionEvent.Reply.class,
            r -> {
              replies.add(new RankReply(r.ranks(), r.body()));
              return Behaviors.same();
            })
        .onMessage(
            SessionEvent.Completed.class,
            c -> {
              result.complete(List.copyOf(replies));
              return Behaviors.stopped();
            })
        .onMessage(
            SessionEvent.Rejected.class,
            r -> {
              result.completeExceptionally(new IllegalArgumentException(r.reason()));
              return Behaviors.stopped();
            })
        .onAnyMessage(m -> Behaviors.same())
        .build();
  }

  @Override
  public int size() {
    return debuggers.size();
  }

  @Override
  public CompletableFuture<List<RankReply>> call(
      CommandBody command, RankSet dest, Duration timeout) {
    CompletableFuture<List<RankReply>> result = new CompletableFuture<>();
    ActorRef<SessionEvent> collector =
        system.systemActorOf(collector(result), "call-" + calls.incrementAndGet(), Props.empty());
    system.tell(new Session.Submit(command, dest, timeout, collector));
    return result;
  }

  @Override
  public void onEvent(Consumer<RankReply> listener) {
    this.events = listener;
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
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(15, TimeUnit.SECONDS);
    } catch (Exception e) {
      // The debuggers are gone; a slow actor system shutdown loses nothing.
    }
  }
}
