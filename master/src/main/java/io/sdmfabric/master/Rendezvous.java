package io.sdmfabric.master;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.BinomialTree;
import io.sdmfabric.server.ChildLink;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.ServerNode;
import io.sdmfabric.server.UnavailableRank;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.SessionSecret;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
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
 * ({@link Knock}) and gets a fresh challenge, then registers its ranks' server actors, each
 * registration proving the session secret against that challenge ({@link #proof}); when every
 * expected rank has registered (by default every rank of the job; a session attached to some ranks
 * of a running job expects those), or at the wire-up timeout with the ranks present, it gives each
 * server its routing slice ({@link ServerNode.Attach}: its parent and its children) and tells the
 * session the tree is ready. An expected rank that never registered is served by a stand-in in the
 * master that answers every command with an error naming it, so that its subtree still routes; a
 * rank the session does not expect has a stand-in from the start that answers {@value
 * #NOT_ATTACHED}.
 *
 * <p>It watches every registered server. When servers stop (an agent JVM killed: all of its servers
 * at once), each gets a stand-in in the master answering {@link Protos#rankLost()}, in the same
 * place of the tree, and the nodes next to them (their parents and children) get new routing
 * ({@link ServerNode.Rewire}); the ranks below a dead server keep working. The session hears {@link
 * ServerNode.RanksLost} once, naming exactly the dead servers' ranks. The servers themselves do not
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
   */
  public record Challenge(byte[] nonce) {
    public Challenge {
      nonce = nonce.clone();
    }

    @Override
    public byte[] nonce() {
      return nonce.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Challenge c && java.util.Arrays.equals(nonce, c.nonce);
    }

    @Override
    public int hashCode() {
      return java.util.Arrays.hashCode(nonce);
    }
  }

  /**
   * An agent's ranks and the server actor of each.
   *
   * @param agent the agent's name (its cluster address)
   * @param counter 1 for the agent's first registration under its challenge, then 2, ...
   * @param proof {@link #proof} of this registration under the agent's challenge: only agents that
   *     know the session's secret are wired in, and no registration can be used twice
   */
  public record Register(
      String agent, Map<Integer, ActorRef<ServerNode.Command>> nodes, long counter, byte[] proof)
      implements Command {
    public Register {
      Objects.requireNonNull(agent, "agent");
      nodes = Map.copyOf(nodes);
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
          && nodes.equals(r.nodes)
          && counter == r.counter
          && java.util.Arrays.equals(proof, r.proof);
    }

    @Override
    public int hashCode() {
      return Objects.hash(agent, nodes, counter, java.util.Arrays.hashCode(proof));
    }
  }

  /** What the rendezvous gave an agent to prove with, and how far its registrations counted. */
  private static final class Issued {
    final byte[] nonce;
    long counter;

    Issued(byte[] nonce) {
      this.nonce = nonce;
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
   * What the ranks a session does not expect answer: the same text for every rank, so that their
   * errors merge into one line. The same as {@link Protos#NOT_ATTACHED}, which front-ends see.
   */
  public static final String NOT_ATTACHED = Protos.NOT_ATTACHED;

  /** The length of a challenge. */
  public static final int NONCE_BYTES = 32;

  /** How many agents may hold a challenge at once; more knocks are refused. */
  private static final int MAX_CHALLENGES = 1 << 16;

  private static final SecureRandom RANDOM = new SecureRandom();

  private final int size;
  private final RankSet expected;
  private final FabricConfig config;
  private final ActorRef<ServerNode.Command> root;
  private final ActorRef<ServerNode.Up> rootParent;
  private final Consumer<Ready> ready;
  private final SessionSecret secret;
  private final ActorRef<ServerNode.Command>[] nodes;
  private final Map<String, Issued> challenges = new java.util.HashMap<>();
  private final ActorRefResolver resolver;
  private final Set<ActorRef<ServerNode.Command>> stopped = new HashSet<>();
  private RankSet lost = RankSet.empty();
  private int registered;
  private boolean wired;

  @SuppressWarnings("unchecked")
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
    this.secret = secret;
    this.size = size;
    this.expected = expected;
    this.config = config;
    this.root = root;
    this.rootParent = rootParent;
    this.ready = ready;
    this.nodes = new ActorRef[size + 1];
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
    if (challenges.size() >= MAX_CHALLENGES && !challenges.containsKey(k.agent())) {
      getContext()
          .getLog()
          .warn("agent {} refused: {} agents knocked already", k.agent(), MAX_CHALLENGES);
      return this;
    }
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    challenges.put(k.agent(), new Issued(nonce));
    k.replyTo().tell(new Challenge(nonce));
    return this;
  }

  private Behavior<Command> onRegister(Register r) {
    Issued issued = challenges.get(r.agent());
    Map<Integer, String> refs = new java.util.TreeMap<>();
    r.nodes().forEach((rank, ref) -> refs.put(rank, resolver.toSerializationFormat(ref)));
    if (issued == null
        || r.counter() <= issued.counter
        || !java.security.MessageDigest.isEqual(
            proof(secret, issued.nonce, r.agent(), r.counter(), refs), r.proof())) {
      getContext()
          .getLog()
          .warn(
              "agent {} refused: its registration does not prove the session secret against its"
                  + " challenge (a stranger, or a replay)",
              r.agent());
      return this;
    }
    issued.counter = r.counter();
    if (wired) {
      getContext()
          .getLog()
          .warn("agent {} registered after the tree was wired; ignored", r.agent());
      return this;
    }
    for (Map.Entry<Integer, ActorRef<ServerNode.Command>> e : r.nodes().entrySet()) {
      int rank = e.getKey();
      if (rank < 0 || rank >= size) {
        getContext()
            .getLog()
            .warn("agent {} registered rank {} outside 0-{}", r.agent(), rank, size - 1);
      } else if (!expected.contains(rank)) {
        getContext()
            .getLog()
            .warn(
                "agent {} registered rank {}, which the session does not expect", r.agent(), rank);
      } else if (nodes[rank + 1] == null) {
        nodes[rank + 1] = e.getValue();
        registered++;
        getContext().watchWith(e.getValue(), new NodeStopped(e.getValue()));
      }
    }
    if (registered == expected.size()) {
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

  private void wire() {
    wired = true;
    RankSet.Builder missing = RankSet.builder();
    for (int node = 1; node <= size; node++) {
      int rank = node - 1;
      if (nodes[node] == null && !expected.contains(rank)) {
        nodes[node] = standIn(node, "absent-", new UnavailableRank(NOT_ATTACHED));
      } else if (nodes[node] == null) {
        missing.add(rank);
        nodes[node] =
            standIn(
                node,
                "missing-",
                new UnavailableRank(
                    "rank "
                        + rank
                        + " did not register with the master before the wire-up timeout"));
      }
    }
    nodes[0] = root;
    for (int node = 0; node <= size; node++) {
      nodes[node].tell(new ServerNode.Attach(node, parent(node), children(node)));
    }
    RankSet absent = missing.build();
    if (!absent.isEmpty()) {
      getContext().getLog().warn("ranks {} did not register; they answer with errors", absent);
    }
    ready.accept(new Ready(absent));
  }

  private Behavior<Command> onNodeStopped(NodeStopped s) {
    if (!wired) {
      // Not in the tree yet: the rank counts as never registered.
      for (int node = 1; node <= size; node++) {
        if (s.node().equals(nodes[node])) {
          nodes[node] = null;
          registered--;
          getContext().getLog().warn("rank {} stopped before the tree was wired", node - 1);
        }
      }
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
    RankSet.Builder ranks = RankSet.builder();
    for (int node = 1; node <= size; node++) {
      if (stopped.contains(nodes[node])) {
        dead.add(node);
        ranks.add(node - 1);
      }
    }
    stopped.clear();
    RankSet newlyLost = ranks.build();
    if (newlyLost.isEmpty()) {
      return this;
    }
    lost = lost.union(newlyLost);
    getContext()
        .getLog()
        .warn("ranks {} lost: their servers stopped; the tree is rewired around them", newlyLost);
    for (int node : dead) {
      nodes[node] = standIn(node, "lost-", UnavailableRank.lost());
    }
    // The stand-ins take the dead servers' places; their neighbours learn of them.
    Set<Integer> neighbours = new TreeSet<>();
    for (int node : dead) {
      nodes[node].tell(new ServerNode.Attach(node, parent(node), children(node)));
      neighbours.add(BinomialTree.parent(node));
      neighbours.addAll(BinomialTree.children(node, size + 1));
    }
    neighbours.removeAll(dead);
    for (int node : neighbours) {
      nodes[node].tell(new ServerNode.Rewire(node, parent(node), children(node), lost));
    }
    rootParent.tell(new ServerNode.RanksLost(newlyLost));
    return this;
  }

  /**
   * The proof of a registration: HMAC-SHA256 under the session secret of {@code
   * "sdm-agent-register/1" 0x00 NONCE AGENT 0x00 COUNTER (8 bytes) (RANK (4 bytes) REF 0x00)...},
   * the ranks in ascending order, each with its server actor's serialized reference. It binds the
   * registration to the rendezvous's challenge, the agent, its place in the agent's count, and the
   * servers, so none can be reused, replayed or changed.
   */
  public static byte[] proof(
      SessionSecret secret, byte[] nonce, String agent, long counter, Map<Integer, String> refs) {
    java.io.ByteArrayOutputStream m = new java.io.ByteArrayOutputStream();
    m.writeBytes("sdm-agent-register/1".getBytes(StandardCharsets.UTF_8));
    m.write(0);
    m.writeBytes(nonce);
    m.writeBytes(agent.getBytes(StandardCharsets.UTF_8));
    m.write(0);
    m.writeBytes(java.nio.ByteBuffer.allocate(8).putLong(counter).array());
    new java.util.TreeMap<>(refs)
        .forEach(
            (rank, ref) -> {
              m.writeBytes(java.nio.ByteBuffer.allocate(4).putInt(rank).array());
              m.writeBytes(ref.getBytes(StandardCharsets.UTF_8));
              m.write(0);
            });
    return secret.mac(m.toByteArray());
  }

  /** A server in the master for a rank that has none: {@code backend} answers every command. */
  private ActorRef<ServerNode.Command> standIn(int node, String prefix, UnavailableRank backend) {
    return getContext()
        .spawn(
            ServerNode.detached(config, node, backend), prefix + (node - 1), ServerNode.DISPATCHER);
  }

  private ActorRef<ServerNode.Up> parent(int node) {
    return node == 0 ? rootParent : nodes[BinomialTree.parent(node)].narrow();
  }

  private List<ChildLink> children(int node) {
    List<ChildLink> children = new ArrayList<>();
    for (int child : BinomialTree.children(node, size + 1)) {
      children.add(new ChildLink(nodes[child], child, BinomialTree.subtreeEnd(child, size + 1)));
    }
    return children;
  }
}
