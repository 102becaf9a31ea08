package io.sdmfabric.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StartProgress;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What the progress line of a start says, when it is drawn, and that it goes away. */
class ProgressLineTest {
  private static final String ERASE = "\r\033[K";

  /** A clock that moves only when told. */
  private static final class FakeClock {
    long nanos = 1_000_000_000L;

    void advance(Duration d) {
      nanos += d.toNanos();
    }
  }

  private final FakeClock clock = new FakeClock();
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final ProgressLine line =
      new ProgressLine(new PrintStream(bytes, true, StandardCharsets.UTF_8), () -> clock.nanos);

  private String written() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static String drawn(String text) {
    return "\r" + text + "\033[K";
  }

  @Test
  void aStartShorterThanASecondPrintsNothing() {
    line.update(new StartProgress.GdbsStarting(0, 64));
    clock.advance(Duration.ofMillis(500));
    line.update(new StartProgress.GdbsStarting(64, 64));
    line.refresh();
    clock.advance(Duration.ofMillis(400));
    line.update(new StartProgress.Loading(64));
    line.update(new StartProgress.Ready(64));
    clock.advance(Duration.ofSeconds(5));
    line.refresh();
    assertEquals("", written());
  }

  @Test
  void aLongStartShowsRanksHeldOutOfNAndWhatItWaitsFor() {
    line.update(new StartProgress.GdbsStarting(812, 1024));
    clock.advance(Duration.ofMillis(6300));
    line.refresh();
    assertEquals(drawn("starting 1024 ranks: 812 with a gdb, waiting for 212 (6 s)"), written());
  }

  @Test
  void joiningNamesTheRanksWaitedForWhenTheyAreFewAndCountsThemOtherwise() {
    assertEquals(
        "32 ranks: 24 joined, waiting for ranks 24-31 (2 s)",
        ProgressLine.text(
            new StartProgress.Joining(RankSet.range(24, 32), 32, 32), Duration.ofMillis(2500)));
    RankSet.Builder every3rd = RankSet.builder();
    for (int r = 0; r < 64; r += 3) {
      every3rd.add(r);
    }
    RankSet scattered = every3rd.build();
    assertEquals(
        "64 of 128 ranks: 42 joined, waiting for 22 ranks (3 s)",
        ProgressLine.text(new StartProgress.Joining(scattered, 64, 128), Duration.ofSeconds(3)));
    assertEquals(
        "16 ranks: all joined, building the tree (1 s)",
        ProgressLine.text(
            new StartProgress.Joining(RankSet.empty(), 16, 16), Duration.ofSeconds(1)));
  }

  @Test
  void aLaunchThatKnowsItsRanksOnlyOnceAllAreStartedSaysItWaitsForTheLauncher() {
    assertEquals(
        "starting 1024 ranks: waiting for the launcher to start them all (12 s)",
        ProgressLine.text(new StartProgress.Launching(1024), Duration.ofMillis(12_400)));
  }

  @Test
  void beforeAnyProgressItSaysTheSessionIsStarting() {
    clock.advance(Duration.ofMillis(1200));
    line.refresh();
    assertEquals(drawn("starting the session (1 s)"), written());
  }

  @Test
  void itIsDrawnAtMostFiveTimesASecond() {
    clock.advance(Duration.ofSeconds(2));
    for (int ready = 1; ready <= 50; ready++) {
      line.update(new StartProgress.GdbsStarting(ready, 100));
      clock.advance(Duration.ofMillis(10));
    }
    // 50 updates over 500 ms: drawn at 0, 200 and 400 ms.
    assertEquals(
        drawn("starting 100 ranks: 1 with a gdb, waiting for 99 (2 s)")
            + drawn("starting 100 ranks: 21 with a gdb, waiting for 79 (2 s)")
            + drawn("starting 100 ranks: 41 with a gdb, waiting for 59 (2 s)"),
        written());
  }

  @Test
  void itIsDrawnAgainOnlyWhenWhatItSaysHasChanged() {
    line.update(new StartProgress.GdbsStarting(64, 64));
    clock.advance(Duration.ofMillis(1100));
    line.refresh();
    clock.advance(Duration.ofMillis(300));
    line.refresh();
    clock.advance(Duration.ofMillis(700));
    line.refresh();
    assertEquals(
        drawn("starting 64 ranks: all have a gdb, starting the tree (1 s)")
            + drawn("starting 64 ranks: all have a gdb, starting the tree (2 s)"),
        written());
  }

  @Test
  void readyErasesTheLineForGoodAndLaterProgressDrawsNothing() {
    line.update(new StartProgress.Loading(64));
    clock.advance(Duration.ofSeconds(3));
    line.refresh();
    line.update(new StartProgress.Ready(64));
    clock.advance(Duration.ofSeconds(1));
    line.update(new StartProgress.Loading(64));
    line.refresh();
    line.erase();
    assertEquals(drawn("loading the program on 64 ranks (3 s)") + ERASE, written());
  }

  @Test
  void anErasedLineIsDrawnAgainAtTheNextRefreshButNotErasedTwice() {
    line.update(new StartProgress.Loading(8));
    clock.advance(Duration.ofSeconds(1));
    line.refresh();
    line.erase();
    line.erase();
    line.refresh();
    assertEquals(
        drawn("loading the program on 8 ranks (1 s)")
            + ERASE
            + drawn("loading the program on 8 ranks (1 s)"),
        written());
  }

  @Test
  void aLineWiderThanTheTerminalIsCut() {
    line.update(
        new StartProgress.Joining(RankSet.range(0, 1_999_999_999), 1_999_999_999, 2_000_000_000));
    clock.advance(Duration.ofDays(4000));
    line.refresh();
    String text = written();
    assertEquals(ProgressLine.MAX_WIDTH, text.length() - drawn("").length(), text);
    assertTrue(text.endsWith("... (345600000 s)\033[K"), text);
  }
}
