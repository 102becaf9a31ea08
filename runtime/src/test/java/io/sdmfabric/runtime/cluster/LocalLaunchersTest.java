package io.sdmfabric.runtime.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.runtime.agent.AgentCommand;
import io.sdmfabric.runtime.launch.RankShim;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocalLaunchersTest {
  @Test
  void knowsTheLaunchersByTheirNamesOrTheirExecutables() {
    assertTrue(LocalLaunchers.isLauncher("mpirun", "/usr/bin/orterun"));
    assertTrue(LocalLaunchers.isLauncher("/opt/ompi5/bin/prterun", ""));
    assertTrue(LocalLaunchers.isLauncher("mpiexec", "/usr/bin/mpiexec.hydra"));
    assertTrue(LocalLaunchers.isLauncher("./wrapper", "/usr/bin/mpiexec.hydra"));
    assertFalse(LocalLaunchers.isLauncher("srun", "/usr/bin/srun"));
    assertFalse(LocalLaunchers.isLauncher("mpirun-helper", "/usr/bin/python3"));
  }

  @Test
  void aLauncherOfSdmsAgentsOrOfItsRankShimIsSdmsOwn() {
    assertTrue(
        LocalLaunchers.startedBySdm(
            List.of(
                "mpirun", "java", "-cp", "sdm.jar", AgentCommand.class.getName(), "--size", "4")));
    List<String> shim = new ArrayList<>(List.of("mpirun", "-n", "2"));
    shim.addAll(RankShim.command("/tmp/spool", "/home/u/app", List.of("arg")));
    assertTrue(LocalLaunchers.startedBySdm(shim));
    assertFalse(LocalLaunchers.startedBySdm(List.of("mpirun", "-n", "2", "./app")));
  }
}
