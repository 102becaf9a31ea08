package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.gdbmi.TestPrograms;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The progress of a start end to end, with real gdb: JSON {@code progress} events with {@code
 * --json}, and nothing of the terminal line when standard error is no terminal.
 */
@Tag("gdb")
class SdmStartProgressIT {

  @BeforeAll
  static void needsGdbAndGcc() throws Exception {
    TestPrograms.assumeGdbAndGcc();
  }

  @AfterEach
  void nothingIsLeftBehind() throws Exception {
    Sdm.assertNothingLeftBehind();
  }

  private static int indexOf(List<String> lines, String start, Sdm.Result r) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith(start)) {
        return i;
      }
    }
    throw new AssertionError("no line starting with " + start + "\n" + r);
  }

  @Test
  void jsonGetsTheStartsPhasesThenReadyBeforeTheProgramIsShownLoadedThenTheRunsStops()
      throws Exception {
    Sdm.Result r =
        Sdm.run(
            "break compute\nrun\nwait 60\nquit\n",
            "debug",
            "-n",
            "4",
            "--json",
            Sdm.example("ranks", true).toString());
    assertEquals(0, r.exitCode(), r.toString());
    List<String> lines = new ArrayList<>(r.out().lines().toList());
    int starting =
        indexOf(
            lines,
            "{\"event\":\"progress\",\"ranks\":\"0-3\",\"phase\":\"starting\",\"held\":0,"
                + "\"total\":4,\"elapsedMs\":",
            r);
    int loading =
        indexOf(
            lines,
            "{\"event\":\"progress\",\"ranks\":\"0-3\",\"phase\":\"loading\",\"total\":4,"
                + "\"elapsedMs\":",
            r);
    int ready =
        indexOf(
            lines,
            "{\"event\":\"progress\",\"ranks\":\"0-3\",\"phase\":\"ready\",\"total\":4,"
                + "\"elapsedMs\":",
            r);
    int loaded = indexOf(lines, "{\"event\":\"loaded\"", r);
    assertTrue(starting < loading && loading < ready && ready < loaded, r.toString());
    assertEquals(
        1, lines.stream().filter(l -> l.contains("\"phase\":\"ready\"")).count(), "one end:\n" + r);
    // The run to the breakpoint: it ends with every resumed rank stopped.
    int stopped =
        indexOf(
            lines,
            "{\"event\":\"progress\",\"ranks\":\"0-3\",\"phase\":\"running\",\"held\":4,"
                + "\"total\":4,\"elapsedMs\":",
            r);
    assertTrue(loaded < stopped, r.toString());
  }

  @Test
  void withoutATerminalNoLineIsDrawn() throws Exception {
    Sdm.Result r =
        Sdm.run(
            "break compute\nrun\nwait 60\nquit\n",
            "debug",
            "-n",
            "4",
            Sdm.example("ranks", true).toString());
    assertEquals(0, r.exitCode(), r.toString());
    assertTrue(r.out().contains("[0-3] loaded "), r.toString());
    assertFalse(r.out().contains("\r") || r.err().contains("\r"), r.toString());
    assertFalse(r.out().contains("\033[K") || r.err().contains("\033[K"), r.toString());
    assertFalse(r.out().contains("progress"), r.toString());
  }
}
