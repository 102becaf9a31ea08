package io.sdmfabric.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link RefusalLog} on a clock the test moves. */
class RefusalLogTest {
  private final List<String> lines = new ArrayList<>();
  private final AtomicLong now = new AtomicLong(123_456_789L);
  private final RefusalLog refusals = new RefusalLog(lines::add, now::get);

  @Test
  void aFloodOfRefusalsIsOneLinePerIntervalCountingTheOthers() {
    for (int i = 0; i < 1000; i++) {
      refusals.refused("10.0.0.9:" + (40000 + i), "16 connections from its address are open");
      now.addAndGet(TimeUnit.MILLISECONDS.toNanos(5));
    }
    // 1000 refusals over 5 s: the first alone is shown.
    assertEquals(
        List.of("refused 10.0.0.9:40000: 16 connections from its address are open"), lines);
    now.addAndGet(RefusalLog.INTERVAL.toNanos());
    refusals.refused("10.0.0.7:50000", "256 connections are open already");
    assertEquals(
        "refused 10.0.0.7:50000: 256 connections are open already (and 999 refused since the"
            + " last such line, not shown: at most one line per 10 s)",
        lines.get(1));
    assertEquals(2, lines.size());
  }

  @Test
  void refusalsFarEnoughApartAreEachShown() {
    for (int i = 0; i < 3; i++) {
      refusals.refused("10.0.0.9:" + i, "full");
      now.addAndGet(RefusalLog.INTERVAL.toNanos());
    }
    assertEquals(
        List.of("refused 10.0.0.9:0: full", "refused 10.0.0.9:1: full", "refused 10.0.0.9:2: full"),
        lines);
  }
}
