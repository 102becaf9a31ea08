package io.sdmfabric.master;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.NodeBackend;
import io.sdmfabric.server.RankBackend;
import io.sdmfabric.server.RankBackends;
import io.sdmfabric.server.RankBlocks;
import io.sdmfabric.server.ReplyGroup;
import io.sdmfabric.server.ServerNode;
import io.sdmfabric.wire.CanonicalBytes;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.SessionSecret;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntFunction;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * One debug session of N ranks: the master. It numbers the commands front-ends submit, sends them
 * into the tree through its root node, tracks which ranks each still waits for, and tells the
 * submitter every merged reply and the completion. Unsolicited events and lost ranks go to every
 * subscriber.
 */
public final class Session extends AbstractBehavior<Session.Command> {

  /** Everything a session accepts. */
  public sealed interface Command
      permits Submit, Subscribe, Unsubscribe, Publish, FromTree, TreeReady, GatherTick {}

  /**
   * Runs a command on {@code dest}; {@code replyTo} gets {@link SessionEvent.Accepted} or {@link
   * SessionEvent.Rejected}, then the replies and {@link SessionEvent.Completed}.
   *
   * @param timeout how long each tree node waits before passing on partial replies; zero waits for
   *     all
   */
  public record Submit(
      CommandBody body, RankSet dest, Duration timeout, ActorRef<SessionEvent> replyTo)
      implements Command, NoSerializationVerificationNeeded {
    public Submit {
      Objects.requireNonNull(body, "body");
      Objects.requireNonNull(dest, "dest");
      Objects.requireNonNull(timeout, "timeout");
      Objects.requireNonNull(replyTo, "replyTo");
    }
  }

  /** Sends unsolicited events and lost ranks to {@code listener} from now on. */
  public record Subscribe(ActorRef<SessionEvent> listener)
      implements Command, NoSerializationVerificationNeeded {}

  /** Stops sending to {@code listener}. */
  public record Unsubscribe(ActorRef<SessionEvent> listener)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * An event from outside the tree that every subscriber should hear like the tree's own: the
   * ranks' output as a launcher delivers it.
   */
  public record Publish(RankSet ranks, EventBody body)
      implements Command, NoSerializationVerificationNeeded {
    public Publish {
      Objects.requireNonNull(ranks, "ranks");
      Objects.requireNonNull(body, "body");
    }
  }

  private record FromTree(ServerNode.Up message)
      implements Command, NoSerializationVerificationNeeded {}

  private record TreeReady(RankSet missing) implements Command, NoSerializationVerificationNeeded {}

  /** Time to tell the stops held long enough ({@link StopGathering}). */
  private enum GatherTick implements Command, NoSerializationVerificationNeeded {
    INSTANCE
  }

  /** How often held stops are looked at. */
  private static final Duration GATHER_TICK = Duration.ofMillis(50);

  private final int size;
  private final Duration stopQuiet;
  private final List<StopGathering> gatherings = new ArrayList<>();
  private boolean tickScheduled;
  private final ActorRef<ServerNode.Command> root;

  /** Where the root sends what comes up: what comes there must name it ({@link ServerNode.Up}). */
  private final ActorRef<ServerNode.Up> fromTree;

  /** How many messages came up meant for another recipient (copies), refused. */
  private long misaddressed;

  private final CommandTracker tracker = new CommandTracker();
  private final List<ActorRef<SessionEvent>> subscribers = new ArrayList<>();

  /** The answer of each group of lost ranks, which says why they were lost. */
  private final Map<EventBody, RankSet> lostBodies = new HashMap<>();

  private long nextId = 1;
  private RankSet lost = RankSet.empty();
  private Optional<RankSet> treeReady = Optional.empty();

  /** Makes the root of the tree, given where the root sends what comes up. */
  private interface RootFactory {
    ActorRef<ServerNode.Command> spawn(ActorContext<Command> context, ActorRef<ServerNode.Up> up);
  }

  private Session(ActorContext<Command> context, int size, Duration stopQuiet, RootFactory root) {
    super(context);
    this.size = size;
    this.stopQuiet = stopQuiet;
    this.fromTree = context.messageAdapter(ServerNode.Up.class, FromTree::new);
    this.root = root.spawn(context, fromTree);
  }

  /** The name of a distributed session's rendezvous, under the session: agents register there. */
  public static final String RENDEZVOUS = "rendezvous";

  /**
   * A session whose tree of {@code size} ranks lives in this JVM, one node per rank, each rank's
   * backend made by {@code backends} (called in the rank's node).
   */
  public static Behavior<Command> embedded(
      int size, FabricConfig config, IntFunction<RankBackend> backends) {
    requireRanks(size);
    RankBlocks blocks = RankBlocks.perRank(size);
    return embedded(blocks, config, RankBackends.perNode(blocks, backends));
  }

