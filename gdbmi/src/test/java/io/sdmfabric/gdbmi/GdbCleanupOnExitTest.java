package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Whatever happens to the JVM, gdb and the program end with it. */
@Tag("gdb")
class GdbCleanupOnExitTest {
  @Test
  void aJvmThatExitsWithoutClosingLeavesNoGdbAndNoProgram() throws Exception {
    assertNothingOutlives(false);
  }

  @Test
  void aJvmKilledWithSigkillLeavesNoGdbAndNoProgram() throws Exception {
    assertNothingOutlives(true);
  }

  private static void assertNothingOutlives(boolean kill) throws Exception {
    assumeTrue(TestPrograms.onPath("gdb"), "gdb is not installed");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process child =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                ExitWithoutClose.class.getName(),
                TestPrograms.get("values").toString(),
                kill ? "wait" : "exit")
            .redirectErrorStream(true)
            .start();
    try {
      BufferedReader lines =
          new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      String pidLine = "";
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.matches("\\d+ \\d+")) {
          pidLine = line;
          break;
        }
      }
      assertFalse(pidLine.isEmpty(), "the child printed no pids");
      if (kill) {
        child.destroyForcibly();
      }
      assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM did not exit");
      for (String pid : pidLine.split(" ")) {
        Optional<ProcessHandle> p = ProcessHandle.of(Long.parseLong(pid));
        if (p.isPresent()) {
          p.get().onExit().get(10, TimeUnit.SECONDS);
        }
      }
    } finally {
      child.destroyForcibly();
    }
  }
}
