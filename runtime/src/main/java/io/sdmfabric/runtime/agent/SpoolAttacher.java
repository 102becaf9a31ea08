package io.sdmfabric.runtime.agent;

import io.sdmfabric.gdbmi.GdbDebugger;
import io.sdmfabric.gdbmi.GdbPool;
import io.sdmfabric.model.Failures;
import io.sdmfabric.runtime.launch.RankSpool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches a node's spool for ranks stopped for their gdb (before their exec, or at the end of
 * MPI_Init) and attaches a gdb to each, several at a time, handing every rank on as soon as its gdb
 * has it (or failed to). It stops watching when it has seen every rank of the job or when the
 * wire-up time is over.
 */
final class SpoolAttacher {
  private static final Logger log = LoggerFactory.getLogger(SpoolAttacher.class);
  private static final int PARALLEL = 8;
  private static final long POLL_MS = 20;
  private static final long ATTACH_SECONDS = 60;

  /** What became of one rank: its gdb, or why there is none. */
  interface Listener {
    void attached(int rank, GdbDebugger gdb);

    void failed(int rank, String why);
  }

  private final RankSpool spool;
  private final int size;
  private final Duration wireUp;
  private final GdbPool gdbs;
  private final Path program;
  private volatile Listener listener;
  private final ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
  private volatile boolean stopped;

  SpoolAttacher(RankSpool spool, int size, Duration wireUp, GdbPool gdbs, Path program) {
    this.program = program;
    this.spool = spool;
    this.size = size;
    this.wireUp = wireUp;
    this.gdbs = gdbs;
  }

  /** Starts watching on a thread of its own, telling {@code listener} what became of each rank. */
  void start(Listener listener) {
    this.listener = listener;
    Thread t = new Thread(this::watch, "spool-attacher");
    t.setDaemon(true);
    t.start();
  }

  /** Stops watching; attaches under way finish. */
  void stop() {
    stopped = true;
    pool.shutdown();
  }

  private void watch() {
    try {
      watchUntilAllCame();
    } finally {
      // The gdbs take no more ranks once the attaches under way are done.
      pool.shutdown();
      try {
        pool.awaitTermination(ATTACH_SECONDS + 10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      gdbs.close();
    }
  }

  private void watchUntilAllCame() {
    long start = System.nanoTime();
    long deadline = start + wireUp.toNanos();
    // A rank to be held at the end of MPI_Init that is not there by half the wire-up time hangs
    // before it, or in MPI_Init, waiting for one that does: it is attached where it is, so that
    // the user sees where.
    long patience = start + wireUp.toNanos() / 2;
    int seen = 0;
    while (!stopped && seen < size && System.nanoTime() < deadline) {
      List<RankSpool.StoppedRank> ready;
      try {
        ready = System.nanoTime() < patience ? spool.poll() : spool.pollHeldOrNot();
      } catch (IOException e) {
        log.error("sdm agent: {}", e.getMessage());
        return;
      }
      List<RankSpool.StoppedRank> ours = new ArrayList<>(ready.size());
      for (RankSpool.StoppedRank r : ready) {
        seen++;
        if (r.rank() >= size) {
          log.warn(
              "rank {} (pid {}) is outside the job's {} ranks; ignored", r.rank(), r.pid(), size);
        } else {
          ours.add(r);
        }
      }
      // The gdbs for all of them start side by side, while the first ones attach.
      gdbs.expect(ours.size());
      ours.forEach(r -> pool.execute(() -> attach(r)));
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void attach(RankSpool.StoppedRank r) {
    if (r.inMpiInit() && !runs(r.pid(), program)) {
      // A rank taken where it is may have ended since its shim wrote its pid, and the pid have
      // gone to another process of the user's, which the session's end would kill.
      listener.failed(r.rank(), "pid " + r.pid() + " no longer runs " + program);
      return;
    }
    GdbDebugger gdb;
    try {
      gdb = gdbs.next();
    } catch (IOException e) {
      listener.failed(r.rank(), e.getMessage());
      return;
    }
    CompletableFuture<?> done =
        r.inMpiInit() ? gdb.attachHeld(r.pid()) : gdb.attachAtExec(r.pid(), program);
    try {
      done.get(ATTACH_SECONDS, TimeUnit.SECONDS);
      listener.attached(r.rank(), gdb);
    } catch (Exception e) {
      gdb.close();
      listener.failed(
          r.rank(), "gdb could not attach to pid " + r.pid() + ": " + Failures.message(e));
    }
  }

  /** Whether process {@code pid} runs {@code program} (the same file, by any of its names). */
  private static boolean runs(long pid, Path program) {
    try {
      return Files.isSameFile(Path.of("/proc", Long.toString(pid), "exe"), program);
    } catch (IOException e) {
      return false;
    }
  }
}
