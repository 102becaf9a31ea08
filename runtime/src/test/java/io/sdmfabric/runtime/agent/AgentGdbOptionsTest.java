package io.sdmfabric.runtime.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sdmfabric.gdbmi.GdbOptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** An agent's gdbs read system libraries' debug files from where the master's command says. */
class AgentGdbOptionsTest {
  private static AgentCommand parsed(String... more) {
    AgentCommand agent = new AgentCommand(System.err);
    String[] base = {"--master", "127.0.0.1:2552", "--size", "4", "--attach", "12=0"};
    String[] args = new String[base.length + more.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(more, 0, args, base.length, more.length);
    new CommandLine(agent).parseArgs(args);
    return agent;
  }

  @Test
  void theDirectoryTheMasterPassesIsTheOneItsGdbsRead() {
    assertEquals(
        "/usr/lib/debug",
        parsed("--debug-file-directory", "/usr/lib/debug").gdbOptions().debugFileDirectory());
  }

  @Test
  void withoutOneTheyReadNoneUnlessTheirOwnEnvironmentNamesOne() {
    assumeTrue(
        System.getenv(GdbOptions.DEBUG_FILE_DIRECTORY_VARIABLE) == null,
        GdbOptions.DEBUG_FILE_DIRECTORY_VARIABLE + " is set for the tests");
    assertEquals("", parsed().gdbOptions().debugFileDirectory());
  }
}
