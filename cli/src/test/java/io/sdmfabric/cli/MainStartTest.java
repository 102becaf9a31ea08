package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What {@code Main} does before it parses a command line, to start sooner: which runs start an
 * embedded session's actor system early, and which subcommands a run's command line holds.
 */
class MainStartTest {
  private final PrintStream nowhere = new PrintStream(java.io.OutputStream.nullOutputStream());

  @Test
  void aDebugOnThisMachineStartsItsMasterEarly() {
    assertTrue(Main.opensEmbeddedSession(new String[] {"debug", "-n", "4", "./app"}));
    assertTrue(Main.opensEmbeddedSession(new String[] {"debug", "--json", "-x", "f", "./app"}));
    // The program's own words are not sdm's.
    assertTrue(
        Main.opensEmbeddedSession(new String[] {"debug", "-n", "2", "--", "./app", "--help"}));
  }

  @Test
  void aLaunchOrHelpOrAnotherCommandStartsNoMasterEarly() {
    assertFalse(
        Main.opensEmbeddedSession(
            new String[] {"debug", "--launcher", "mpirun", "-n", "4", "--", "./app"}));
    assertFalse(
        Main.opensEmbeddedSession(new String[] {"debug", "--launcher=srun", "-n", "4", "./app"}));
    assertFalse(Main.opensEmbeddedSession(new String[] {"debug", "--dvm=4711", "-n", "4", "./a"}));
    assertFalse(Main.opensEmbeddedSession(new String[] {"debug", "--help"}));
    assertFalse(Main.opensEmbeddedSession(new String[] {"debug", "-V", "./app"}));
    assertFalse(Main.opensEmbeddedSession(new String[] {"debug"}));
    assertFalse(Main.opensEmbeddedSession(new String[] {"stacks", "-n", "4", "./app"}));
    assertFalse(Main.opensEmbeddedSession(new String[] {"--verbose", "debug", "./app"}));
    assertFalse(Main.opensEmbeddedSession(new String[] {}));
  }

  @Test
  void aRunOfOneSubcommandHoldsThatOneAlone() {
    assertEquals(
        Set.of("debug"), Main.commandLine(nowhere, nowhere, "debug").getSubcommands().keySet());
    assertEquals(
        Set.of("jobs"), Main.commandLine(nowhere, nowhere, "jobs").getSubcommands().keySet());
  }

  @Test
  void aRunWithoutASubcommandHoldsThemAll() {
    Set<String> all =
        Set.of(
            "debug", "stacks", "attach", "agent", "connect", "listen", "relay", "dap", "jobs",
            "nodes");
    assertEquals(all, Main.commandLine(nowhere, nowhere, "--help").getSubcommands().keySet());
    assertEquals(all, Main.commandLine(nowhere, nowhere, "debg").getSubcommands().keySet());
    assertEquals(all, Main.commandLine(nowhere, nowhere).getSubcommands().keySet());
  }

  @Test
  void sdmsHelpStillListsEverySubcommand() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    Main.commandLine(print, print, "--help").usage(print);
    String help = out.toString(StandardCharsets.UTF_8);
    for (String name : new String[] {"debug", "stacks", "attach", "dap", "jobs", "nodes"}) {
      assertTrue(help.contains("  " + name), name + " in:\n" + help);
    }
  }

  @Test
  void aDebugsOptionsStayItsOwnWhenItIsAlone() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(err, true, StandardCharsets.UTF_8);
    int status = Main.execute(nowhere, print, "debug", "-n", "0", "./app");
    assertEquals(UsageError.STATUS, status);
    assertEquals(
        "sdm: -n needs at least one rank, not 0", err.toString(StandardCharsets.UTF_8).strip());
  }
}
