package io.sdmfabric.runtime;

import io.sdmfabric.gdbmi.GdbDebugger;
import io.sdmfabric.gdbmi.GdbOptions;
import io.sdmfabric.gdbmi.GdbPool;
import io.sdmfabric.model.Failures;
import io.sdmfabric.model.StartProgress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Starts the debuggers of an embedded session: one program per rank, {@code ranksPerGdb} ranks to a
 * gdb (ranks {@code [k * ranksPerGdb, (k + 1) * ranksPerGdb)} share gdb {@code k}), several gdbs at
 * a time (a gdb takes 60-220 ms to get ready); each program has {@code SDM_RANK} and {@code
 * SDM_SIZE} in its environment.
 */
public final class GdbFleet {
  private static final int PARALLEL = 8;

  /** The most ranks per gdb unless the user says otherwise, below {@link #LARGE_JOB} ranks. */
  public static final int DEFAULT_RANKS_PER_GDB = 16;

  /** From this many ranks up, a gdb debugs twice as many by default. */
  static final int LARGE_JOB = 1024;

  /**
   * Ranks per gdb for a job of {@code size} ranks unless the user says otherwise (0: size unknown),
   * on this machine's cores ({@link #ranksPerGdb(int, int)}).
   */
  public static int ranksPerGdb(int size) {
    return ranksPerGdb(size, Runtime.getRuntime().availableProcessors());
  }

  /**
   * Ranks per gdb for a job of {@code size} ranks on {@code cores} cores unless the user says
   * otherwise (0: size unknown).
   *
   * <ul>
   *   <li>A small job is spread over as many gdbs as there are cores, at most {@value
   *       #DEFAULT_RANKS_PER_GDB} ranks each: a gdb starts and steps its programs one after the
   *       other. 4 ranks on 2 cores reached their first breakpoint in 625-703 ms with 2 per gdb,
   *       730-775 ms with 4 (one gdb), 791-811 ms with 1 (4 gdbs starting beside the JVM).
   *   <li>From {@value #LARGE_JOB} ranks up, 32. Since gdb's output is line-buffered, a gdb's CPU
   *       per program no longer grows with their number (raw gdb to a breakpoint: 19 ms per program
   *       at 16, 15 at 32, 17 at 64); at 1,024 ranks 32 per gdb launched in the same CPU as 16,
   *       answered bt in 55 ms instead of 68 and print in 70 instead of 91, with 2.2 MB of debugger
   *       per rank instead of 3.9.
   * </ul>
   *
   * (docs/PERFORMANCE.md, issue #30.)
   */
  static int ranksPerGdb(int size, int cores) {
    if (size >= LARGE_JOB) {
      return 2 * DEFAULT_RANKS_PER_GDB;
    }
    if (size <= 0) {
      return DEFAULT_RANKS_PER_GDB;
    }
    int spread = (size + Math.max(1, cores) - 1) / Math.max(1, cores);
    return Math.min(DEFAULT_RANKS_PER_GDB, spread);
  }

  private GdbFleet() {}

  /**
   * Starts the debuggers of {@code size} ranks, in rank order.
   *
   * @throws IOException when one cannot start (gdb missing: the message says so), those already
   *     started closed; or, before any starts, when the machine cannot hold that many ranks ({@link
   *     RankLimits}: pseudo-terminals, open files, processes)
   */
  public static List<GdbDebugger> start(int size, int ranksPerGdb, GdbOptions options)
      throws IOException {
    return start(size, ranksPerGdb, options, p -> {});
  }

  /**
   * {@link #start(int, int, GdbOptions)}, telling {@code progress} how many ranks have their
   * debugger each time a gdb is ready (from the starting threads).
   */
  public static List<GdbDebugger> start(
      int size, int ranksPerGdb, GdbOptions options, Consumer<StartProgress> progress)
      throws IOException {
    RankLimits.current().check(size, ranksPerGdb);
    AtomicInteger ready = new AtomicInteger();
    progress.accept(new StartProgress.GdbsStarting(0, size));
    int gdbs = (size + ranksPerGdb - 1) / ranksPerGdb;
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(gdbs, PARALLEL));
    List<Future<List<GdbDebugger>>> starting = new ArrayList<>(gdbs);
    for (int g = 0; g < gdbs; g++) {
      int first = g * ranksPerGdb;
      int end = Math.min(size, first + ranksPerGdb);
      starting.add(
          pool.submit(
              () -> {
                List<GdbDebugger> ranks = startGdb(first, end, size, ranksPerGdb, options);
                progress.accept(
                    new StartProgress.GdbsStarting(ready.addAndGet(ranks.size()), size));
                return ranks;
              }));
    }
    pool.shutdown();
    List<GdbDebugger> started = new ArrayList<>(size);
    IOException failure = null;
    for (Future<List<GdbDebugger>> f : starting) {
      try {
        started.addAll(f.get(120, TimeUnit.SECONDS));
      } catch (Exception e) {
        Throwable cause = Failures.cause(e);
        if (failure == null) {
          failure =
              cause instanceof IOException io
                  ? io
                  : new IOException(Failures.message(cause), cause);
        }
      }
    }
    if (failure != null) {
      started.parallelStream().forEach(GdbDebugger::close);
      throw failure;
    }
    return started;
  }

  /** One gdb with the programs of ranks {@code [first, end)}. */
  private static List<GdbDebugger> startGdb(
      int first, int end, int size, int ranksPerGdb, GdbOptions options) throws Exception {
    List<GdbDebugger> ranks = new ArrayList<>(end - first);
    try (GdbPool gdb = new GdbPool(options, ranksPerGdb)) {
      for (int rank = first; rank < end; rank++) {
        GdbDebugger debugger = gdb.next();
        ranks.add(debugger);
        debugger.cli("set environment SDM_RANK=" + rank).get(30, TimeUnit.SECONDS);
        debugger.cli("set environment SDM_SIZE=" + size).get(30, TimeUnit.SECONDS);
      }
      return ranks;
    } catch (Exception e) {
      ranks.forEach(GdbDebugger::close);
      throw e;
    }
  }
}
