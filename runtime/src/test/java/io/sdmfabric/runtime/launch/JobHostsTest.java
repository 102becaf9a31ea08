package io.sdmfabric.runtime.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobHostsTest {
  @TempDir Path dir;

  @Test
  void mpirunsHostsComeFromItsHostOptionsAndHostFiles() throws Exception {
    Path hostfile = dir.resolve("hosts");
    Files.writeString(hostfile, "# the nodes\nnode1 slots=8\n\nnode2 slots=8 # second\n");
    assertEquals(
        List.of("a", "b"),
        JobHosts.of(JobLauncher.MPIRUN, List.of("--host", "a:4,b:4", "--oversubscribe"), Map.of()));
    assertEquals(
        List.of("node1", "node2"),
        JobHosts.of(JobLauncher.MPIRUN, List.of("--hostfile", hostfile.toString()), Map.of()));
    assertEquals(
        List.of("node1", "node2"),
        JobHosts.of(JobLauncher.MPIRUN, List.of("-machinefile=" + hostfile), Map.of()));
    assertEquals(
        List.of("n1", "n2"),
        JobHosts.of(JobLauncher.MPIRUN, List.of(), Map.of("SLURM_JOB_NODELIST", "n[1-2]")));
    assertEquals(
        List.of("node1", "node2"),
        JobHosts.of(JobLauncher.MPIRUN, List.of(), Map.of("PBS_NODEFILE", hostfile.toString())));
    assertEquals(List.of(), JobHosts.of(JobLauncher.MPIRUN, List.of("--oversubscribe"), Map.of()));
  }

  @Test
  void srunsHostsComeFromItsNodeListElseTheAllocation() {
    assertEquals(
        List.of("n1", "n2"),
        JobHosts.of(
            JobLauncher.SRUN, List.of("--nodelist=n[1-2]"), Map.of("SLURM_JOB_NODELIST", "x")));
    assertEquals(
        List.of("x1"),
        JobHosts.of(JobLauncher.SRUN, List.of("-N", "1"), Map.of("SLURM_JOB_NODELIST", "x1")));
    assertEquals(List.of(), JobHosts.of(JobLauncher.SRUN, List.of("-N", "2"), Map.of()));
  }

  @Test
  void hydrasHostsComeFromItsHostOptionsAndHostFilesWithoutTheirCounts() throws Exception {
    JobLauncher hydra = new JobLauncher("mpiexec", LauncherFamily.MPICH);
    Path hostfile = dir.resolve("hydra-hosts");
    Files.writeString(hostfile, "# nodes\nnode1:4\nnode2\n");
    assertEquals(List.of("a", "b"), JobHosts.of(hydra, List.of("-hosts", "a:2,b"), Map.of()));
    assertEquals(List.of("a"), JobHosts.of(hydra, List.of("--host", "a"), Map.of()));
    assertEquals(
        List.of("node1", "node2"),
        JobHosts.of(hydra, List.of("-f", hostfile.toString()), Map.of()));
    assertEquals(
        List.of("node1", "node2"),
        JobHosts.of(hydra, List.of("-machinefile", hostfile.toString()), Map.of()));
    assertEquals(
        List.of("n1", "n2"), JobHosts.of(hydra, List.of(), Map.of("SLURM_JOB_NODELIST", "n[1-2]")));
    // hydra takes its options with two dashes as well.
    assertEquals(
        List.of("node1", "node2"),
        JobHosts.of(hydra, List.of("--hostfile", hostfile.toString()), Map.of()));
  }
}
