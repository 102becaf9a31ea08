package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --verbose} is sdm's, before or after the subcommand, and never the launcher's. */
class VerboseOptionTest {
  private final PrintStream nowhere = new PrintStream(java.io.OutputStream.nullOutputStream());

  @Test
  void everySubcommandTakesVerbose() {
    CommandLine sdm = Main.commandLine(nowhere, nowhere);
    assertNotNull(sdm.getCommandSpec().findOption("--verbose"));
    sdm.getSubcommands()
        .forEach(
            (name, sub) ->
                assertNotNull(sub.getCommandSpec().findOption("--verbose"), "sdm " + name));
  }

  @Test
  void verboseAmongTheLaunchersOptionsStaysSdms() {
    CommandLine debug = Main.commandLine(nowhere, nowhere).getSubcommands().get("debug");
    LauncherArgs split =
        LauncherArgs.split(
            debug.getCommandSpec(),
            List.of("-n", "2", "--oversubscribe", "--verbose", "--", "./app", "--verbose"));
    assertEquals(List.of("-n", "2", "--verbose", "--", "./app", "--verbose"), split.sdm());
    assertEquals(List.of("--oversubscribe"), split.launcher());
  }
}
