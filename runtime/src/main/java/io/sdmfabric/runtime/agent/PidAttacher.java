package io.sdmfabric.runtime.agent;

import io.sdmfabric.gdbmi.GdbDebugger;
import io.sdmfabric.gdbmi.GdbPool;
import io.sdmfabric.model.Failures;
import io.sdmfabric.runtime.attach.RankEnvironment;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Attaches a gdb to each of a node's running processes ({@code sdm attach}), several at a time, and
 * hands each rank on as soon as its gdb has it, or with why it has none. Each process's rank comes
 * from its own environment ({@link RankEnvironment}) and must be the rank it was given (the one the
 * front-end found, or Slurm's task id): a process that is not what it was taken for is not
 * attached.
 */
final class PidAttacher {
  private static final int PARALLEL = 8;

  /** A process to attach to, and the rank it was given. */
  record Target(long pid, int rank) {}

  private final GdbPool gdbs;
  private final ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);

  PidAttacher(GdbPool gdbs) {
    this.gdbs = gdbs;
  }

  /** Starts attaching to every target, telling {@code listener} what became of each rank. */
  void start(List<Target> targets, SpoolAttacher.Listener listener) {
    CompletableFuture<?>[] attaches = new CompletableFuture<?>[targets.size()];
    for (int i = 0; i < attaches.length; i++) {
      Target t = targets.get(i);
      attaches[i] = CompletableFuture.runAsync(() -> attach(t, listener), pool);
    }
    pool.shutdown();
    // The gdbs take no more ranks once every attach is done.
    CompletableFuture.allOf(attaches).whenComplete((done, error) -> gdbs.close());
  }

  /** Stops attaching; attaches under way finish. */
  void stop() {
    pool.shutdownNow();
    gdbs.close();
  }

  private void attach(Target t, SpoolAttacher.Listener listener) {
    try {
      int rank = RankEnvironment.ofProcess(t.pid()).rank();
      if (rank != t.rank()) {
        listener.failed(
            t.rank(),
            "process " + t.pid() + " has rank " + rank + " in its environment, not " + t.rank());
        return;
      }
    } catch (IOException e) {
      listener.failed(t.rank(), e.getMessage());
      return;
    }
    GdbDebugger gdb;
    try {
      gdb = gdbs.next();
    } catch (IOException e) {
      listener.failed(t.rank(), e.getMessage());
      return;
    }
    try {
      gdb.attach(t.pid()).get(60, TimeUnit.SECONDS);
      listener.attached(t.rank(), gdb);
    } catch (Exception e) {
      gdb.close();
      listener.failed(
          t.rank(), "gdb could not attach to process " + t.pid() + ": " + Failures.message(e));
    }
  }
}
