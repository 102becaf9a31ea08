package io.sdmfabric.runtime.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Slurm's commands run within a bound, and each failure is one line; run here with sh. */
class SlurmCommandTest {
  private final SlurmCommand command = new SlurmCommand(Duration.ofSeconds(30));

  @Test
  void givesTheOutputOfACommandThatSucceeds() throws IOException {
    assertEquals("ok\n", command.run(List.of("sh", "-c", "echo ok; echo noise >&2")));
  }

  @Test
  void aCommandThatIsNotThereIsSlurmNotFound() {
    IOException e =
        assertThrows(
            SlurmCommand.NotInstalled.class, () -> command.run(List.of("sdm-no-such-squeue")));
    assertEquals(
        "Slurm not found on this host (no sdm-no-such-squeue on the PATH)", e.getMessage());
  }

  @Test
  void aFailureIsOneLineWithSlurmsLastErrorLine() {
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                command.run(
                    List.of(
                        "sh",
                        "-c",
                        "echo 'sh: error: fetch_config: DNS SRV lookup failed' >&2;"
                            + " echo 'sh: fatal: Could not establish a configuration source' >&2;"
                            + " exit 1")));
    assertEquals("sh failed: fatal: Could not establish a configuration source", e.getMessage());
    e = assertThrows(IOException.class, () -> command.run(List.of("sh", "-c", "exit 3")));
    assertEquals("sh failed: exit status 3", e.getMessage());
  }

  @Test
  void aCommandThatDoesNotAnswerWithinTheBoundIsEndedAndReported() {
    long start = System.nanoTime();
    IOException e =
        assertThrows(
            IOException.class,
            () -> new SlurmCommand(Duration.ofSeconds(1)).run(List.of("sleep", "120")));
    assertTrue(e.getMessage().startsWith("sleep failed: no answer within 1 s"), e.getMessage());
    assertTrue(Duration.ofNanos(System.nanoTime() - start).toSeconds() < 60, "it waited for sleep");
  }
}
