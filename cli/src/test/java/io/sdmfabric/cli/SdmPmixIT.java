package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Jobs of Open MPI 5, whose mpirun is PRRTE's, started through the PMIx tool interface (use case
 * III, the indirect launch): sdm's tool helper starts the launcher paused, the ranks wait in
 * PMIx_Init, one agent per node is spawned as a PMIx debugger daemon and attaches to its node's
 * ranks, then they are released. Open MPI 5 is the one dev/test builds once into a cache ({@code
 * dev/lib/openmpi5.sh}, {@code $SDM_OPENMPI5}).
 */
class SdmPmixIT {
  private static Path prefix;

  @BeforeAll
  static void needsOpenMpi5() {
    assumeTrue(Sdm.works("gdb", "--version"), "gdb is not installed");
    String dir = System.getenv("SDM_OPENMPI5");
    assumeTrue(
        dir != null && Files.isExecutable(Path.of(dir, "bin", "mpirun")),
        "no Open MPI 5 ($SDM_OPENMPI5: dev/test builds it once with dev/lib/openmpi5.sh)");
    prefix = Path.of(dir);
  }

  @AfterEach
  void nothingIsLeftBehind() throws Exception {
    for (int i = 0; i < 100 && !Sdm.leftovers().isEmpty(); i++) {
      Thread.sleep(100);
    }
    assertEquals(List.of(), Sdm.leftovers());
    assertEquals(List.of(), prrteLeftovers(), "PRRTE's or PMIx's processes left running");
  }

  /** prte, prted, prterun or sdm_pmix processes still running. */
  private static List<String> prrteLeftovers() throws Exception {
    for (int i = 0; i < 100; i++) {
      List<String> found = new ArrayList<>();
      try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
        all.forEach(
            p ->
                p.info()
                    .command()
                    .filter(c -> c.matches(".*/(prte|prted|prterun|sdm_pmix)$"))
                    .ifPresent(c -> found.add(p.pid() + " " + c)));
      }
      if (found.isEmpty()) {
        return found;
      }
      Thread.sleep(100);
    }
    try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
      return all.flatMap(p -> p.info().command().stream())
          .filter(c -> c.matches(".*/(prte|prted|prterun|sdm_pmix)$"))
          .toList();
    }
  }

  /** The environment Open MPI 5's launcher needs here: as root, its consent. */
  private static Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    if ("root".equals(System.getProperty("user.name"))) {
      env.putAll(
          Map.of(
              "PRTE_ALLOW_RUN_AS_ROOT", "1",
              "PRTE_ALLOW_RUN_AS_ROOT_CONFIRM", "1",
              "OMPI_ALLOW_RUN_AS_ROOT", "1",
              "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"));
    }
    return env;
  }

  /** {@code sdm debug} of 4 ranks of the MPI example {@code name} under Open MPI 5's mpirun. */
  private static Sdm.Result debug(String name, String input) throws Exception {
    Path program = Sdm.mpiExample(name, prefix.resolve("bin/mpicc").toString(), "openmpi5");
    Sdm.Result r =
        Sdm.runWithEnv(
            env(),
            input,
            "debug",
            "--launcher",
            prefix.resolve("bin/mpirun").toString(),
            "--map-by",
            ":OVERSUBSCRIBE",
            "-n",
            "4",
            "--",
            program.toString());
    assertEquals(0, r.exitCode(), r.toString());
    return r;
  }

  private static void contains(Sdm.Result r, String text) {
    assertTrue(r.out().contains(text), "missing \"" + text + "\" in\n" + r);
  }

  @Test
  void underOpenMpi5TheJobStartsThroughPmixAndTheRankWithTheWrongContributionStandsOut()
      throws Exception {
    Sdm.Result r =
        debug(
            "mpi_reduce",
            "procs\nbreak combine\nrun\nwait 60\nprint mine\nbt\ncontinue\nwait 60\nquit\n");
    contains(r, "[0-3] started by the launcher through the PMIx tool interface\n[0-3] loaded ");
    contains(r, "not_started ");
    contains(r, "(started by the launcher through the PMIx tool interface)");
    contains(r, "[0-3] stopped: breakpoint 1 in combine at ");
    contains(r, "[0] mine = 1");
    contains(r, "[1] mine = 2");
    contains(r, "[2] mine = -3");
    contains(r, "[3] mine = 4");
    contains(r, "main at mpi_reduce.c:19  [0-3]");
    // The ranks' output comes through PMIx, merged by rank.
    contains(r, "[0] total = 4, expected 10");
    contains(r, "[0-3] exited with code 0");
  }

  @Test
  void aFileInTheSharedTmpSurvivesAndNothingOfTheLaunchersIsLeftThere() throws Exception {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    Path planted = Files.createTempFile(tmp, "sdm-pmix-it-", ".survives");
    try {
      List<String> before = prrteEntries(tmp);
      debug("mpi_reduce", "break combine\nrun\nwait 60\nquit\n");
      assertTrue(Files.exists(planted), planted + " is gone");
      assertEquals(before, prrteEntries(tmp), "PRRTE's or PMIx's files left in " + tmp);
    } finally {
      Files.deleteIfExists(planted);
    }
  }

  /** What of PRRTE's, PMIx's or sdm's PMIx runs is in {@code dir}. */
  private static List<String> prrteEntries(Path dir) throws Exception {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries
          .map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("prte") || n.startsWith("pmix") || n.startsWith("sdm-pmix-"))
          .sorted()
          .toList();
    }
  }
}
