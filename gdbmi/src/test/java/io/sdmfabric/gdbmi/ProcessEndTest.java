package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.sdmfabric.model.DebugEvent;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * How a process ended, read from {@code /proc} of real processes: zombies whose parent never reaps
 * them (a shell that execs into {@code sleep} after starting them, which end a moment later), one
 * that is gone, one that runs.
 */
class ProcessEndTest {
  @Test
  void anUnreapedProcessThatExitedHasItsExitCode() throws Exception {
    assertEquals(
        Optional.of(DebugEvent.Exited.withCode(5)),
        endOfChild("(sleep 0.2; exit 5) & echo $!; exec sleep 5"));
  }

  @Test
  void anUnreapedProcessThatASignalEndedHasItsSignal() throws Exception {
    assertEquals(
        Optional.of(DebugEvent.Exited.bySignal("SIGTERM")),
        endOfChild("sh -c 'sleep 0.2; kill -TERM $$' & echo $!; exec sleep 5"));
  }

  @Test
  void aReapedProcessEndedButHowIsLost() throws Exception {
    Process p = new ProcessBuilder("true").start();
    p.waitFor();
    assertEquals(Optional.of(DebugEvent.Exited.withStatusLost()), ProcessEnd.of(p.pid()));
  }

  @Test
  void aRunningProcessHasNotEnded() {
    assertEquals(Optional.empty(), ProcessEnd.of(ProcessHandle.current().pid()));
  }

  @Test
  void aCommandWithParenthesesAndSpacesIsSkippedWhole() {
    String fields = " 0".repeat(47);
    assertEquals(
        Optional.of(DebugEvent.Exited.withCode(3)),
        ProcessEnd.ofStat("42 (a (b) c) Z 1" + fields + " 768\n"));
  }

  /** The end of the child a shell script starts and prints the pid of, once it is a zombie. */
  private static Optional<DebugEvent.Exited> endOfChild(String script) throws Exception {
    Process shell = new ProcessBuilder("sh", "-c", script).start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(shell.getInputStream(), StandardCharsets.UTF_8))) {
      long pid = Long.parseLong(out.readLine().trim());
      for (int i = 0; i < 100; i++) {
        Optional<DebugEvent.Exited> end = ProcessEnd.of(pid);
        if (end.isPresent()) {
          return end;
        }
        Thread.sleep(20);
      }
      return fail("process " + pid + " never became a zombie");
    } finally {
      shell.destroyForcibly();
    }
  }
}
