package io.sdmfabric.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RankLimitsTest {
  private static final long NONE = Long.MAX_VALUE;

  @Test
  void saysHowManyTerminalsAreFreeWhenTheRanksNeedMore() {
    RankLimits limits = new RankLimits(4096, 64, 20_000, 100, NONE);

    String problem = limits.problem(4096, 16).orElseThrow();

    assertTrue(problem.startsWith("4,096 ranks need 4,096 pseudo-terminals"), problem);
    assertTrue(problem.contains("4,032 free (kernel.pty.max 4,096, 64 in use)"), problem);
    assertTrue(problem.contains("sysctl -w kernel.pty.max=8192"), problem);
  }

  @Test
  void acceptsAsManyRanksAsThereAreFreeTerminals() {
    assertEquals(Optional.empty(), new RankLimits(4096, 64, 20_000, 100, NONE).problem(4032, 16));
  }

  @Test
  void countsTwoFilesPerRankAndFivePerGdbAgainstTheOpenFileLimit() {
    // 1,000 ranks at 16 to a gdb: 2,000 + 5 * 63 + the margin of 256 = 2,571 files.
    RankLimits limits = new RankLimits(NONE, 0, 1024, 40, NONE);

    String problem = limits.problem(1000, 16).orElseThrow();

    assertTrue(problem.contains("about 2,571 open files"), problem);
    assertTrue(problem.contains("its limit is 1,024 with 40 open"), problem);
    assertEquals(Optional.empty(), new RankLimits(NONE, 0, 2611, 40, NONE).problem(1000, 16));
  }

  @Test
  void countsAProcessPerRankAndEightTasksPerGdbAgainstTheProcessLimit() {
    // 500 ranks at 16 to a gdb: 500 + 8 * 32 = 756.
    String problem = new RankLimits(NONE, 0, NONE, 0, 700).problem(500, 16).orElseThrow();

    assertTrue(problem.contains("about 756 processes and threads"), problem);
    assertEquals(Optional.empty(), new RankLimits(NONE, 0, NONE, 0, 756).problem(500, 16));
  }

  @Test
  void oneRankFitsOnTheMachineRunningTheTests() {
    // Reads /proc in full: Files.readString read "4" of kernel.pty.max's "4096".
    RankLimits here = RankLimits.current();

    assertEquals(Optional.empty(), here.problem(1, 1), here.toString());
  }

  @Test
  void failsTheStartWithTheProblemAsItsMessage() {
    RankLimits limits = new RankLimits(100, 90, NONE, 0, NONE);

    IOException e = assertThrows(IOException.class, () -> limits.check(16, 16));

    assertEquals(limits.problem(16, 16).orElseThrow(), e.getMessage());
  }
}
