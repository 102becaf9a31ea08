package io.sdmfabric.runtime.agent;

import io.sdmfabric.gdbmi.FrozenProcesses;
import io.sdmfabric.gdbmi.GdbDebugger;
import io.sdmfabric.gdbmi.GdbPool;
import io.sdmfabric.model.Failures;
import io.sdmfabric.runtime.attach.RankEnvironment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Attaches a gdb to each of a node's running processes ({@code sdm attach}, {@code sdm stacks} of a
 * running job) and hands each rank on as soon as its gdb has it, or with why it has none. The
 * processes are shared out evenly among as few gdbs as the pool's cap allows, neighbouring ranks
 * together, and the gdbs attach side by side, several at a time (one gdb takes its processes one
 * after the other). Each process's rank comes from its own environment ({@link RankEnvironment})
 * and must be the rank it was given (the one the front-end found, or Slurm's task id): a process
 * that is not what it was taken for is not attached.
 */
final class PidAttacher {
  private static final int PARALLEL = 8;

  /** A process to attach to, and the rank it was given. */
  record Target(long pid, int rank) {}

  private final GdbPool gdbs;
  private final boolean held;
  private final FrozenProcesses frozen;
  private final ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
  private volatile boolean stopped;

  /**
   * @param held whether the processes are a job's that its launcher started for this session and
   *     holds for the debugger (the PMIx tool interface): they end with the session, and {@code
   *     run} continues them; otherwise they ran before and are left running
   * @param frozen those of the processes stopped until their gdb attaches: each is let go just
   *     before, or when it cannot be attached, and all that are left when attaching is over
   */
  PidAttacher(GdbPool gdbs, boolean held, FrozenProcesses frozen) {
    this.gdbs = gdbs;
    this.held = held;
    this.frozen = frozen;
  }

  /** Starts attaching to every target, telling {@code listener} what became of each rank. */
  void start(List<Target> targets, SpoolAttacher.Listener listener) {
    List<List<Target>> shares = shares(targets, gdbs.perGdb());
    CompletableFuture<?>[] attaches = new CompletableFuture<?>[shares.size()];
    for (int i = 0; i < attaches.length; i++) {
      List<Target> share = shares.get(i);
      attaches[i] = CompletableFuture.runAsync(() -> attach(share, listener), pool);
    }
    pool.shutdown();
    // The gdbs take no more ranks once every attach is done.
    CompletableFuture.allOf(attaches)
        .whenComplete(
            (done, error) -> {
              frozen.close();
              gdbs.close();
            });
  }

  /**
   * The targets in rank order, cut into as few shares of at most {@code perGdb} as there can be,
   * their sizes differing by one at most.
   */
  static List<List<Target>> shares(List<Target> targets, int perGdb) {
    List<Target> ranked =
        targets.stream().sorted(java.util.Comparator.comparingInt(Target::rank)).toList();
    int n = ranked.size();
    int count = (n + perGdb - 1) / perGdb;
    List<List<Target>> shares = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      shares.add(ranked.subList(i * n / count, (i + 1) * n / count));
    }
    return shares;
  }

  /** Stops attaching; attaches under way finish. */
  void stop() {
    stopped = true;
    pool.shutdownNow();
    frozen.close();
    gdbs.close();
  }

  /** Attaches a gdb of their own to a share of the targets, one after the other. */
  private void attach(List<Target> share, SpoolAttacher.Listener listener) {
    List<Target> ranked = share.stream().filter(t -> hasItsRank(t, listener)).toList();
    if (ranked.isEmpty()) {
      return;
    }
    List<GdbDebugger> debuggers;
    try {
      debuggers = gdbs.gdbFor(ranked.size());
    } catch (IOException e) {
      ranked.forEach(
          t -> {
            frozen.thaw(t.pid());
            listener.failed(t.rank(), e.getMessage());
          });
      return;
    }
    for (int i = 0; i < ranked.size(); i++) {
      if (stopped) {
        debuggers.subList(i, debuggers.size()).forEach(GdbDebugger::close);
        return;
      }
      attach(ranked.get(i), debuggers.get(i), listener);
    }
  }

  private boolean hasItsRank(Target t, SpoolAttacher.Listener listener) {
    try {
      int rank = RankEnvironment.ofProcess(t.pid()).rank();
      if (rank == t.rank()) {
        return true;
      }
      frozen.thaw(t.pid());
      listener.failed(
          t.rank(),
          "process " + t.pid() + " has rank " + rank + " in its environment, not " + t.rank());
    } catch (IOException e) {
      frozen.thaw(t.pid());
      listener.failed(t.rank(), e.getMessage());
    }
    return false;
  }

  private void attach(Target t, GdbDebugger gdb, SpoolAttacher.Listener listener) {
    // Let go just before: gdb attaches to a running process, which it stops at once.
    frozen.thaw(t.pid());
    try {
      (held ? gdb.attachHeld(t.pid()) : gdb.attach(t.pid())).get(60, TimeUnit.SECONDS);
      listener.attached(t.rank(), gdb);
    } catch (Exception e) {
      gdb.close();
      listener.failed(
          t.rank(), "gdb could not attach to process " + t.pid() + ": " + Failures.message(e));
    }
  }
}
