package io.sdmfabric.runtime;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StartProgress;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.Subscription;
import io.sdmfabric.wire.proto.CommandBody;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A session whose master runs in this JVM: what every kind has in common. Commands and events go
 * through the master ({@link MasterClient}); closing runs once, whoever calls it first (the
 * front-end, a failed start, or the JVM's shutdown hook), a later caller waits until it is done,
 * and what it ends is each kind's own.
 *
 * <p>The kinds: {@link EmbeddedSession} (master, servers and debuggers in this JVM), and the
 * distributed ones ({@link DistributedSession}), whose ranks are served by agent JVMs: {@link
 * LaunchedSession} (a job sdm starts through mpirun or srun) and {@link AttachedSession} (running
 * processes of a job sdm did not start).
 */
public abstract sealed class MasterSession implements SessionClient
    permits EmbeddedSession, DistributedSession {
  private final int size;

  /** How long a later {@link #close} waits for the first to finish. */
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(60);

  private final AtomicBoolean closing = new AtomicBoolean();
  private final CompletableFuture<Void> closed = new CompletableFuture<>();
  private volatile Thread closer;

  MasterSession(int size) {
    if (size < 1) {
      throw new IllegalArgumentException("a session needs at least one rank, not " + size);
    }
    this.size = size;
  }

  /** The master, once it has started. */
  abstract Optional<MasterClient> master();

  /** Ends what the session started; runs once. */
  abstract void end();

  @Override
  public final int size() {
    return size;
  }

  @Override
  public final CompletableFuture<List<RankReply>> call(
      CommandBody command, RankSet dest, Duration timeout) {
    Optional<MasterClient> m = master();
    if (m.isEmpty()) {
      return CompletableFuture.failedFuture(
          new IllegalStateException("the session's master has not started"));
    }
    return m.get().call(command, dest, timeout);
  }

  @Override
  public final Subscription subscribe(Consumer<RankReply> listener) {
    return master()
        .orElseThrow(() -> new IllegalStateException("the master has not started"))
        .subscribe(listener);
  }

  @Override
  public final Subscription progress(Consumer<StartProgress> listener) {
    return master()
        .orElseThrow(() -> new IllegalStateException("the master has not started"))
        .reportStops(listener, size);
  }

  /** Whether closing has begun: what child processes say from then on is no news. */
  final boolean closing() {
    return closing.get();
  }

  /**
   * Ends the session. The first caller ends it; a later one waits until that is done, a minute at
   * most: the shutdown hook of a SIGTERM that comes while the front-end is closing the session must
   * not let the JVM exit with the session's processes half ended (mpirun, the agents, gdb and the
   * ranks were left running).
   */
  @Override
  public final void close() {
    if (closing.compareAndSet(false, true)) {
      closer = Thread.currentThread();
      try {
        end();
      } finally {
        closed.complete(null);
      }
      return;
    }
    if (Thread.currentThread() == closer) {
      return; // called again from within end()
    }
    try {
      closed.get(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // The first close takes longer than that: this caller goes on.
    }
  }
}