  /**
   * A session whose tree lives in this JVM, each node serving a block of ranks of {@code blocks}
   * through the backend {@code backends} makes for it (called with the node's index, in the node).
   */
  public static Behavior<Command> embedded(
      RankBlocks blocks, FabricConfig config, IntFunction<NodeBackend> backends) {
    return Behaviors.setup(
        context ->
            new Session(
                context,
                blocks.ranks(),
                config.stopQuiet(),
                (ctx, up) ->
                    ctx.spawn(
                        ServerNode.embedded(config, blocks, backends, up),
                        "tree",
                        ServerNode.DISPATCHER)));
  }

  /**
   * A session whose {@code size} ranks are served in agent JVMs that register with its rendezvous
   * ({@value #RENDEZVOUS}, a child of the session); after {@code wireUp} the session goes on with
   * the ranks present. Only agents that know {@code secret} are wired in. Subscribers hear {@link
   * SessionEvent.TreeReady}.
   */
  public static Behavior<Command> distributed(
      int size, FabricConfig config, Duration wireUp, SessionSecret secret) {
    return distributed(size, RankSet.all(size), config, wireUp, secret);
  }

  /**
   * A distributed session of {@code size} ranks of which agents serve only the {@code expected}
   * ones (e.g. the ranks of a running job that a front-end attaches to): the tree is wired as soon
   * as those have registered, and every other rank answers {@value Rendezvous#NOT_ATTACHED}.
   *
   * @throws IllegalArgumentException when {@code expected} is empty or reaches past the job
   */
  public static Behavior<Command> distributed(
      int size, RankSet expected, FabricConfig config, Duration wireUp, SessionSecret secret) {
    requireRanks(size);
    Objects.requireNonNull(expected, "expected");
    if (expected.isEmpty() || expected.last() >= size) {
      throw new IllegalArgumentException(
          "expected ranks " + expected + " are not a non-empty subset of 0-" + (size - 1));
    }
    return Behaviors.setup(
        context ->
            new Session(
                context,
                size,
                config.stopQuiet(),
                (ctx, up) -> {
                  ActorRef<ServerNode.Command> root =
                      ctx.spawn(ServerNode.detached(config, null), "tree", ServerNode.DISPATCHER);
                  ActorRef<Command> self = ctx.getSelf();
                  ctx.spawn(
                      Rendezvous.create(
                          size,
                          expected,
                          config,
                          root,
                          up,
                          wireUp,
                          secret,
                          ready -> self.tell(new TreeReady(ready.missing()))),
                      RENDEZVOUS);
                  return root;
                }));
  }

