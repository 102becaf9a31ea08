package io.sdmfabric.runtime.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JobLauncherAgentsTest {
  @Test
  void mpirunsAgentsKeepTheHostsButPlaceOnePerNodeThemselves() {
    List<String> ranks =
        List.of(
            "--hostfile",
            "h",
            "--map-by",
            "ppr:2:node",
            "--bind-to=core",
            "-np",
            "8",
            "--mca",
            "plm_rsh_agent",
            "rsh");
    assertEquals(
        List.of(
            "mpirun",
            "--hostfile",
            "h",
            "--mca",
            "plm_rsh_agent",
            "rsh",
            "--map-by",
            "ppr:1:node",
            "--bind-to",
            "none",
            "-x",
            "S",
            "java",
            "agent"),
        JobLauncher.MPIRUN.agents(ranks, Optional.empty(), List.of("S"), List.of("java", "agent")));
  }
}
