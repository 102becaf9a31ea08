package io.sdmfabric.runtime.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class LauncherFamilyTest {
  /** The first lines of {@code --version} as this machine's launchers print them (2026-11-27). */
  private static final String HYDRA =
      "HYDRA build details:\n    Version:                                 4.0.2\n"
          + "    Release Date:                            Thu Apr  7 12:34:45 CDT 2022\n";

  private static final String ORTE =
      "mpirun.openmpi (OpenRTE) 4.1.4\n\nReport bugs to http://www.open-mpi.org/community/help/\n";

  @Test
  void hydraOpenMpisOrteAndSlurmAreKnownByWhatTheirVersionSays() {
    assertEquals(LauncherFamily.MPICH, LauncherFamily.fromVersion("mpiexec", HYDRA));
    assertEquals(LauncherFamily.OPEN_MPI, LauncherFamily.fromVersion("mpirun", ORTE));
    assertEquals(
        LauncherFamily.MPICH,
        LauncherFamily.fromVersion(
            "mpirun", "Intel(R) MPI Library for Linux* OS, Version 2021.10 Build 20230619\n"));
    assertEquals(LauncherFamily.SLURM, LauncherFamily.fromVersion("srun", "slurm 22.05.8\n"));
  }

  @Test
  void openMpi5sMpirunAndPrtesPrterunAreOfPrrte() {
    // As Open MPI 5.0.7's mpirun and its prterun print them (2026-11-27).
    assertEquals(
        LauncherFamily.PRRTE,
        LauncherFamily.fromVersion("mpirun", "mpirun (Open MPI) 5.0.7\n\nReport bugs to ..."));
    assertEquals(
        LauncherFamily.PRRTE,
        LauncherFamily.fromVersion("prterun", "prterun (PRRTE) 3.0.8\n\nReport bugs to ..."));
  }

  @Test
  void anUnknownLauncherIsRefusedQuotingTheFirstLineOfItsVersion() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> LauncherFamily.fromVersion("./launch", "launch 1.0 by us\nsecond line"));
    assertEquals(
        "unknown launcher ./launch: its --version says \"launch 1.0 by us\";"
            + " name its family with --launcher-family openmpi|mpich|slurm|prrte",
        e.getMessage());
  }

  @Test
  void aFamilyIsNamedByItsOptionAndAWrongNameSaysWhich() {
    assertEquals(LauncherFamily.MPICH, LauncherFamily.named("mpich"));
    assertEquals(LauncherFamily.OPEN_MPI, LauncherFamily.named("OpenMPI"));
    assertThrows(IllegalArgumentException.class, () -> LauncherFamily.named("lam"));
  }

  @Test
  @Tag("mpi")
  void theInstalledLaunchersSayTheirFamily() {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/mpiexec.hydra")), "no MPICH here");
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/mpirun.openmpi")), "no Open MPI here");
    assertEquals(LauncherFamily.MPICH, LauncherFamily.of("mpiexec.hydra"));
    assertEquals(LauncherFamily.MPICH, LauncherFamily.of("/usr/bin/mpirun.mpich"));
    assertEquals(LauncherFamily.OPEN_MPI, LauncherFamily.of("mpirun.openmpi"));
  }

  @Test
  void aLauncherThatIsNotThereSaysSo() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> LauncherFamily.of("no-such-launcher-here"));
    assertEquals("the launcher no-such-launcher-here is not on the PATH", e.getMessage());
  }
}
