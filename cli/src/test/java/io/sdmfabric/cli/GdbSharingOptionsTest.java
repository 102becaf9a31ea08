package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class GdbSharingOptionsTest {
  @Command(name = "t")
  static final class Holder {
    @Mixin GdbSharingOptions gdbs = new GdbSharingOptions();
  }

  private static GdbSharingOptions parse(String... args) {
    Holder h = new Holder();
    new CommandLine(h).parseArgs(args);
    return h.gdbs;
  }

  @Test
  void withoutTheOptionAGdbTakesMoreRanksInALargeJob() {
    assertEquals(16, parse().ranksPerGdb(1023));
    assertEquals(32, parse().ranksPerGdb(1024));
    assertEquals(16, parse().ranksPerGdb(), "a job of unknown size");
  }

  @Test
  void theNumberGivenHoldsAtEverySize() {
    assertEquals(8, parse("--ranks-per-gdb", "8").ranksPerGdb(4096));
    assertThrows(
        IllegalArgumentException.class, () -> parse("--ranks-per-gdb", "0").ranksPerGdb(4));
  }
}
