package io.sdmfabric.runtime;

import io.sdmfabric.gdbmi.GdbDebugger;
import io.sdmfabric.gdbmi.GdbOptions;
import io.sdmfabric.model.Failures;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Starts one gdb per rank, several at a time (a gdb takes 60-220 ms to get ready), each with {@code
 * SDM_RANK} and {@code SDM_SIZE} in its program's environment.
 */
public final class GdbFleet {
  private static final int PARALLEL = 8;

  private GdbFleet() {}

  /**
   * Starts {@code size} gdbs, rank order.
   *
   * @throws IOException when one cannot start (gdb missing: the message says so); those already
   *     started are closed
   */
  public static List<GdbDebugger> start(int size, GdbOptions options) throws IOException {
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(size, PARALLEL));
    List<Future<GdbDebugger>> starting = new ArrayList<>(size);
    for (int rank = 0; rank < size; rank++) {
      int r = rank;
      starting.add(pool.submit(() -> startOne(r, size, options)));
    }
    pool.shutdown();
    List<GdbDebugger> started = new ArrayList<>(size);
    IOException failure = null;
    for (Future<GdbDebugger> f : starting) {
      try {
        started.add(f.get(60, TimeUnit.SECONDS));
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

  private static GdbDebugger startOne(int rank, int size, GdbOptions options) throws Exception {
    GdbDebugger gdb = GdbDebugger.start(options);
    try {
      gdb.cli("set environment SDM_RANK=" + rank).get(30, TimeUnit.SECONDS);
      gdb.cli("set environment SDM_SIZE=" + size).get(30, TimeUnit.SECONDS);
      return gdb;
    } catch (Exception e) {
      gdb.close();
      throw e;
    }
  }
}
