package io.sdmfabric.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Where log lines go: sdm's own to the console, a library's to the run's file (or, in an agent,
 * marked on its standard error, which its master puts in that file), and on the console with {@code
 * --verbose}.
 */
class LibraryLogTest {
  @TempDir Path home;

  private final ByteArrayOutputStream shown = new ByteArrayOutputStream();
  private final PrintStream console = new PrintStream(shown, true, StandardCharsets.UTF_8);

  @AfterEach
  void asConfigured() throws Exception {
    LibraryLog.toConsole();
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    new ContextInitializer(context).autoConfig();
  }

  @Test
  void sdmsLinesStayOnTheConsoleAndALibrarysGoToTheRunsFile() throws Exception {
    LibraryLog.toFile(home, console);
    LoggerFactory.getLogger("io.sdmfabric.master.Rendezvous").warn("ranks 4-7 lost");
    LoggerFactory.getLogger("org.apache.pekko.cluster.Cluster").warn("Marking node as UNREACHABLE");
    List<String> lines = shown.toString(StandardCharsets.UTF_8).lines().toList();
    assertEquals(2, lines.size(), lines.toString());
    assertTrue(lines.get(0).endsWith("i.s.m.Rendezvous - ranks 4-7 lost"), lines.get(0));
    Path file = onlyFile();
    assertEquals(
        "sdm: library logs of this run (Pekko, Aeron) are in "
            + file
            + " (--verbose shows them here)",
        lines.get(1));
    assertTrue(Files.readString(file).contains("Marking node as UNREACHABLE"));
    assertEquals("OFF", LibraryLog.pekkoStandardOutLevel(), "nor Pekko's own to standard output");
  }

  @Test
  void anAgentMarksEveryLineOfALibrarysLinesAndLeavesItsOwnAsTheyAre() {
    LibraryLog.marked(console);
    LoggerFactory.getLogger("org.apache.pekko.remote.artery.Association")
        .warn("irrecoverably failed", new IllegalStateException("quarantined"));
    LoggerFactory.getLogger("io.sdmfabric.gdbmi.GdbDriver").warn("gdb 12: killed");
    assertEquals("OFF", LibraryLog.pekkoStandardOutLevel(), "unmarked lines would be shown");
    List<String> lines = shown.toString(StandardCharsets.UTF_8).lines().toList();
    assertTrue(lines.size() > 3, lines.toString());
    List<String> library = lines.subList(0, lines.size() - 1);
    assertTrue(library.stream().allMatch(l -> l.startsWith(LibraryLog.MARK)), lines.toString());
    assertTrue(library.stream().anyMatch(l -> l.contains("quarantined")), lines.toString());
    assertTrue(
        lines.get(lines.size() - 1).endsWith("i.s.gdbmi.GdbDriver - gdb 12: killed"),
        lines.toString());
  }

  @Test
  void theMasterPutsAnAgentsMarkedLinesInTheRunsFileEscapedAndShowsItsOthers() throws Exception {
    LibraryLog.toFile(home, console);
    assertEquals(
        Optional.empty(), LibraryLog.agentLine("agent", LibraryLog.MARK + "WARN lost\u001b[2J"));
    assertEquals(
        Optional.of("sdm agent on node1: out of the session"),
        LibraryLog.agentLine("agent", "sdm agent on node1: out of the session"));
    assertEquals("[agent] WARN lost\\x1b[2J\n", Files.readString(onlyFile()));
  }

  @Test
  void verboseShowsALibrarysLinesAndAnAgentsOnTheConsoleAndMakesNoFile() throws Exception {
    LibraryLog.toFile(home, console);
    LibraryLog.toConsole();
    LoggerFactory.getLogger("org.apache.pekko.cluster.Cluster").warn("Marking node as UNREACHABLE");
    assertEquals(
        Optional.of("WARN lost"), LibraryLog.agentLine("agent", LibraryLog.MARK + "WARN lost"));
    assertTrue(shown.toString(StandardCharsets.UTF_8).contains("Marking node as UNREACHABLE"));
    assertTrue(Files.notExists(home.resolve("logs")));
    assertEquals("WARNING", LibraryLog.pekkoStandardOutLevel());
  }

  private Path onlyFile() throws Exception {
    try (var files = Files.list(home.resolve("logs"))) {
      List<Path> all = files.toList();
      assertEquals(1, all.size(), all.toString());
      return all.get(0);
    }
  }
}
