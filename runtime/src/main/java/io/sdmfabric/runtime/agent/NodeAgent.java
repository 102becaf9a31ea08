package io.sdmfabric.runtime.agent;

import io.sdmfabric.master.RegistrationProof;
import io.sdmfabric.master.Rendezvous;
import io.sdmfabric.master.Session;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.RankBackend;
import io.sdmfabric.server.RankBackends;
import io.sdmfabric.server.ServerNode;
import io.sdmfabric.wire.SessionSecret;
import java.time.Duration;
import java.util.function.Consumer;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.cluster.typed.SelfUp;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * The guardian of an agent JVM (or, for the master's own host, an actor of the master's JVM): it
 * holds the agent's one server node, joins the master's cluster and, once a member, asks the
 * rendezvous for a challenge and for its ranks; each rank that becomes ready joins the node's
 * backends and is registered with the rendezvous as soon as the challenge is there, with a proof of
 * the session secret against it ({@link Rendezvous#proof}). It knocks again every few seconds (the
 * master's own agent every 50 ms) until the challenge comes.
 */
final class NodeAgent extends AbstractBehavior<NodeAgent.Message> {
  /** What the agent hears. */
  sealed interface Message extends NoSerializationVerificationNeeded
      permits Joined, RankReady, Challenged, Knock {}

  /** This JVM is a member of the master's cluster. */
  enum Joined implements Message {
    INSTANCE
  }

  /** A rank of this node is ready to be served by {@code backend}. */
  record RankReady(int rank, RankBackend backend) implements Message {}

  /** The rendezvous's challenge came. */
  private record Challenged(Rendezvous.Challenge challenge) implements Message {}

  /** Time to knock (again). */
  private enum Knock implements Message {
    INSTANCE
  }

  private static final Duration KNOCK_AGAIN = Duration.ofSeconds(3);

  /**
   * How soon the master's own agent knocks again: its rendezvous is in its JVM, and may not be
   * there yet in the moment the master's actor system has started.
   */
  private static final Duration KNOCK_AGAIN_IN_MASTER = Duration.ofMillis(50);

  private final SessionSecret secret;
  private final Consumer<ActorRef<Message>> ranks;
  private final TimerScheduler<Message> timers;
  private final String rendezvousPath;
  private final Duration knockAgain;
  private ActorRef<Rendezvous.Command> rendezvous; // resolved again at each knock
  private final ActorRef<Rendezvous.Challenge> challenges;
  private final ActorRefResolver resolver;
  private final String name;
  private final RankBackends backends = RankBackends.growing();
  private final ActorRef<ServerNode.Command> node;
  private final RankSet.Builder unregistered = RankSet.builder();
  private byte[] nonce;
  private long counter;
  private boolean refusedChallenge;

  private NodeAgent(
      ActorContext<Message> context,
      TimerScheduler<Message> timers,
      Address master,
      SessionSecret secret,
      FabricConfig config,
      Consumer<ActorRef<Message>> ranks,
      boolean inMaster) {
    super(context);
    this.timers = timers;
    this.secret = secret;
    this.ranks = ranks;
    this.resolver = ActorRefResolver.get(context.getSystem());
    this.rendezvousPath = master + "/user/" + Session.RENDEZVOUS;
    this.rendezvous = resolver.resolveActorRef(rendezvousPath);
    this.knockAgain = inMaster ? KNOCK_AGAIN_IN_MASTER : KNOCK_AGAIN;
    this.challenges = context.messageAdapter(Rendezvous.Challenge.class, Challenged::new);
    this.node = context.spawn(ServerNode.detached(config, backends), "node", ServerNode.DISPATCHER);
    if (inMaster) {
      // In the master's own JVM, beside the rendezvous: nothing to join, nothing to wait for. Its
      // name only has to differ from every agent's; the master's actor system may be a local one,
      // with no cluster.
      this.name = context.getSystem().address() + "/master-host";
      context.getSelf().tell(Joined.INSTANCE);
    } else {
      Cluster cluster = Cluster.get(context.getSystem());
      this.name = cluster.selfMember().address().toString();
      cluster.manager().tell(Join.create(master));
      cluster
          .subscriptions()
          .tell(
              Subscribe.create(
                  context.messageAdapter(SelfUp.class, up -> Joined.INSTANCE), SelfUp.class));
    }
  }

  /**
   * An agent for the master at {@code master}; once joined, {@code ranks} is given the agent's
   * address to tell its {@link RankReady} messages to.
   */
  static Behavior<Message> create(
      Address master,
      SessionSecret secret,
      FabricConfig config,
      Consumer<ActorRef<Message>> ranks) {
    return create(master, secret, config, ranks, false);
  }

  /**
   * An agent in the master's own actor system, for the ranks of the master's host: it is a member
   * of the cluster already, and registers its ranks as any agent does, proving the secret.
   */
  static Behavior<Message> inMaster(
      Address master,
      SessionSecret secret,
      FabricConfig config,
      Consumer<ActorRef<Message>> ranks) {
    return create(master, secret, config, ranks, true);
  }

  private static Behavior<Message> create(
      Address master,
      SessionSecret secret,
      FabricConfig config,
      Consumer<ActorRef<Message>> ranks,
      boolean inMaster) {
    return Behaviors.withTimers(
        timers ->
            Behaviors.setup(
                context ->
                    new NodeAgent(context, timers, master, secret, config, ranks, inMaster)));
  }

  @Override
  public Receive<Message> createReceive() {
    return newReceiveBuilder()
        .onMessage(Joined.class, this::onJoined)
        .onMessage(Knock.class, this::onKnock)
        .onMessage(Challenged.class, this::onChallenged)
        .onMessage(RankReady.class, this::onRankReady)
        .build();
  }

  private Behavior<Message> onJoined(Joined joined) {
    timers.startTimerWithFixedDelay(Knock.INSTANCE, Duration.ZERO, knockAgain);
    ranks.accept(getContext().getSelf());
    return this;
  }

  private Behavior<Message> onKnock(Knock knock) {
    // A local path resolved before its actor exists names no one for good: resolve it each time.
    rendezvous = resolver.resolveActorRef(rendezvousPath);
    rendezvous.tell(new Rendezvous.Knock(name, challenges));
    return this;
  }

  private Behavior<Message> onChallenged(Challenged c) {
    if (!c.challenge().agent().equals(name)) {
      // Another agent's challenge, copied to this one: its nonce would make every registration of
      // this agent fail.
      if (!refusedChallenge) {
        refusedChallenge = true;
        getContext()
            .getLog()
            .warn(
                "refused a challenge meant for agent {}: this is {}",
                TerminalText.escape(c.challenge().agent()),
                TerminalText.escape(name));
      }
      return this;
    }
    if (nonce == null) {
      timers.cancel(Knock.INSTANCE);
      nonce = c.challenge().nonce();
      if (!unregistered.isEmpty()) {
        register(unregistered.build());
      }
    }
    return this;
  }

  private Behavior<Message> onRankReady(RankReady ready) {
    backends.add(ready.rank(), ready.backend());
    if (nonce == null) {
      unregistered.add(ready.rank());
    } else {
      register(RankSet.of(ready.rank()));
    }
    return this;
  }

  private void register(RankSet ranks) {
    counter++;
    byte[] proof =
        RegistrationProof.of(
            secret, nonce, name, counter, resolver.toSerializationFormat(node), ranks);
    rendezvous.tell(new Rendezvous.Register(name, node, ranks, counter, proof));
  }
}
