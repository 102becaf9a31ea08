package io.sdmfabric.runtime.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
