package io.sdmfabric.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link RateLimitedLog} on a clock the test moves. */
class RateLimitedLogTest {
  private static final Duration INTERVAL = Duration.ofSeconds(10);

  private final List<String> lines = new ArrayList<>();
  private final AtomicLong now = new AtomicLong(987_654_321L);

  private RateLimitedLog log(int perInterval, int maxSources) {
    return new RateLimitedLog(
        lines::add, INTERVAL, perInterval, maxSources, "refused messages", now::get);
  }

  @Test
  void aFloodFromOneSourceIsItsFirstLinesThenOneCountPerInterval() {
    RateLimitedLog log = log(2, 4);
    for (int i = 0; i < 1000; i++) {
      log.log("a", "refused " + i);
      now.addAndGet(Duration.ofMillis(25).toNanos()); // 1000 over 25 s: three intervals
    }
    log.flushAll();
    assertEquals(
        List.of(
            "refused 0",
            "refused 1",
            "a: 398 more refused messages not shown (at most 2 lines per source every 10 s)",
            "refused 400",
            "refused 401",
            "a: 398 more refused messages not shown (at most 2 lines per source every 10 s)",
            "refused 800",
            "refused 801",
            "a: 198 more refused messages not shown (at most 2 lines per source every 10 s)"),
        lines);
  }

  @Test
  void eachSourceHasItsOwnLinesAndSourcesBeyondTheMostFollowedCountAsOne() {
    RateLimitedLog log = log(1, 3);
    for (int i = 0; i < 500; i++) {
      log.log("s" + i, "from s" + i); // a sender that names itself anew each time
    }
    assertEquals(List.of("from s0", "from s1", "from s2", "from s3"), lines);
    now.addAndGet(INTERVAL.toNanos());
    log.flush();
    assertEquals(
        "other sources: 496 more refused messages not shown (at most 1 line per source every 10"
            + " s)",
        lines.get(4));
    assertEquals(5, lines.size());
    log.log("s0", "s0 again, a new interval");
    assertEquals("s0 again, a new interval", lines.get(5));
  }

  @Test
  void linesFarEnoughApartAreEachShownAndNothingIsCounted() {
    RateLimitedLog log = log(1, 1);
    for (int i = 0; i < 3; i++) {
      log.log("a", "line " + i);
      now.addAndGet(INTERVAL.toNanos());
      log.flush();
    }
    log.flushAll();
    assertEquals(List.of("line 0", "line 1", "line 2"), lines);
  }

  @Test
  void noFloodWritesMoreThanItsBoundPerInterval() {
    int perInterval = 3;
    int maxSources = 8;
    RateLimitedLog log = log(perInterval, maxSources);
    long total = 0;
    for (int i = 0; i < 100_000; i++) {
      log.log("s" + (i % 50), "x");
      total++;
    }
    log.flushAll();
    assertTrue(lines.size() <= (maxSources + 1) * (perInterval + 1), lines.toString());
    long counted =
        lines.stream()
            .mapToLong(
                l -> l.equals("x") ? 1 : Long.parseLong(l.replaceAll("^.*: (\\d+) more.*$", "$1")))
            .sum();
    assertEquals(total, counted, "every line is shown or counted");
  }
}
