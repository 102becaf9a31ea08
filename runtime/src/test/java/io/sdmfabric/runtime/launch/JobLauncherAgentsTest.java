package io.sdmfabric.runtime.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
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

  private static final JobLauncher HYDRA = new JobLauncher("mpiexec", LauncherFamily.MPICH);

  @Test
  void hydrasAgentsKeepTheHostsAndRunOnePerHost() {
    List<String> ranks =
        List.of(
            "-hosts",
            "a:2,b:2",
            "-ppn",
            "2",
            "--bind-to",
            "core",
            "-prepend-rank",
            "-launcher",
            "rsh",
            "-launcher-exec",
            "/t/rsh",
            "-genv",
            "A",
            "1");
    assertEquals(
        List.of(
            "mpiexec",
            "-hosts",
            "a:2,b:2",
            "-launcher",
            "rsh",
            "-launcher-exec",
            "/t/rsh",
            "-genv",
            "A",
            "1",
            "-n",
            "2",
            "-ppn",
            "1",
            "-genvlist",
            "S,K",
            "java",
            "agent"),
        HYDRA.agents(
            ranks, Optional.empty(), List.of("S", "K"), List.of("java", "agent"), Map.of()));
  }

  @Test
  void hydrasAgentWithNoHostsNamedIsOneHereAndExportsNothingWhenThereIsNothing() {
    assertEquals(
        List.of("mpiexec", "-n", "1", "-ppn", "1", "java"),
        HYDRA.agents(List.of("-n", "4"), Optional.empty(), List.of(), List.of("java"), Map.of()));
  }

  @Test
  void hydrasAgentsAreOnePerNodeOfTheBatchAllocation() {
    assertEquals(
        List.of("mpiexec", "-n", "3", "-ppn", "1", "java"),
        HYDRA.agents(
            List.of(),
            Optional.empty(),
            List.of(),
            List.of("java"),
            Map.of("SLURM_JOB_NODELIST", "n[1-3]")));
  }

  @Test
  void eachFamilyTagsTheRanksOutputInItsOwnOption() {
    List<String> shim = List.of("sh", "-c", "shim");
    assertEquals(
        List.of("mpiexec", "-f", "h", "-n", "4", "-prepend-rank", "sh", "-c", "shim"),
        HYDRA.ranks(List.of("-f", "h"), 4, shim));
    assertEquals(
        List.of("mpirun", "-n", "4", "--tag-output", "sh", "-c", "shim"),
        JobLauncher.MPIRUN.ranks(List.of(), 4, shim));
    assertEquals(
        List.of("srun", "-n", "4", "--label", "sh", "-c", "shim"),
        JobLauncher.SRUN.ranks(List.of(), 4, shim));
  }

  @Test
  void hydrasPrependedRankIsReadAndItsOwnLinesAreNot() {
    assertEquals(
        Optional.of(new JobLauncher.Tagged(12, "x = [1] 2")), HYDRA.untag("[12] x = [1] 2"));
    assertEquals(Optional.of(new JobLauncher.Tagged(0, "")), HYDRA.untag("[0] "));
    assertEquals(
        Optional.empty(),
        HYDRA.untag("[mpiexec@vm] match_arg (utils/args/args.c:163): unrecognized argument x"));
    assertEquals(Optional.empty(), HYDRA.untag("[proxy:0:0@vm] HYD_pmcd_pmip_control_cmd_cb"));
    assertEquals(Optional.empty(), HYDRA.untag("[1,0]<stdout>:hello"));
    assertEquals(
        Optional.of(new JobLauncher.Tagged(0, "hello")),
        JobLauncher.MPIRUN.untag("[1,0]<stdout>:hello"));
  }
}
