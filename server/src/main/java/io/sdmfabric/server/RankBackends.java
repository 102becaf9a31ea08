package io.sdmfabric.server;

import io.sdmfabric.model.Failures;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.proto.CommandBody;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * A node's ranks each driven by a backend of its own: one gdb per rank, or one simulated debugger
 * per rank. A command runs on each rank of its destination; answers that are ready at once go to
 * the node before {@link #execute} returns, the others as they come.
 *
 * <p>An agent learns its ranks one at a time, as gdb attaches to each; it {@link #add}s them as
 * they come, before or after the node subscribes.
 */
public final class RankBackends implements NodeBackend {

  /** What a rank of the node without a backend answers (the node was told of a rank it lacks). */
  static final String NO_BACKEND = "no debugger for this rank on its node";

  /** How many ranks' backends close at a time. */
  private static final int CLOSERS = 16;

  private static final ReplyBody MISSING = ReplyBody.of(EventBodies.error(NO_BACKEND));

  private final Map<Integer, RankBackend> ranks = new ConcurrentHashMap<>();
  private EventSink events; // guarded by this

  private RankBackends() {}

  /** The backends of {@code ranks}, each made by {@code backends} (called once per rank, now). */
  public static RankBackends of(RankSet ranks, IntFunction<RankBackend> backends) {
    RankBackends node = new RankBackends();
    ranks.forEach(rank -> node.ranks.put(rank, backends.apply(rank)));
    return node;
  }

  /** A node without ranks yet: an agent {@link #add}s them as they become ready. */
  public static RankBackends growing() {
    return new RankBackends();
  }

  /**
   * For a tree in one JVM: the backends of the ranks of each node of {@code blocks}, each made by
   * {@code backends}.
   */
  public static IntFunction<NodeBackend> perNode(
      RankBlocks blocks, IntFunction<RankBackend> backends) {
    return node -> of(blocks.ranksOf(node), backends);
  }

  /** Adds a rank; its events go to the node's subscriber from now on. */
  public void add(int rank, RankBackend backend) {
    EventSink sink;
    synchronized (this) {
      ranks.put(rank, backend);
      sink = events;
    }
    if (sink != null) {
      subscribe(rank, backend, sink);
    }
  }

  @Override
  public void subscribe(EventSink sink) {
    synchronized (this) {
      events = sink;
    }
    ranks.forEach((rank, backend) -> subscribe(rank, backend, sink));
  }

  private static void subscribe(int rank, RankBackend backend, EventSink sink) {
    RankSet only = RankSet.of(rank);
    backend.subscribe(body -> sink.event(only, body));
  }

  /**
   * Runs the command on each rank of {@code dest}; a backtrace or a print on several ranks of one
   * gdb is asked of that gdb once for all of them ({@link JointRanks}).
   */
  @Override
  public void execute(RankSet dest, CommandBody command, ReplySink replies) {
    if (dest.size() > 1 && JointRanks.answers(command)) {
      JointRanks.execute(dest, ranks::get, command, replies, rank -> run(rank, command, replies));
      return;
    }
    dest.forEach(rank -> run(rank, command, replies));
  }

  private void run(int rank, CommandBody command, ReplySink replies) {
    RankBackend backend = ranks.get(rank);
    if (backend == null) {
      replies.reply(rank, MISSING);
      return;
    }
    CompletableFuture<ReplyBody> reply;
    try {
      reply = backend.execute(command).toCompletableFuture();
    } catch (RuntimeException e) {
      replies.reply(rank, error(e));
      return;
    }
    if (reply.isDone() && !reply.isCompletedExceptionally()) {
      replies.reply(rank, reply.join());
    } else {
      reply.whenComplete(
          (body, failure) -> replies.reply(rank, failure == null ? body : error(failure)));
    }
  }

  private static ReplyBody error(Throwable failure) {
    return ReplyBody.of(EventBodies.error(Failures.message(failure)));
  }

  /**
   * Closes every rank's backend, several at a time: a rank's close may wait for its debugger to end
   * (the last rank of a shared gdb waits for gdb's exit), and a node's gdbs end side by side rather
   * than one after another.
   */
  @Override
  public void close() {
    List<RankBackend> open = List.copyOf(ranks.values());
    if (open.size() <= 1) {
      open.forEach(RankBackend::close);
      return;
    }
    ExecutorService closers =
        Executors.newFixedThreadPool(
            Math.min(open.size(), CLOSERS),
            r -> {
              Thread t = new Thread(r, "rank-backend-close");
              t.setDaemon(true);
              return t;
            });
    open.forEach(backend -> closers.execute(backend::close));
    closers.shutdown();
    try {
      // A backend's close is bounded by its own; this bounds the whole should one not be.
      closers.awaitTermination(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
