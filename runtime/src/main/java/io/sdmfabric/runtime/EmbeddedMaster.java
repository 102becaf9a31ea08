package io.sdmfabric.runtime;

import io.sdmfabric.gdbmi.GdbDebugger;
import io.sdmfabric.master.Session;
import io.sdmfabric.server.DebuggerBackend;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.RankBackends;
import io.sdmfabric.server.RankBlocks;
import io.sdmfabric.server.ReplyCache;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The actor system of an {@link EmbeddedSession}, started before the session's gdbs are ready:
 * Pekko's start takes a few hundred milliseconds of its own, and so do the gdbs' and the command
 * line's, so a short session is ready when the slowest of them is, not after all of them (issue
 * #30, item 2). Its guardian, the session's actor, waits for the gdbs ({@link #serve}) before it
 * builds the tree over them; without them ({@link #abandon}) it stops, and the system with it.
 *
 * <p>The {@code sdm debug} command starts one as its JVM starts ({@link #startEarly}), on a thread
 * of its own, while the command line is read; the embedded session takes it ({@link #take}) or, in
 * any other case, starts one then.
 */
final class EmbeddedMaster {
  /** What the session's actor builds its tree over. */
  private record Tree(List<GdbDebugger> debuggers, int ranksPerNode, FabricConfig config) {}

  /** The one started early, until a session takes it. */
  private static final AtomicReference<EmbeddedMaster> EARLY = new AtomicReference<>();

  private final CompletableFuture<ActorSystem<Session.Command>> system = new CompletableFuture<>();
  private final CompletableFuture<Tree> tree = new CompletableFuture<>();

  private EmbeddedMaster() {}

  /**
   * Starts the actor system of the embedded session this JVM is about to open, on a thread of its
   * own; a JVM that exits without opening it ends it.
   */
  static void startEarly() {
    EmbeddedMaster m = new EmbeddedMaster();
    if (EARLY.compareAndSet(null, m)) {
      Thread t = new Thread(m::create, "sdm-master-start");
      t.setDaemon(true);
      t.start();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> m.tree.cancel(false)));
    }
  }

  /** The one started early, or a new one started on this thread. */
  static EmbeddedMaster take() {
    EmbeddedMaster m = EARLY.getAndSet(null);
    if (m == null) {
      m = new EmbeddedMaster();
      m.create();
    }
    return m;
  }

  private void create() {
    try {
      system.complete(ActorSystem.create(guardian(tree), "sdm"));
    } catch (RuntimeException | Error e) {
      system.completeExceptionally(e);
    }
  }

  /**
   * Hands the session's debuggers to its actor, rank {@code r} being the {@code r}th, each node of
   * the tree serving {@code ranksPerNode} of them, and returns the system once it has started.
   *
   * @throws IOException when the actor system could not start; the debuggers are the caller's
   */
  ActorSystem<Session.Command> serve(
      List<GdbDebugger> debuggers, int ranksPerNode, FabricConfig config) throws IOException {
    tree.complete(new Tree(List.copyOf(debuggers), ranksPerNode, config));
    try {
      return system.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      abandon();
      throw new IOException("interrupted while the session's actor system started", e);
    } catch (ExecutionException e) {
      throw new IOException("the session's actor system did not start: " + e.getCause(), e);
    }
  }

  /** Ends it without a tree: its actor stops, and the system ends (10 s at most are awaited). */
  void abandon() {
    tree.cancel(false);
    try {
      ActorSystem<Session.Command> s = system.get(10, TimeUnit.SECONDS);
      s.terminate();
      s.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // Not started, or not ended in time: it ends with the JVM.
    }
  }

  /**
   * The session's actor over the tree {@code tree} will hold. Its setup waits for it, once, on the
   * thread that starts the guardian, before any message is handled.
   */
  private static Behavior<Session.Command> guardian(CompletableFuture<Tree> tree) {
    return Behaviors.setup(
        context -> {
          Tree t;
          try {
            t = tree.join();
          } catch (CompletionException | CancellationException e) {
            return Behaviors.stopped();
          }
          ReplyCache cache = new ReplyCache();
          RankBlocks blocks = new RankBlocks(t.debuggers().size(), t.ranksPerNode());
          return Session.embedded(
              blocks,
              t.config(),
              RankBackends.perNode(
                  blocks, rank -> new DebuggerBackend(t.debuggers().get(rank), cache)));
        });
  }
}
