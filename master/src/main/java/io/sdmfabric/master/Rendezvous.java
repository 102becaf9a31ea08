package io.sdmfabric.master;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.ServerNode;
import io.sdmfabric.server.UnavailableRanks;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.SessionSecret;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * Wires a tree whose servers live in agent JVMs, and repairs it when servers die. An agent knocks
 * ({@link Knock}) and gets a fresh challenge, then registers its server node and its ranks as they
 * become ready, each registration proving the session secret against that challenge ({@link
 * RegistrationProof}). When every expected rank has registered (by default every rank of the job; a
 * session attached to some ranks of a running job expects those), or at the wire-up timeout with
 * the ranks present, it lays the tree over the agents' nodes (one node per agent, in the order of
 * their first ranks), gives each its place, its ranks and its routing slice ({@link
 * ServerNode.Attach}: its parent and its children) and tells the session the tree is ready.
 * Expected ranks that never registered are served by one stand-in node in the master that answers
 * every command with an error saying so, and the ranks the session does not expect by another that
 * answers {@value #NOT_ATTACHED}, so that every rank routes.
 *
 * <p>It watches every registered node. When nodes stop (an agent JVM killed), each gets a stand-in
 * in the master answering {@link Protos#rankLost()} for its ranks, in the same place of the tree,
 * and the nodes next to them (their parents and children) get new routing ({@link
 * ServerNode.Rewire}); the ranks below a dead node keep working. The session hears {@link
 * ServerNode.RanksLost} once, naming exactly the dead nodes' ranks. The nodes themselves do not
 * watch each other: the rendezvous alone decides what is lost, so no rank is reported twice or
 * wrongly.
 */
public final class Rendezvous extends AbstractBehavior<Rendezvous.Command> {

  /** Everything the rendezvous accepts. */
  public sealed interface Command permits Knock, Register, WireUpTimeout, NodeStopped, Repair {}

  /** An agent asks for a fresh {@link Challenge}, to be sent to {@code replyTo}. */
  public record Knock(String agent, ActorRef<Challenge> replyTo) implements Command {
    public Knock {
      Objects.requireNonNull(agent, "agent");
      Objects.requireNonNull(replyTo, "replyTo");
    }
  }

  /**
   * The rendezvous's challenge to one agent: random bytes, new for each {@link Knock}, that the
   * agent's registrations must prove the secret with.
   *
   * @param agent the agent it is for, as it knocked; an agent refuses another's challenge (a copy,
   *     which would leave its registrations unprovable)
   */
  public record Challenge(String agent, byte[] nonce) {
    public Challenge {
      Objects.requireNonNull(agent, "agent");
      nonce = nonce.clone();
    }

    @Override
    public byte[] nonce() {
      return nonce.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Challenge c
          && agent.equals(c.agent)
          && java.util.Arrays.equals(nonce, c.nonce);
    }

    @Override
    public int hashCode() {
      return Objects.hash(agent, java.util.Arrays.hashCode(nonce));
    }
  }

  /**
   * Some of an agent's ranks, ready to be served by the agent's server node.
   *
   * @param agent the agent's name (its cluster address)
   * @param node the agent's server node, the same in each of its registrations
   * @param ranks ranks the node serves from now on
   * @param counter 1 for the agent's first registration under its challenge, then 2, ...
   * @param proof {@link RegistrationProof#of} of this registration under the agent's challenge:
   *     only agents that know the session's secret are wired in, and no registration can be used
   *     twice
   */
  public record Register(
      String agent, ActorRef<ServerNode.Command> node, RankSet ranks, long counter, byte[] proof)
      implements Command {
    public Register {
      Objects.requireNonNull(agent, "agent");
      Objects.requireNonNull(node, "node");
      Objects.requireNonNull(ranks, "ranks");
      proof = proof.clone();
    }

    @Override
    public byte[] proof() {
      return proof.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Register r
          && agent.equals(r.agent)
          && node.equals(r.node)
          && ranks.equals(r.ranks)
          && counter == r.counter
          && java.util.Arrays.equals(proof, r.proof);
    }

    @Override
    public int hashCode() {
      return Objects.hash(agent, node, ranks, counter, java.util.Arrays.hashCode(proof));
    }
  }

  private enum WireUpTimeout implements Command, NoSerializationVerificationNeeded {
    INSTANCE
  }

  /** A registered server stopped. */
  private record NodeStopped(ActorRef<ServerNode.Command> node)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * Repairs the tree around the servers stopped so far. Sent to itself behind their stop
   * notifications: the notifications of a dead agent JVM all come at once, so that one repair
   * handles the whole agent.
   */
  private enum Repair implements Command, NoSerializationVerificationNeeded {
    INSTANCE
  }

  /** The tree is wired; {@code missing} ranks never registered and answer with errors. */
  public record Ready(RankSet missing) implements NoSerializationVerificationNeeded {}

  /**
   * Published on the actor system's event stream as ranks register before the tree is wired: of the
   * {@code expected} ranks of a session of {@code size}, {@code waiting} have not registered yet.
   * What a front-end shows of a long start; publishing costs nothing when no one listens.
   */
  public record Progress(RankSet waiting, int expected, int size)
      implements NoSerializationVerificationNeeded {
    public Progress {
      Objects.requireNonNull(waiting, "waiting");
    }
  }

  /**
   * What the ranks a session does not expect answer: the same text for every rank, so that their
   * errors merge into one line. The same as {@link Protos#NOT_ATTACHED}, which front-ends see.
   */
  public static final String NOT_ATTACHED = EventBodies.NOT_ATTACHED;

  /** An agent's server node and the ranks it registered. */
  private static final class AgentNode {
    final ActorRef<ServerNode.Command> ref;
    final RankSet.Builder ranks = RankSet.builder();

    AgentNode(ActorRef<ServerNode.Command> ref) {
      this.ref = ref;
    }
  }

  private final int size;
  private final RankSet expected;
  private final FabricConfig config;
  private final ActorRef<ServerNode.Command> root;
  private final ActorRef<ServerNode.Up> rootParent;
  private final Consumer<Ready> ready;
  private final RegistrationProof proofs;
  private final ActorRefResolver resolver;

  /** The agents' nodes until the tree is wired, by agent. */
  private final Map<String, AgentNode> agents = new java.util.HashMap<>();

  private final RankSet.Builder registered = RankSet.builder();

  /** Once wired: the tree's nodes by index (0 is the root), and the ranks each serves. */
  private TreeLayout tree;

  private final Set<ActorRef<ServerNode.Command>> stopped = new HashSet<>();
  private RankSet lost = RankSet.empty();
  private boolean wired;

  private Rendezvous(
      ActorContext<Command> context,
      int size,
      RankSet expected,
      FabricConfig config,
      ActorRef<ServerNode.Command> root,
      ActorRef<ServerNode.Up> rootParent,
      SessionSecret secret,
      Consumer<Ready> ready) {
    super(context);
    this.proofs = new RegistrationProof(secret);
    this.size = size;
    this.expected = expected;
    this.config = config;
    this.root = root;
    this.rootParent = rootParent;
    this.ready = ready;
    this.resolver = ActorRefResolver.get(context.getSystem());
  }

  /**
   * A rendezvous for {@code size} ranks, waiting for the {@code expected} ones (a non-empty subset
   * of {@code [0, size)}), under {@code root} (a detached node 0 whose parent is {@code
   * rootParent}), giving up waiting after {@code wireUp}, accepting agents that prove they know
   * {@code secret}.
   *
   * @throws IllegalArgumentException when {@code expected} is empty or reaches past the job
   */
  public static Behavior<Command> create(
      int size,
      RankSet expected,
      FabricConfig config,
      ActorRef<ServerNode.Command> root,
      ActorRef<ServerNode.Up> rootParent,
      Duration wireUp,
      SessionSecret secret,
      Consumer<Ready> ready) {
    Objects.requireNonNull(expected, "expected");
    if (expected.isEmpty() || expected.last() >= size) {
      throw new IllegalArgumentException(
          "expected ranks " + expected + " are not a non-empty subset of 0-" + (size - 1));
    }
    return Behaviors.withTimers(
        (TimerScheduler<Command> timers) -> {
          timers.startSingleTimer(WireUpTimeout.INSTANCE, wireUp);
          return Behaviors.setup(
              context ->
                  new Rendezvous(context, size, expected, config, root, rootParent, secret, ready));
        });
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Knock.class, this::onKnock)
        .onMessage(Register.class, this::onRegister)
        .onMessage(WireUpTimeout.class, this::onTimeout)
        .onMessage(NodeStopped.class, this::onNodeStopped)
        .onMessage(Repair.class, this::onRepair)
        .build();
  }

  private Behavior<Command> onKnock(Knock k) {
    proofs
        .challenge(k.agent())
        .ifPresentOrElse(
            nonce -> k.replyTo().tell(new Challenge(k.agent(), nonce)),
            () ->
                getContext()
                    .getLog()
                    .warn(
                        "agent {} refused: {} agents knocked already",
                        k.agent(),
                        RegistrationProof.maxChallenges()));
    return this;
  }

  private Behavior<Command> onRegister(Register r) {
    if (!proofs.verify(
        r.agent(), r.counter(), resolver.toSerializationFormat(r.node()), r.ranks(), r.proof())) {
      getContext()
          .getLog()
          .warn(
              "agent {} refused: its registration does not prove the session secret against its"
                  + " challenge (a stranger, or a replay)",
              r.agent());
      return this;
    }
    if (wired) {
      getContext()
          .getLog()
          .warn(
              "agent {} registered ranks {} after the tree was wired; ignored",
              r.agent(),
              r.ranks());
      return this;
    }
    AgentNode agent = agents.get(r.agent());
    if (agent == null) {
      agent = new AgentNode(r.node());
      agents.put(r.agent(), agent);
      getContext().watchWith(r.node(), new NodeStopped(r.node()));
    } else if (!agent.ref.equals(r.node())) {
      getContext().getLog().warn("agent {} registered a second server node; ignored", r.agent());
      return this;
    }
    RankSet outside = r.ranks().minus(expected);
    if (!outside.isEmpty()) {
      getContext()
          .getLog()
          .warn(
              "agent {} registered ranks {}, which the session does not expect (it has ranks {})",
              r.agent(),
              outside,
              expected);
    }
    RankSet taken = r.ranks().intersect(expected).minus(registered.build());
    agent.ranks.addAll(taken);
    registered.addAll(taken);
    RankSet present = registered.build();
    getContext()
        .getSystem()
        .classicSystem()
        .eventStream()
        .publish(new Progress(expected.minus(present), expected.size(), size));
    if (present.size() == expected.size()) {
      wire();
    }
    return this;
  }

  private Behavior<Command> onTimeout(WireUpTimeout t) {
    if (!wired) {
      wire();
    }
    return this;
  }

  /**
   * Lays the tree: the root, the agents' nodes in the order of their first ranks, then the
   * stand-ins of the expected ranks that did not register and of the ranks the session does not
   * expect.
   */
  private void wire() {
    wired = true;
    tree = new TreeLayout(root, rootParent);
    tree.addInOrderOfFirstRank(
        agents.values().stream().map(a -> Map.entry(a.ref, a.ranks.build())).toList());
    agents.clear();
    RankSet present = registered.build();
    RankSet absent = expected.minus(present);
    RankSet unexpected = RankSet.all(size).minus(expected);
    if (!absent.isEmpty()) {
      addStandIn(
          "missing",
          absent,
          UnavailableRanks.because(
              "the rank did not register with the master before the wire-up timeout"));
    }
    if (!unexpected.isEmpty()) {
      addStandIn("absent", unexpected, UnavailableRanks.because(NOT_ATTACHED));
    }
    for (int node = 0; node < tree.size(); node++) {
      tree.node(node).tell(tree.attach(node));
    }
    if (!absent.isEmpty()) {
      getContext().getLog().warn("ranks {} did not register; they answer with errors", absent);
    }
    ready.accept(new Ready(absent));
  }

  private void addStandIn(String name, RankSet served, UnavailableRanks backend) {
    tree.add(standIn(name + "-" + tree.size(), backend), served);
  }

  private Behavior<Command> onNodeStopped(NodeStopped s) {
    if (!wired) {
      // Not in the tree yet: its ranks count as never registered.
      agents
          .entrySet()
          .removeIf(
              a -> {
                if (!a.getValue().ref.equals(s.node())) {
                  return false;
                }
                RankSet gone = a.getValue().ranks.build();
                registered.removeAll(gone);
                getContext()
                    .getLog()
                    .warn("the node of ranks {} stopped before the tree was wired", gone);
                return true;
              });
      return this;
    }
    if (stopped.isEmpty()) {
      getContext().getSelf().tell(Repair.INSTANCE);
    }
    stopped.add(s.node());
    return this;
  }

  private Behavior<Command> onRepair(Repair r) {
    List<Integer> dead = new ArrayList<>();
    Map<Integer, String> reasons = new HashMap<>();
    RankSet.Builder deadRanks = RankSet.builder();
    for (int node = 1; node < tree.size(); node++) {
      if (stopped.contains(tree.node(node))) {
        dead.add(node);
        deadRanks.addAll(tree.ranks(node));
        reasons.put(node, EventBodies.lostReason(tree.node(node).path().address().getHost()));
      }
    }
    stopped.clear();
    RankSet newlyLost = deadRanks.build();
    if (dead.isEmpty()) {
      return this;
    }
    lost = lost.union(newlyLost);
    for (int node : dead) {
      getContext()
          .getLog()
          .warn(
              "ranks {} lost: {}; the tree is rewired around them",
              tree.ranks(node),
              reasons.get(node).isEmpty() ? "their server stopped" : reasons.get(node));
      tree.replace(node, standIn("lost-" + node, UnavailableRanks.lost(reasons.get(node))));
    }
    // The stand-ins take the dead nodes' places; their neighbours learn of them.
    for (int node : dead) {
      tree.node(node).tell(tree.attach(node));
    }
    for (int node : tree.neighbours(dead)) {
      tree.node(node).tell(tree.rewire(node, lost));
    }
    for (int node : dead) {
      rootParent.tell(new ServerNode.RanksLost(rootParent, tree.ranks(node), reasons.get(node)));
    }
    return this;
  }

  /** A node in the master for ranks that have no server: {@code backend} answers for them. */
  private ActorRef<ServerNode.Command> standIn(String name, UnavailableRanks backend) {
    return getContext().spawn(ServerNode.detached(config, backend), name, ServerNode.DISPATCHER);
  }
}