  private static void requireRanks(int size) {
    if (size < 1) {
      throw new IllegalArgumentException("a session needs at least one rank: " + size);
    }
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Submit.class, this::onSubmit)
        .onMessage(Subscribe.class, this::onSubscribe)
        .onMessage(Unsubscribe.class, this::onUnsubscribe)
        .onMessage(Publish.class, this::onPublish)
        .onMessage(FromTree.class, this::onFromTree)
        .onMessage(TreeReady.class, this::onTreeReady)
        .onMessage(GatherTick.class, this::onGatherTick)
        .onSignal(PostStop.class, this::onPostStop)
        .build();
  }

  private Behavior<Command> onPostStop(PostStop stop) {
    if (misaddressed > 1) {
      getContext()
          .getLog()
          .warn("refused {} messages from the tree meant for another recipient", misaddressed);
    }
    return this;
  }

  private Behavior<Command> onSubmit(Submit submit) {
    RankSet dest = submit.dest();
    if (dest.isEmpty()) {
      submit.replyTo().tell(new SessionEvent.Rejected(submit.body(), "no ranks selected"));
      return this;
    }
    Optional<String> outOfRange = dest.outOfRange(size);
    if (outOfRange.isPresent()) {
      submit.replyTo().tell(new SessionEvent.Rejected(submit.body(), outOfRange.get()));
      return this;
    }
    long id = nextId++;
    ActorRef<SessionEvent> replyTo = submit.replyTo();
    submit.replyTo().tell(new SessionEvent.Accepted(id, dest, submit.body()));
    tracker.open(id, dest, replyTo::tell);
    if (Commands.resumes(submit.body()) && !stopQuiet.isZero()) {
      gatherings.forEach(g -> g.forget(dest));
      gatherings.add(new StopGathering(dest.minus(lost)));
      HeldStops.publish(getContext().getSystem(), gatherings);
      tellDueStops(System.nanoTime());
    }
    root.tell(new ServerNode.Execute(id, dest, submit.timeout().toMillis(), submit.body()));
    if (dest.intersects(lost)) {
      lostBodies.forEach(
          (body, ranks) -> {
            RankSet alreadyLost = dest.intersect(ranks);
            if (!alreadyLost.isEmpty()) {
              tracker.reply(id, alreadyLost, body);
            }
          });
    }
    return this;
  }

  private Behavior<Command> onSubscribe(Subscribe s) {
    subscribers.add(s.listener());
    treeReady.ifPresent(missing -> s.listener().tell(new SessionEvent.TreeReady(missing)));
    return this;
  }

  private Behavior<Command> onUnsubscribe(Unsubscribe u) {
    subscribers.remove(u.listener());
    return this;
  }

  private Behavior<Command> onPublish(Publish p) {
    publish(new SessionEvent.Unsolicited(p.ranks(), p.body()));
    return this;
  }

  private Behavior<Command> onFromTree(FromTree message) {
    ServerNode.Up up = message.message();
    if (!up.to().equals(fromTree)) {
      if (misaddressed++ == 0) {
        getContext()
            .getLog()
            .warn(
                "refused a message from the tree meant for {}: a copy of another node's (later"
                    + " ones are counted)",
                TerminalText.escape(up.to().path().toString()));
      }
      return this;
    }
    if (up instanceof ServerNode.Replies replies) {
      for (ReplyGroup g : replies.groups()) {
        tracker.reply(replies.id(), g.ranks(), CanonicalBytes.eventBody(g.body()));
      }
    } else if (up instanceof ServerNode.Events events) {
      // Merging by body loses each rank's order between its output and its stop or exit; put
      // output first, as each rank wrote it before it stopped.
      List<SessionEvent> later = new ArrayList<>();
      long now = System.nanoTime();
      for (ReplyGroup g : events.groups()) {
        EventBody body = CanonicalBytes.eventBody(g.body());
        RankSet ranks = g.ranks();
        if (body.hasOutput()) {
          publish(new SessionEvent.Unsolicited(ranks, body));
          continue;
        }
        if (body.hasSuspended() || body.hasExit()) {
          for (StopGathering gathering : gatherings) {
            ranks = ranks.minus(gathering.take(ranks, g.body(), now));
          }
        }
        if (!ranks.isEmpty()) {
          later.add(new SessionEvent.Unsolicited(ranks, body));
        }
      }
      later.forEach(this::publish);
      HeldStops.publish(getContext().getSystem(), gatherings);
      tellDueStops(now);
    } else if (up instanceof ServerNode.RanksLost ranksLost) {
      lost = lost.union(ranksLost.ranks());
      EventBody lostBody = EventBodies.rankLost(ranksLost.reason());
      lostBodies.merge(lostBody, ranksLost.ranks(), RankSet::union);
      tracker.lose(ranksLost.ranks(), lostBody);
      gatherings.forEach(g -> g.forget(ranksLost.ranks()));
      tellDueStops(System.nanoTime());
      publish(new SessionEvent.RanksLost(ranksLost.ranks(), lostBody));
    }
    return this;
  }

  private Behavior<Command> onGatherTick(GatherTick tick) {
    tickScheduled = false;
    tellDueStops(System.nanoTime());
    return this;
  }

  /**
   * Tells the stops held long enough, each distinct stop once with all its ranks; forgets the
   * gatherings that wait for nothing more, and looks again soon while some still hold stops.
   */
  private void tellDueStops(long now) {
    boolean holding = false;
    for (java.util.Iterator<StopGathering> i = gatherings.iterator(); i.hasNext(); ) {
      StopGathering g = i.next();
      if (g.due(now, stopQuiet)) {
        for (ReplyGroup held : g.drain()) {
          publish(
              new SessionEvent.Unsolicited(held.ranks(), CanonicalBytes.eventBody(held.body())));
        }
      }
      if (g.complete()) {
        i.remove();
      } else {
        holding |= g.holds();
      }
    }
    if (holding && !tickScheduled) {
      tickScheduled = true;
      getContext().scheduleOnce(GATHER_TICK, getContext().getSelf(), GatherTick.INSTANCE);
    }
  }

  private Behavior<Command> onTreeReady(TreeReady ready) {
    treeReady = Optional.of(ready.missing());
    publish(new SessionEvent.TreeReady(ready.missing()));
    return this;
  }

  private void publish(SessionEvent event) {
    for (ActorRef<SessionEvent> s : subscribers) {
      s.tell(event);
    }
  }
}
