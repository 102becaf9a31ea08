package io.sdmfabric.runtime;

import io.sdmfabric.master.HeldStops;
import io.sdmfabric.master.Rendezvous;
import io.sdmfabric.master.Session;
import io.sdmfabric.master.SessionEvent;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StartProgress;
import io.sdmfabric.wire.EventSubscribers;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Subscription;
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
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * A front-end's hold on a master running in this JVM (an actor system whose guardian is the {@link
 * Session}): commands in and their merged replies out, unsolicited events to its subscribers, and
 * when the tree is ready. Both the embedded and the launched session are made of one.
 */
final class MasterClient {
  private final ActorSystem<Session.Command> system;
  private final AtomicLong calls = new AtomicLong();
  private final CompletableFuture<RankSet> treeReady = new CompletableFuture<>();
  private final EventSubscribers events = new EventSubscribers();
  private final ActorRef<SessionEvent> subscriber;
  private volatile CompletableFuture<Void> fence = CompletableFuture.completedFuture(null);

  MasterClient(ActorSystem<Session.Command> system) {
    this.system = system;
    this.subscriber = system.systemActorOf(subscriber(), "events", Props.empty());
    system.tell(new Session.Subscribe(subscriber));
  }

  ActorSystem<Session.Command> system() {
    return system;
  }

  private Behavior<SessionEvent> subscriber() {
    return Behaviors.receive(SessionEvent.class)
        .onMessage(
            SessionEvent.Unsolicited.class,
            u -> {
              deliver(new RankReply(u.ranks(), u.body()));
              return Behaviors.same();
            })
        .onMessage(
            SessionEvent.RanksLost.class,
            l -> {
              deliver(new RankReply(l.ranks(), l.body()));
              return Behaviors.same();
            })
        .onMessage(
            SessionEvent.TreeReady.class,
            r -> {
              treeReady.complete(r.missing());
              fence.complete(null);
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

  /** Runs a command on {@code dest}; see {@link io.sdmfabric.frontend.SessionClient#call}. */
  CompletableFuture<List<RankReply>> call(CommandBody command, RankSet dest, Duration timeout) {
    CompletableFuture<List<RankReply>> result = new CompletableFuture<>();
    ActorRef<SessionEvent> collector =
        system.systemActorOf(collector(result), "call-" + calls.incrementAndGet(), Props.empty());
    system.tell(new Session.Submit(command, dest, timeout, collector));
    return result;
  }

  /**
   * Adds a receiver of unsolicited events; see {@link io.sdmfabric.wire.SessionClient#subscribe}.
   */
  Subscription subscribe(Consumer<RankReply> listener) {
    return events.subscribe(listener);
  }

  /**
   * Tells {@code progress} how many ranks have registered with the session's rendezvous as they do,
   * until the tree is wired (on the actor system's threads: it must be thread-safe).
   */
  void reportJoining(Consumer<StartProgress> progress) {
    onEventStream(Rendezvous.Progress.class, "start-progress", p -> joining(progress, p));
  }

  private static Behavior<Rendezvous.Progress> joining(
      Consumer<StartProgress> progress, Rendezvous.Progress p) {
    progress.accept(new StartProgress.Joining(p.waiting(), p.expected(), p.size()));
    return p.waiting().isEmpty() ? Behaviors.stopped() : Behaviors.same();
  }

  /**
   * Tells {@code progress} how many of the ranks set running have stopped, of how many, as the
   * session's held stops change ({@link io.sdmfabric.master.HeldStops}), until the subscription is
   * closed.
   */
  Subscription reportStops(Consumer<StartProgress> progress, int size) {
    org.apache.pekko.actor.ActorRef classic =
        onEventStream(
            HeldStops.class,
            "stop-progress-" + calls.incrementAndGet(),
            h -> {
              progress.accept(new StartProgress.Stopping(h.stopped(), h.resumed(), size));
              return Behaviors.same();
            });
    return () -> {
      system.classicSystem().eventStream().unsubscribe(classic);
      system.classicSystem().stop(classic);
    };
  }

  /**
   * An actor named {@code name} that hands each {@code type} published on the actor system's event
   * stream to {@code handle}, subscribed to it; returns it.
   */
  private <T> org.apache.pekko.actor.ActorRef onEventStream(
      Class<T> type, String name, java.util.function.Function<T, Behavior<T>> handle) {
    ActorRef<T> listener =
        system.systemActorOf(
            Behaviors.receive(type).onMessage(type, handle::apply).build(), name, Props.empty());
    org.apache.pekko.actor.ActorRef classic = Adapter.toClassic(listener);
    system.classicSystem().eventStream().subscribe(classic, type);
    return classic;
  }

  /** Removes every receiver of unsolicited events: what the session says from now on is no news. */
  void unsubscribeAll() {
    events.clear();
  }

  /**
   * Publishes an event from outside the tree (the launcher's output) through the session, so that
   * every subscriber hears it as it hears the tree's.
   */
  void publish(RankReply event) {
    system.tell(new Session.Publish(event.ranks(), event.body()));
  }

  /**
   * Completes once every event the session sent before now (what was published, too) has reached
   * the listener. Works once the tree is ready: the session then answers a subscription with {@code
   * TreeReady}, which travels behind those events.
   */
  CompletableFuture<Void> delivered() {
    CompletableFuture<Void> f = new CompletableFuture<>();
    fence = f;
    system.tell(new Session.Subscribe(subscriber));
    system.tell(new Session.Unsubscribe(subscriber));
    return f;
  }

  private void deliver(RankReply event) {
    events.publish(event);
  }

  /** Completes with the ranks that never registered once a distributed tree is wired. */
  CompletableFuture<RankSet> treeReady() {
    return treeReady;
  }

  /** Ends the actor system, waiting a while for it. */
  void terminate() {
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(15, TimeUnit.SECONDS);
    } catch (Exception e) {
      // What the session ran is gone; a slow actor system shutdown loses nothing.
    }
  }
}
