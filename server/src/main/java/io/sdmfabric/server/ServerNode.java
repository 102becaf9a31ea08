package io.sdmfabric.server;

import io.sdmfabric.model.Failures;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.CanonicalBytes;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.proto.CommandBody;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.ExtensibleBehavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.Signal;
import org.apache.pekko.actor.typed.TypedActorContext;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * One node of the binomial tree (see {@link BinomialTree}): it serves a set of ranks through its
 * {@link NodeBackend} (one per agent JVM, or one per block of ranks in a tree of one JVM); node 0,
 * the root under the master, serves none. The tree spans nodes, not ranks, and a node's ranks are
 * merged before their first hop.
 *
 * <p>A command ({@link Execute}) goes on to each child whose subtree intersects its destination,
 * runs here on the node's own ranks in it, and opens one pending aggregation that expects a reply
 * from every destination rank of the subtree. Replies are merged by body ({@link ReplyMerger}) and
 * go to the parent as one {@link Replies} when all have come, or, for a command with a timeout,
 * when the timeout expires (a partial flush: later replies follow on their own). Each pending
 * command has its own timer. In a tree of one JVM, a child that stops turns the destination ranks
 * it still owes into {@linkplain Protos#rankLost() lost} replies, and is reported upward ({@link
 * RanksLost}), so that no command waits for it. A tree across JVMs is repaired by the master
 * instead: it replaces dead servers by stand-ins and sends the nodes next to them new routing
 * ({@link Rewire}).
 *
 * <p>A command whose id is not newer than the last one it took is refused (logged): the master
 * numbers commands in order, and a node hears them in order from its parent, so such a command is a
 * copy. Everything else a node takes from another names the node it is for (routing its {@code to},
 * what comes up its parent's {@code to}), and a node refuses what is meant for another: over
 * aeron-udp a copy of a sealed message, given to another JVM of the session, still opens there. The
 * first such refusal is logged, later ones are counted and told when the node stops.
 *
 * <p>Unsolicited events (stops, exits, output) are merged the same way within a window ({@link
 * FabricConfig#eventWindow()}) that counts from when the first of them was reported, plus a tenth
 * of it per tree level for siblings' batches to meet: the latency is about one window, where the C
 * SDM waited a whole window at every level. Stops that a user waits for wait for no window: a node
 * knows which ranks of its subtree a run, continue or step set running ({@link AwaitedStops}), and
 * sends what it holds up as soon as the last of them has stopped, so a {@code next} on a group
 * returns when its slowest rank has stopped.
 */
public final class ServerNode extends ExtensibleBehavior<ServerNode.Command> {

  /**
   * Everything a server node accepts. Each message names its handler in the node ({@link
   * #deliverTo}), so that a message without one does not compile: Java 17's form of a switch over
   * the sealed type, one case a message, without a receive table built for every node (a node's
   * footprint is measured: docs/ARCHITECTURE.md, "Footprint").
   */
  public sealed interface Command
      permits Attach,
          Rewire,
          Execute,
          Up,
          LocalReply,
          DrainEvents,
          FlushCommand,
          FlushEvents,
          ChildLost {

    /** Hands this message to its handler in {@code node}; only the node calls it. */
    void deliverTo(ServerNode node);
  }

  /**
   * What travels up the tree, to a parent node or to the master. Each names its recipient ({@link
   * #to}): the node it is sent to refuses it when that is another.
   */
  public sealed interface Up extends Command permits Replies, Events, RanksLost {
    /** The parent (node or master) this is for. */
    ActorRef<Up> to();

    /** The same message for another parent: what a node passes on as it came. */
    Up forwardedTo(ActorRef<Up> parent);
  }

  /**
   * Wires a node into the tree when its children live elsewhere (other JVMs): its place, its own
   * ranks, its parent and its routing slice, the children of its own subtree and nothing more.
   *
   * @param to the node it is for; a node refuses routing meant for another (a copy of another
   *     node's, replayed to it)
   * @param node the node's index in the tree ({@link BinomialTree})
   * @param ranks the ranks the node serves itself
   */
  public record Attach(
      ActorRef<Command> to, int node, RankSet ranks, ActorRef<Up> parent, List<ChildLink> children)
      implements Command {
    public Attach {
      Objects.requireNonNull(to, "to");
      Objects.requireNonNull(ranks, "ranks");
      Objects.requireNonNull(parent, "parent");
      children = List.copyOf(children);
    }

    @Override
    public void deliverTo(ServerNode node) {
      node.onAttach(this);
    }
  }

  /**
   * New routing for a wired node, from the master after it replaced dead servers by stand-ins: the
   * node's parent and children, some of them new. Commands in flight stay pending; what the node
   * still awaited through a child that was replaced will not come, so it is given up: the ranks in
   * {@code lost} get {@linkplain Protos#rankLost() lost} replies, the others (alive, but their
   * replies went up through a dead server) {@link #REPLY_LOST} errors. Later replies of given-up
   * ranks are dropped.
   *
   * @param to the node it is for; a node refuses routing meant for another
   * @param lost every rank lost so far in the session
   */
  public record Rewire(
      ActorRef<Command> to, ActorRef<Up> parent, List<ChildLink> children, RankSet lost)
      implements Command {
    public Rewire {
      Objects.requireNonNull(to, "to");
      Objects.requireNonNull(parent, "parent");
      children = List.copyOf(children);
      Objects.requireNonNull(lost, "lost");
    }

    @Override
    public void deliverTo(ServerNode node) {
      node.onRewire(this);
    }
  }

  /**
   * A command for the ranks in {@code dest}.
   *
   * @param id the master's number for it, unique in the session
   * @param dest the ranks that run it
   * @param timeoutMs how long each node waits for its subtree before a partial flush; 0 waits for
   *     all
   * @param body the command
   */
  public record Execute(long id, RankSet dest, long timeoutMs, CommandBody body)
      implements Command {
    public Execute {
      Objects.requireNonNull(dest, "dest");
      Objects.requireNonNull(body, "body");
      if (timeoutMs < 0) {
        throw new IllegalArgumentException("timeoutMs must be >= 0: " + timeoutMs);
      }
    }

    @Override
    public void deliverTo(ServerNode node) {
      node.onExecute(this);
    }
  }

  /** Merged replies to command {@code id} from some of the subtree's ranks, for {@code to}. */
  public record Replies(ActorRef<Up> to, long id, List<ReplyGroup> groups) implements Up {
    public Replies {
      Objects.requireNonNull(to, "to");
      groups = List.copyOf(groups);
    }

    @Override
    public Replies forwardedTo(ActorRef<Up> parent) {
      return new Replies(parent, id, groups);
    }

    @Override
    public void deliverTo(ServerNode node) {
      node.onReplies(this);
    }
  }

  /** Merged unsolicited events for {@code to}, held so far for {@code heldMs} below this point. */
  public record Events(ActorRef<Up> to, List<ReplyGroup> groups, long heldMs) implements Up {
    public Events {
      Objects.requireNonNull(to, "to");
      groups = List.copyOf(groups);
    }

    @Override
    public Events forwardedTo(ActorRef<Up> parent) {
      return new Events(parent, groups, heldMs);
    }

    @Override
    public void deliverTo(ServerNode node) {
      node.onEvents(this);
    }
  }

  /**
   * Ranks whose servers are gone, and why ({@link Protos#lostReason}; empty: not known), for {@code
   * to}.
   */
  public record RanksLost(ActorRef<Up> to, RankSet ranks, String reason) implements Up {
    public RanksLost {
      Objects.requireNonNull(to, "to");
      Objects.requireNonNull(ranks, "ranks");
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public RanksLost forwardedTo(ActorRef<Up> parent) {
      return new RanksLost(parent, ranks, reason);
    }

    @Override
    public void deliverTo(ServerNode node) {
      node.onRanksLost(this);
    }
  }

  /** Answers of the node's own ranks that came after {@code execute} returned. */
  private record LocalReply(long id, RankSet ranks, ReplyBody body)
      implements Command, NoSerializationVerificationNeeded {

    @Override
    public void deliverTo(ServerNode node) {
      node.onLocalReply(this);
    }
  }

  /** Events of the node's own ranks are waiting in {@link #reported}. */
  private enum DrainEvents implements Command, NoSerializationVerificationNeeded {
    INSTANCE;

    @Override
    public void deliverTo(ServerNode node) {
      node.onDrainEvents();
    }
  }

  /** Command {@code id}'s timeout expired. */
  private record FlushCommand(long id) implements Command, NoSerializationVerificationNeeded {

    @Override
    public void deliverTo(ServerNode node) {
      node.onFlushCommand(this);
    }
  }

  /** The held events are due. */
  private enum FlushEvents implements Command, NoSerializationVerificationNeeded {
    INSTANCE;

    @Override
    public void deliverTo(ServerNode node) {
      node.onFlushEvents();
    }
  }

  /** A child the node watches stopped (a tree of one JVM). */
  private record ChildLost(ChildLink child) implements Command, NoSerializationVerificationNeeded {

    @Override
    public void deliverTo(ServerNode node) {
      node.onChildLost(this);
    }
  }

  /** Where the tree's actors run: their own dispatcher, one thread per core. */
  public static final DispatcherSelector DISPATCHER =
      DispatcherSelector.fromConfig("sdm.fabric-dispatcher");

  /**
   * The reply body of a live rank whose reply to a command in flight went up through a server that
   * stopped: the rank is still in the session, and answers later commands.
   */
  public static final String REPLY_LOST =
      "no reply: it went up through a server that stopped (the rank is still there)";

  private static final ChildLink[] NO_CHILDREN = new ChildLink[0];

  private final ActorContext<Command> context;
  private final FabricConfig config;
  private final int node;
  private final RankSet own;
  private final NodeBackend backend;
  private final boolean watchesChildren;
  private final Misaddressed misaddressed;
  private final ReportedEvents reported; // null for the root, which has no backend
  private final PendingCommands pending = new PendingCommands(this::sendReplies);

  // The routing slice: where replies go, and the children whose subtrees serve which ranks.
  private ActorRef<Up> parent;
  private ChildLink[] children = NO_CHILDREN;
  private RankSet lost = RankSet.empty();

  /**
   * The id of the newest command this node took. The master numbers commands 1, 2, ... and each
   * node hears them in that order from its parent, so a command whose id is not newer is a copy
   * (over aeron-udp, a sealed message replayed to this JVM from another's traffic) and is refused.
   */
  private long newestCommand = Long.MIN_VALUE;

  private EventWindow events; // null until the first event
  private final AwaitedStops awaited = new AwaitedStops();
  private Cancellable eventsTimer;
  private boolean eventsFlushQueued;

  private ServerNode(
      ActorContext<Command> context,
      FabricConfig config,
      int node,
      RankSet own,
      NodeBackend backend,
      boolean watchesChildren,
      Misaddressed misaddressed) {
    this.context = context;
    this.config = config;
    this.node = node;
    this.own = own;
    this.backend = backend;
    this.watchesChildren = watchesChildren;
    this.misaddressed = misaddressed;
    if (backend != null) {
      ActorRef<Command> self = context.getSelf();
      reported = new ReportedEvents(() -> self.tell(DrainEvents.INSTANCE));
      backend.subscribe(reported);
    } else {
      reported = null;
    }
  }

  /**
   * The root of a tree whose every node lives in this JVM: it spawns its children, and they theirs.
   *
   * @param blocks which ranks each node serves
   * @param backends the backend of each node that serves ranks (called with the node's index, once,
   *     in the node's actor)
   * @param parent where replies and events go
   */
  public static Behavior<Command> embedded(
      FabricConfig config,
      RankBlocks blocks,
      IntFunction<NodeBackend> backends,
      ActorRef<Up> parent) {
    return embedded(config, 0, blocks, backends, parent);
  }

  private static Behavior<Command> embedded(
      FabricConfig config,
      int node,
      RankBlocks blocks,
      IntFunction<NodeBackend> backends,
      ActorRef<Up> parent) {
    return Behaviors.setup(
        context -> {
          ServerNode self =
              new ServerNode(
                  context,
                  config,
                  node,
                  blocks.ranksOf(node),
                  node == 0 ? null : backends.apply(node),
                  true,
                  new Misaddressed());
          self.parent = parent;
          int size = blocks.size();
          for (int child : BinomialTree.children(node, size)) {
            int end = BinomialTree.subtreeEnd(child, size);
            ActorRef<Command> ref =
                context.spawn(
                    embedded(config, child, blocks, backends, context.getSelf().narrow()),
                    "n" + child,
                    DISPATCHER);
            self.addChild(new ChildLink(ref, child, end, blocks.ranksOf(child, end)));
          }
          return self;
        });
  }

  /**
   * A node that waits for {@link Attach} to learn its place, its ranks, its parent and its
   * children, which live in other JVMs. Commands that arrive before it are kept until then. It does
   * not watch its children: the master watches every node of such a tree and repairs it ({@link
   * Rewire}). Routing and what comes up meant for another node are refused, not kept.
   *
   * @param backend the backend of the node's ranks; null for the root under the master
   */
  public static Behavior<Command> detached(FabricConfig config, NodeBackend backend) {
    return Behaviors.withStash(
        1024,
        stash ->
            Behaviors.setup(
                context -> {
                  Misaddressed misaddressed = new Misaddressed();
                  return Behaviors.receive(Command.class)
                      .onMessage(
                          Attach.class,
                          attach -> !attach.to().equals(context.getSelf()),
                          attach -> refuse(context, misaddressed, "routing", attach.to()))
                      .onMessage(
                          Up.class,
                          up -> !up.to().equals(context.getSelf()),
                          up -> refuse(context, misaddressed, kind(up), up.to()))
                      .onMessage(
                          Attach.class,
                          attach -> {
                            ServerNode self =
                                new ServerNode(
                                    context,
                                    config,
                                    attach.node(),
                                    attach.ranks(),
                                    backend,
                                    false,
                                    misaddressed);
                            self.parent = attach.parent();
                            attach.children().forEach(self::addChild);
                            return stash.unstashAll(self);
                          })
                      .onAnyMessage(
                          message -> {
                            stash.stash(message);
                            return Behaviors.same();
                          })
                      .build();
                }));
  }

  /** Refuses a {@code what} meant for {@code to}; returns {@code Behaviors.same()}. */
  private static <T> Behavior<T> refuse(
      ActorContext<?> context, Misaddressed misaddressed, String what, ActorRef<?> to) {
    misaddressed.refuse(context, what, to);
    return Behaviors.same();
  }

  private static String kind(Up up) {
    if (up instanceof Replies r) {
      return "replies to command " + r.id();
    }
    return up instanceof Events ? "events" : "lost ranks";
  }

  private void addChild(ChildLink child) {
    children = Arrays.copyOf(children, children.length + 1);
    children[children.length - 1] = child;
    if (watchesChildren) {
      context.watchWith(child.ref(), new ChildLost(child));
    }
  }

  @Override
  public Behavior<Command> receive(TypedActorContext<Command> ctx, Command message) {
    message.deliverTo(this);
    return this;
  }

  @Override
  public Behavior<Command> receiveSignal(TypedActorContext<Command> ctx, Signal signal) {
    if (signal instanceof PostStop) {
      onPostStop();
    }
    return this;
  }

  // Routing: the node's place in the tree, given once (Attach) and changed by repairs (Rewire).

  private void onAttach(Attach attach) {
    if (!addressedHere(attach.to(), "routing")) {
      return;
    }
    context.getLog().warn("ignoring a second Attach: this node is wired already");
  }

  private void onRewire(Rewire rewire) {
    if (!addressedHere(rewire.to(), "routing")) {
      return;
    }
    for (ChildLink old : children) {
      // A child whose link changed was dead: what it still owed will not come.
      if (!pending.isEmpty() && !rewire.children().contains(old)) {
        pending.giveUp(
            old.ranks(),
            rewire.lost(),
            lostBody(),
            CanonicalBytes.of(EventBodies.error(REPLY_LOST)));
      }
    }
    parent = rewire.parent();
    children = rewire.children().toArray(NO_CHILDREN);
    noLongerAwaited(rewire.lost());
  }

  private void onChildLost(ChildLost lostChild) {
    ChildLink child = lostChild.child();
    List<ChildLink> rest = new ArrayList<>(Arrays.asList(children));
    if (!rest.remove(child)) {
      return;
    }
    children = rest.toArray(NO_CHILDREN);
    RankSet ranks = child.ranks();
    lost = lost.union(ranks);
    String reason = EventBodies.lostReason(child.ref().path().address().getHost());
    context
        .getLog()
        .warn("ranks {} lost: {}", ranks, reason.isEmpty() ? "their server stopped" : reason);
    pending.answerOwed(ranks, CanonicalBytes.of(EventBodies.rankLost(reason)));
    send(parent, new RanksLost(parent, ranks, reason));
    noLongerAwaited(ranks);
  }

  private void onRanksLost(RanksLost lostBelow) {
    if (addressedHere(lostBelow.to(), "lost ranks")) {
      send(parent, lostBelow.forwardedTo(parent));
      noLongerAwaited(lostBelow.ranks());
    }
  }

  /** True when {@code to} is this node; otherwise refuses the {@code what} and returns false. */
  private boolean addressedHere(ActorRef<?> to, String what) {
    if (to.equals(context.getSelf())) {
      return true;
    }
    misaddressed.refuse(context, what, to);
    return false;
  }

  // Commands: sent down to the children whose subtrees serve their ranks, run on the node's own
  // ranks, and their replies gathered into one Replies per command (PendingCommands).

  private void onExecute(Execute command) {
    if (command.id() <= newestCommand) {
      context
          .getLog()
          .warn(
              "command {} refused: not newer than command {} (a copy of one already taken)",
              command.id(),
              newestCommand);
      return;
    }
    newestCommand = command.id();
    int expected = 0;
    for (ChildLink child : children) {
      int n = command.dest().intersectionSize(child.ranks());
      if (n > 0) {
        send(child.ref(), command);
        expected += n;
      }
    }
    if (Commands.resumes(command.body())) {
      awaited.resumed(command.id(), subtreeOf(command.dest()).minus(lost));
    }
    ReplyMerger ready = new ReplyMerger(config.hasher(), config.valueClassesFor(command.body()));
    if (!lost.isEmpty() && command.dest().intersects(lost)) {
      ready.add(command.dest().intersect(lost), lostBody());
    }
    RankSet mine = own.isEmpty() ? own : command.dest().intersect(own);
    int owed = mine.isEmpty() ? 0 : runHere(command.id(), mine, command.body(), ready);
    if (expected == 0 && owed == 0) {
      // Nothing to wait for: answer at once, without a pending aggregation.
      if (!ready.isEmpty()) {
        sendReplies(command.id(), ready.drain());
      }
      return;
    }
    Cancellable timer =
        command.timeoutMs() == 0
            ? null
            : context.scheduleOnce(
                Duration.ofMillis(command.timeoutMs()),
                context.getSelf(),
                new FlushCommand(command.id()));
    pending.open(command.id(), command.dest(), ready, expected + owed, timer);
  }

  /**
   * Runs a command on the node's own ranks {@code mine}: answers ready before the backend returns
   * go into {@code ready}, later ones come as {@link LocalReply}s. A backend that throws has the
   * ranks it did not answer answer with the error.
   *
   * @return how many of {@code mine} did not answer yet
   */
  private int runHere(long id, RankSet mine, CommandBody body, ReplyMerger ready) {
    ActorRef<Command> self = context.getSelf();
    ArrivingReplies arriving =
        new ArrivingReplies(ready, (ranks, reply) -> self.tell(new LocalReply(id, ranks, reply)));
    try {
      backend.execute(mine, body, arriving);
    } catch (RuntimeException e) {
      RankSet unanswered = mine.minus(arriving.answered());
      if (!unanswered.isEmpty()) {
        arriving.reply(unanswered, ReplyBody.of(EventBodies.error(Failures.message(e))));
      }
    }
    return mine.size() - arriving.stopInline();
  }

  private void onLocalReply(LocalReply reply) {
    byte[] body = reply.body().bytes();
    if (!pending.mergeOwn(reply.id(), reply.ranks(), body)) {
      sendReplies(reply.id(), List.of(new ReplyGroup(reply.ranks(), body)));
    }
  }

  private void onReplies(Replies replies) {
    if (!addressedHere(replies.to(), "replies to command " + replies.id())) {
      return;
    }
    if (!pending.mergeFromChild(replies.id(), replies.groups())) {
      // A straggler after a partial flush: it follows on its own.
      awaited.replied(replies.id(), replies.groups());
      send(parent, replies.forwardedTo(parent));
    }
  }

  private void onFlushCommand(FlushCommand flush) {
    pending.flush(flush.id());
  }

  private void sendReplies(long id, List<ReplyGroup> groups) {
    awaited.replied(id, groups);
    send(parent, new Replies(parent, id, groups));
  }

  /** Those of {@code ranks} this node's subtree serves: its own and its children's. */
  private RankSet subtreeOf(RankSet ranks) {
    RankSet.Builder mine = RankSet.builder();
    if (!own.isEmpty()) {
      mine.addAll(ranks.intersect(own));
    }
    for (ChildLink child : children) {
      mine.addAll(ranks.intersect(child.ranks()));
    }
    return mine.build();
  }

  // Unsolicited events: the node's own (from its backend) and its children's, held in a window.

  private void onDrainEvents() {
    List<ReplyGroup> groups = reported.drain();
    if (!groups.isEmpty()) {
      addEvents(groups, 0);
    }
  }

  private void onEvents(Events batch) {
    if (addressedHere(batch.to(), "events")) {
      addEvents(batch.groups(), batch.heldMs());
    }
  }

  private void addEvents(List<ReplyGroup> groups, long heldMs) {
    if (events == null) {
      events = new EventWindow(config);
    }
    long wait = events.add(groups, heldMs, node == 0, height(), System.nanoTime());
    if (wait <= 0 || awaited.reported(groups)) {
      // Due already, or the last rank a run or step awaited has stopped: flush after the messages
      // already in the mailbox, which may merge.
      flushEventsSoon();
    } else if (eventsTimer == null) {
      eventsTimer =
          context.scheduleOnce(Duration.ofNanos(wait), context.getSelf(), FlushEvents.INSTANCE);
    }
  }

  private void flushEventsSoon() {
    if (!eventsFlushQueued) {
      eventsFlushQueued = true;
      context.getSelf().tell(FlushEvents.INSTANCE);
    }
  }

  /** {@code ranks} are lost: if they were the last awaited, what is held goes up now. */
  private void noLongerAwaited(RankSet ranks) {
    if (awaited.lost(ranks) && events != null && !events.isEmpty()) {
      flushEventsSoon();
    }
  }

  private void onFlushEvents() {
    eventsFlushQueued = false;
    if (eventsTimer != null) {
      eventsTimer.cancel();
      eventsTimer = null;
    }
    if (events != null && !events.isEmpty()) {
      long heldMs = events.heldMs(System.nanoTime());
      send(parent, new Events(parent, events.drain(), heldMs));
    }
  }

  /** The height of this node's subtree, from the children it routes to. */
  private int height() {
    int end = node + 1;
    for (ChildLink c : children) {
      end = Math.max(end, c.end());
    }
    return BinomialTree.height(node, end);
  }

  private void onPostStop() {
    misaddressed.tellCount(context);
    pending.cancelTimers();
    if (backend != null) {
      backend.close();
    }
  }

  private static byte[] lostBody() {
    return CanonicalBytes.of(EventBodies.rankLost());
  }

  private <T> void send(ActorRef<T> to, T message) {
    config.messagesSent().increment();
    to.tell(message);
  }
}
