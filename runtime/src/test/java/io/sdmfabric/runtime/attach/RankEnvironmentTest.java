package io.sdmfabric.runtime.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RankEnvironmentTest {

  @Test
  void openMpiUnderMpirunGivesRankSizeAndItsPmixNamespace() {
    assertEquals(
        Optional.of(new RankEnvironment(2, 4, "1958674433")),
        RankEnvironment.of(
            Map.of(
                "OMPI_COMM_WORLD_RANK", "2",
                "OMPI_COMM_WORLD_SIZE", "4",
                "PMIX_RANK", "2",
                "PMIX_NAMESPACE", "1958674433")));
  }

  @Test
  void slurmWithoutPmixGivesTheTaskAndTheJobStep() {
    assertEquals(
        Optional.of(new RankEnvironment(5, 8, "77.0")),
        RankEnvironment.of(
            Map.of(
                "SLURM_PROCID", "5",
                "SLURM_NTASKS", "8",
                "SLURM_JOB_ID", "77",
                "SLURM_STEP_ID", "0")));
  }

  @Test
  void theFirstVariableFoundWinsAndAMissingSizeIsZero() {
    assertEquals(
        Optional.of(new RankEnvironment(3, 0, "")),
        RankEnvironment.of(Map.of("PMI_RANK", "3", "SLURM_PROCID", "9")));
    assertEquals(
        Optional.of(new RankEnvironment(1, 2, "")),
        RankEnvironment.of(Map.of("PMIX_RANK", "1", "PMI_SIZE", "2", "SLURM_NPROCS", "16")));
  }

  @Test
  void noRankVariableIsNoRank() {
    assertEquals(
        Optional.empty(), RankEnvironment.of(Map.of("HOME", "/root", "OMPI_COMM_WORLD_SIZE", "4")));
  }

  @Test
  void aValueThatIsNoNumberOrARankPastTheSizeIsRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> RankEnvironment.of(Map.of("OMPI_COMM_WORLD_RANK", "two")));
    assertThrows(
        IllegalArgumentException.class,
        () -> RankEnvironment.of(Map.of("PMI_RANK", "4", "PMI_SIZE", "4")));
    assertThrows(
        IllegalArgumentException.class, () -> RankEnvironment.of(Map.of("PMI_RANK", "-1")));
  }

  @Test
  void parsesProcEnvironNulSeparatedWithEqualsSignsInValues() {
    byte[] environ = "A=1\0B=x=y\0EMPTY=\0A=2\0".getBytes(StandardCharsets.UTF_8);
    assertEquals(Map.of("A", "1", "B", "x=y", "EMPTY", ""), RankEnvironment.parse(environ));
  }

  @Test
  void readsTheEnvironmentARealProcessWasStartedWith() throws Exception {
    ProcessBuilder b = new ProcessBuilder("sleep", "60");
    b.environment().put("OMPI_COMM_WORLD_RANK", "6");
    b.environment().put("OMPI_COMM_WORLD_SIZE", "7");
    Process p = b.start();
    try {
      assertEquals(new RankEnvironment(6, 7, ""), RankEnvironment.ofProcess(p.pid()));
      assertTrue(RankEnvironment.executable(p.pid()).endsWith("sleep"));
    } finally {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aProcessWithoutARankOrNotThereIsNamedInTheError() throws Exception {
    Process p = new ProcessBuilder("sleep", "60").start();
    try {
      IOException e = assertThrows(IOException.class, () -> RankEnvironment.ofProcess(p.pid()));
      assertTrue(
          e.getMessage().matches("process " + p.pid() + " \\(.*sleep\\) has no MPI rank .*"),
          e.getMessage());
    } finally {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
    IOException gone = assertThrows(IOException.class, () -> RankEnvironment.ofProcess(p.pid()));
    assertEquals("no process " + p.pid(), gone.getMessage());
  }
}
