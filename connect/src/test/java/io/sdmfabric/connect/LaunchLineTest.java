package io.sdmfabric.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.runtime.launch.JobLauncher;
import io.sdmfabric.runtime.launch.LauncherFamily;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LaunchLineTest {
  @TempDir static Path dir;
  private static String app;

  @BeforeAll
  static void anExecutable() throws IOException {
    Path p = dir.resolve("app");
    Files.writeString(p, "#!/bin/sh\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    app = p.toString();
  }

  private static LaunchLine parse(String... words) {
    return LaunchLine.parse(List.of(words), Map.of());
  }

  @Test
  void srunWithItsOptionsTheRanksAndTheProgramsArguments() {
    LaunchLine l = parse("srun", "-p", "debug", "-n", "4", "--mpi=pmix", app, "-v", "in.dat");
    assertEquals(JobLauncher.SRUN, l.launcher());
    assertEquals(List.of("-p", "debug", "--mpi=pmix"), l.options());
    assertEquals(4, l.size());
    assertEquals(app, l.program());
    assertEquals(List.of("-v", "in.dat"), l.args());
  }

  @Test
  void everySpellingOfTheNumberOfRanks() {
    for (List<String> n :
        List.of(
            List.of("-n", "8"),
            List.of("-n8"),
            List.of("-np", "8"),
            List.of("--np", "8"),
            List.of("--ntasks", "8"),
            List.of("--ntasks=8"))) {
      List<String> words = new java.util.ArrayList<>(List.of("mpirun"));
      words.addAll(n);
      words.add(app);
      assertEquals(8, LaunchLine.parse(words, Map.of()).size(), n.toString());
    }
  }

  @Test
  void aLauncherNamedByItsPathIsOfTheFamilyItsVersionSays() throws Exception {
    Path hydra = launcher("mpiexec", "HYDRA build details:\n    Version: 4.0.2");
    Path orte = launcher("mpirun", "mpirun (OpenRTE) 4.1.4");
    assertEquals(
        new JobLauncher(hydra.toString(), LauncherFamily.MPICH),
        parse(hydra.toString(), "-n", "2", app).launcher());
    assertEquals(
        new JobLauncher(orte.toString(), LauncherFamily.OPEN_MPI),
        parse(orte.toString(), "-n", "2", app).launcher());
  }

  @Test
  void aLauncherOfNoKnownFamilySaysWhatItFound() throws Exception {
    Path qsub = launcher("qsub", "pbs_version = 22.05\nmore");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> parse(qsub.toString(), "-n", "2", app));
    assertTrue(e.getMessage().contains("\"pbs_version = 22.05\""), e.getMessage());
    assertTrue(e.getMessage().contains("--launcher-family"), e.getMessage());
  }

  /** A launcher named {@code name} (in a directory of its own) that prints {@code version}. */
  private Path launcher(String name, String version) throws Exception {
    Path d = Files.createTempDirectory(dir, name);
    Path p = d.resolve(name);
    Files.writeString(p, "#!/bin/sh\nprintf '%s\\n' '" + version.replace("\n", "' '") + "'\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    return p;
  }

  @Test
  void srunInsideAnAllocationTakesItsTasksFromTheEnvironment() {
    LaunchLine l = LaunchLine.parse(List.of("srun", app), Map.of("SLURM_NTASKS", "6"));
    assertEquals(6, l.size());
  }

  @Test
  void whatCannotBeLaunchedIsSaidPlainly() {
    assertEquals(
        "the launcher aprun is not on the PATH",
        assertThrows(IllegalArgumentException.class, () -> parse("aprun", "-n", "4", app))
            .getMessage());
    assertEquals(
        "give the number of ranks with -n in the launch command",
        assertThrows(IllegalArgumentException.class, () -> parse("mpirun", app)).getMessage());
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> parse("srun", "-n", "4", "./missing"))
            .getMessage()
            .startsWith("no program in the launch command"));
    assertEquals(
        "-n needs a number of ranks of at least 1, not zero",
        assertThrows(IllegalArgumentException.class, () -> parse("srun", "-n", "zero", app))
            .getMessage());
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> LaunchLine.parse(List.of(), Map.of()))
            .getMessage()
            .startsWith("no launch command"));
  }
}
