package io.sdmfabric.runtime.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SlurmMpiPluginTest {
  @Test
  void thePluginIsSrunsMpiOptionInEitherSpellingElseSlurmMpiType() {
    assertEquals(
        Optional.of("pmi2"), SlurmMpiPlugin.named(List.of("-N", "2", "--mpi=pmi2"), Map.of()));
    assertEquals(
        Optional.of("pmix_v4"),
        SlurmMpiPlugin.named(List.of("--mpi", "pmix_v4"), Map.of("SLURM_MPI_TYPE", "pmi2")));
    assertEquals(
        Optional.of("pmi2"), SlurmMpiPlugin.named(List.of(), Map.of("SLURM_MPI_TYPE", "pmi2")));
    assertEquals(Optional.empty(), SlurmMpiPlugin.named(List.of("--mpi"), Map.of()));
  }

  @Test
  void mpichTalksToPmi2AndCraysPluginAndToPmixOnlyWhenItLoadsLibpmix() {
    assertTrue(SlurmMpiPlugin.fits("pmi2", false));
    assertTrue(SlurmMpiPlugin.fits("cray_shasta", false));
    assertFalse(SlurmMpiPlugin.fits("pmix", false));
    assertTrue(SlurmMpiPlugin.fits("pmix_v4", true));
    assertFalse(SlurmMpiPlugin.fits("none", true));
  }

  @Test
  void slurmsDefaultIsReadFromScontrolsConfig() {
    String config =
        "Configuration data as of 2026-11-27T08:20:01\nMinJobAge               = 300\n"
            + "MpiDefault              = pmix\nMpiParams               = (null)\n";
    assertEquals(Optional.of("pmix"), SlurmMpiPlugin.mpiDefault(config));
    assertEquals(Optional.empty(), SlurmMpiPlugin.mpiDefault("slurm_load_ctl_conf error\n"));
  }
}
