package io.sdmfabric.runtime;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.eventstream.EventStream;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Down;
import org.apache.pekko.cluster.typed.Leave;
import org.apache.pekko.remote.artery.ThisActorSystemQuarantinedEvent;

/**
 * Downs members of a session's cluster by {@link DowningRule}, on every member: it looks at the
 * cluster's state a few times a second, keeps since when each member has been unreachable, and
 * downs what the rule says. The master is the oldest member (it forms the cluster; the agents join
 * it), remembered from the first time this member is up, so that an agent never takes another agent
 * for the master once the master has left. An agent whose master has left the cluster (the session
 * ended) leaves it too: most agents are ended by the session that started them, but PMIx debugger
 * daemons are the launcher's children, not sdm's.
 *
 * <p>An agent the master has quarantined leaves at once. The master quarantines a member it downed
 * and removed, and tells it so when that member's messages reach it again (a node whose link came
 * back after the master had given it up): such an agent can never rejoin, and would otherwise wait
 * out {@code masterLostAfter} with the master unreachable. Pekko's split-brain resolver did the
 * same; a downing provider of one's own has to.
 */
final class SessionDowning extends AbstractBehavior<SessionDowning.Message> {
  /** What the downing actor acts on. */
  sealed interface Message {}

  /** Time to look at the cluster again. */
  enum Tick implements Message {
    INSTANCE
  }

  /** The member at {@code remote} quarantined this one: it will take no more of its messages. */
  record QuarantinedBy(Address remote) implements Message {}

  private static final Duration LOOK_EVERY = Duration.ofMillis(250);

  private final DowningRule rule;
  private final Cluster cluster;
  private final Map<Address, Long> unreachableSince = new HashMap<>();
  private Address master;

  private SessionDowning(ActorContext<Message> context, DowningRule rule) {
    super(context);
    this.rule = rule;
    this.cluster = Cluster.get(context.getSystem());
    context
        .getSystem()
        .eventStream()
        .tell(
            new EventStream.Subscribe<>(
                ThisActorSystemQuarantinedEvent.class,
                context.messageAdapter(
                    ThisActorSystemQuarantinedEvent.class,
                    e -> new QuarantinedBy(e.remoteAddress().address()))));
  }

  /** Downing by {@code rule} for this actor's cluster. */
  static Behavior<Message> create(DowningRule rule) {
    return Behaviors.withTimers(
        timers -> {
          timers.startTimerWithFixedDelay(Tick.INSTANCE, LOOK_EVERY);
          return Behaviors.setup(context -> new SessionDowning(context, rule));
        });
  }

  @Override
  public Receive<Message> createReceive() {
    return newReceiveBuilder()
        .onMessage(Tick.class, t -> onTick())
        .onMessage(QuarantinedBy.class, this::onQuarantined)
        .build();
  }

  private Behavior<Message> onQuarantined(QuarantinedBy q) {
    Member self = cluster.selfMember();
    if (master == null || self.address().equals(master) || self.status() == MemberStatus.down()) {
      return this; // the master is never taken out but by itself
    }
    if (q.remote().equals(master)) {
      getContext().getLog().info("leaving the session: the master at {} dropped this node", master);
      cluster.manager().tell(new Down(self.address()));
    }
    return this;
  }

  private Behavior<Message> onTick() {
    ClusterEvent.CurrentClusterState state = cluster.state();
    long now = System.nanoTime();
    Set<Address> unreachable =
        state.getUnreachable().stream().map(Member::address).collect(Collectors.toSet());
    unreachableSince.keySet().retainAll(unreachable);
    unreachable.forEach(a -> unreachableSince.putIfAbsent(a, now));

    Member self = cluster.selfMember();
    if (self.status() != MemberStatus.up()) {
      return this; // joining: no master known yet; leaving or down: nothing left to decide
    }
    if (master == null) {
      master =
          StreamSupport.stream(state.getMembers().spliterator(), false)
              .filter(m -> m.status() == MemberStatus.up())
              .reduce((a, b) -> a.isOlderThan(b) ? a : b)
              .map(Member::address)
              .orElse(null);
    }
    if (master == null) {
      return this;
    }
    if (!self.address().equals(master) && left(state, master)) {
      // The master ended the session and left the cluster: so does this agent, whose ranks end
      // with it (or run on, attached ones). Its launcher may not end it (PMIx debugger daemons
      // are the launcher's, not sdm's), and the master left, so it is not unreachable either.
      getContext().getLog().info("leaving the session: the master at {} left it", master);
      cluster.manager().tell(Leave.create(self.address()));
      return Behaviors.stopped();
    }
    Map<Address, Duration> unreachableFor = new HashMap<>();
    unreachableSince.forEach((a, since) -> unreachableFor.put(a, Duration.ofNanos(now - since)));
    for (Address down : rule.toDown(self.address(), master, unreachableFor)) {
      if (!downable(state, down)) {
        continue;
      }
      if (down.equals(self.address())) {
        getContext().getLog().info("leaving the session: the master at {} is unreachable", master);
      } else {
        getContext().getLog().info("downing {}: unreachable", down);
      }
      cluster.manager().tell(new Down(down));
    }
    return this;
  }

  /** Whether {@code master} is leaving the cluster, or gone from it, of its own accord. */
  private static boolean left(ClusterEvent.CurrentClusterState state, Address master) {
    return StreamSupport.stream(state.getMembers().spliterator(), false)
        .filter(m -> m.address().equals(master))
        .findFirst()
        .map(m -> m.status() == MemberStatus.leaving() || m.status() == MemberStatus.exiting())
        .orElse(true);
  }

  /** Whether {@code address} is a member not yet down. */
  private static boolean downable(ClusterEvent.CurrentClusterState state, Address address) {
    return StreamSupport.stream(state.getMembers().spliterator(), false)
        .anyMatch(m -> m.address().equals(address) && m.status() != MemberStatus.down());
  }
}
