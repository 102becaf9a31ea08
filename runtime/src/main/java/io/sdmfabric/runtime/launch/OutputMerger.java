package io.sdmfabric.runtime.launch;

import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.RankReply;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Merges the lines ranks write within a window: the same line from many ranks becomes one output
 * event naming them all, in the order lines first came. For output that reaches the master through
 * the job's launcher rather than through the tree.
 */
public final class OutputMerger implements AutoCloseable {
  private final Consumer<RankReply> sink;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "output-merger");
            t.setDaemon(true);
            return t;
          });
  private Map<String, RankSet.Builder> pending = new LinkedHashMap<>();

  public OutputMerger(Duration window, Consumer<RankReply> sink) {
    this.sink = sink;
    long ms = Math.max(1, window.toMillis());
    timer.scheduleWithFixedDelay(this::flush, ms, ms, TimeUnit.MILLISECONDS);
  }

  /** A line {@code rank} wrote, without its newline. */
  public synchronized void add(int rank, String line) {
    pending.computeIfAbsent(line, l -> RankSet.builder()).add(rank);
  }

  /** Passes on what is pending. */
  void flush() {
    Map<String, RankSet.Builder> lines;
    synchronized (this) {
      if (pending.isEmpty()) {
        return;
      }
      lines = pending;
      pending = new LinkedHashMap<>();
    }
    lines.forEach(
        (line, ranks) ->
            sink.accept(
                new RankReply(
                    ranks.build(),
                    EventBodies.event(
                        new DebugEvent.Output((line + "\n").getBytes(StandardCharsets.UTF_8))))));
  }

  @Override
  public void close() {
    timer.shutdownNow();
    flush();
  }
}
