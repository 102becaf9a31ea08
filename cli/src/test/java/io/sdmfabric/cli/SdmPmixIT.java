package io.sdmfabric.cli;

import static io.sdmfabric.cli.Sdm.contains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Jobs of Open MPI 5, whose mpirun is PRRTE's, started through the PMIx tool interface (use case
 * III, the indirect launch): sdm's tool helper starts the launcher paused, the ranks wait in
 * PMIx_Init, one agent per node is spawned as a PMIx debugger daemon and attaches to its node's
 * ranks, then they are released. Open MPI 5 is the one dev/test builds once into a cache ({@code
 * dev/lib/openmpi5.sh}, {@code $SDM_OPENMPI5}).
 */
@Tag("gdb")
@Tag("mpi")
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
    Sdm.assertNothingLeftBehind();
    assertEquals(List.of(), prrteLeftovers(), "PRRTE's or PMIx's processes left running");
  }

  /** This JVM's prte, prted, prterun or sdm_pmix processes still running. */
  private static List<String> prrteLeftovers() throws Exception {
    for (int i = 0; i < 100; i++) {
      List<String> found = new ArrayList<>();
      try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
        all.filter(p -> Sdm.ours(p.pid()))
            .forEach(
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
      return all.filter(p -> Sdm.ours(p.pid()))
          .flatMap(p -> p.info().command().stream())
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

  /** The MPI example {@code name}, built with Open MPI 5's mpicc. */
  private static Path example(String name) {
    return Sdm.mpiExample(name, prefix.resolve("bin/mpicc").toString(), "openmpi5");
  }

  /**
   * {@code sdm COMMAND} (debug or stacks, with {@code options}) of 4 ranks of the MPI example
   * {@code name} under Open MPI 5's mpirun, with {@code input} as its console; it must exit with 0.
   */
  private static Sdm.Result sdm(String command, String name, String input, String... options)
      throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                command,
                "--launcher",
                prefix.resolve("bin/mpirun").toString(),
                "--map-by",
                ":OVERSUBSCRIBE",
                "-n",
                "4"));
    args.addAll(List.of(options));
    args.addAll(List.of("--", example(name).toString()));
    Sdm.Result r = Sdm.runWithEnv(env(), input, args.toArray(String[]::new));
    assertEquals(0, r.exitCode(), r.toString());
    return r;
  }

  private static Sdm.Result debug(String name, String input) throws Exception {
    return sdm("debug", name, input);
  }

  @Test
  void underOpenMpi5TheJobStartsThroughPmixAndTheRankWithTheWrongContributionStandsOut()
      throws Exception {
    Sdm.Result r =
        debug(
            "mpi_reduce",
            "procs\nbreak combine\nrun\nwait 60\nprint mine\nbt\n"
                // Whose child each rank's gdb is: a job of this host alone has no agent JVM.
                + "gdb python print('gdb-of', 'an agent' if b'AgentCommand' in"
                + " open('/proc/%d/cmdline' % __import__('os').getppid(), 'rb').read()"
                + " else 'the master')\n"
                + "continue\nwait 60\nquit\n");
    contains(r, "[0-3] started by the launcher through the PMIx tool interface\n[0-3] loaded ");
    contains(r, "[0-3] gdb-of the master");
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

  /**
   * A program that is no PMIx client (no MPI) cannot wait in PMIx_Init: the launcher holds its
   * ranks stopped at their exec instead, and they are debugged from their first instruction.
   */
  /**
   * With {@code --from-exec} an MPI program's ranks are held at their exec, not in PMIx_Init: a
   * breakpoint at main, before MPI_Init, stops them.
   */
  @Test
  void fromExecHoldsTheRanksAtTheirExecAndABreakpointAtMainStopsThem() throws Exception {
    Sdm.Result r =
        sdm("debug", "mpi_reduce", "break main\nrun\nwait 60\nbt\nquit\n", "--from-exec");
    contains(r, "[0-3] stopped: breakpoint 1 in main at ");
    contains(r, "main at mpi_reduce.c:");
  }

  @Test
  void aProgramThatIsNoPmixClientIsHeldAtItsExecAndStopsAtItsBreakpoint() throws Exception {
    Sdm.Result r =
        Sdm.runWithEnv(
            env(),
            "break compute\nrun\nwait 60\nbt\ncontinue\nwait 60\nquit\n",
            "debug",
            "--launcher",
            prefix.resolve("bin/mpirun").toString(),
            "--map-by",
            ":OVERSUBSCRIBE",
            "-n",
            "4",
            "--",
            Sdm.example("ranks", true).toString());
    assertEquals(0, r.exitCode(), r.toString());
    contains(r, "[0-3] started by the launcher through the PMIx tool interface");
    contains(r, "[0-3] stopped: breakpoint 1 in compute at ");
    contains(r, "  compute at ranks.c:6  [0-3]");
    contains(r, "[0-3] exited with code 0");
    assertTrue(!r.out().contains("SIGSTOP"), "the hold at exec is no stop of the user's\n" + r);
  }

  @Test
  void stacksOfADeadlockStartedThroughPmixNameTheCycleOfSends() throws Exception {
    Sdm.Result r = sdm("stacks", "mpi_cycle", "", "--after", "10s");
    contains(r, "pass_on at mpi_cycle.c:12  [0-2]");
    contains(r, "MPI waits:");
    contains(r, "  [0] MPI_Send to 1, tag 7, waits for [1]");
    contains(r, "  [3] MPI_Barrier on MPI_COMM_WORLD (collective #1), waits for [0-2]");
    contains(r, "deadlock: 0 -> 1 -> 2 -> 0, MPI_Send to the next rank, tag 7");
  }

  /** sdm connect in front of Open MPI 5's launch command, accepted by sdm listen. */
  @Test
  void aReverseConnectRequestOfAnOpenMpi5JobIsDebuggedThroughPmix(
      @org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
    Path home =
        Files.createDirectory(
            tmp.resolve(".sdm"),
            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
    Map<String, String> env = env();
    env.put(io.sdmfabric.runtime.PrivateDirectory.HOME_ENV, home.toString());
    Path program = example("mpi_reduce");
    try (Sdm.Background job =
        new Sdm.Background(
            env,
            "connect",
            prefix.resolve("bin/mpirun").toString(),
            "--map-by",
            ":OVERSUBSCRIBE",
            "-n",
            "3",
            program.toString())) {
      Sdm.Result r =
          Sdm.runWithEnv(
              env,
              "requests wait 60\naccept\nbreak combine\nrun\nwait 60\nprint mine\nquit\n",
              "listen",
              "--batch");
      assertEquals(0, r.exitCode(), r.toString());
      contains(r, "[0-2] started by the launcher through the PMIx tool interface");
      contains(r, "[2] mine = -3");
      contains(r, "session 1 ended: the master ended the session: the job has ended");
      assertEquals(0, job.await().exitCode(), job.err());
    }
  }

  /**
   * A PRRTE DVM the user started ({@code prte}, in a temporary directory of its own), and jobs sdm
   * starts in it through its PMIx server (use case II): the wrong contribution is found; the DVM
   * serves on after the session, and the stacks of a deadlock started next name its cycle (that
   * second job's start heard the first's end, and took it for its own once); a job started in it
   * without sdm is attached by the DVM's URI and left to finish.
   */
  @Test
  void jobsStartedInARunningDvmAreHeldAttachedAndDebugged() throws Exception {
    Path tmp = Files.createTempDirectory("sdm-pmix-it-dvm");
    Map<String, String> env = env();
    env.put("PRTE_MCA_prte_tmpdir_base", tmp.toString());
    env.put("PMIX_SERVER_TMPDIR", tmp.toString());
    env.put("PMIX_SYSTEM_TMPDIR", tmp.toString());
    env.put("PRTE_MCA_rmaps_default_mapping_policy", ":oversubscribe");
    Path uri = tmp.resolve("dvm.uri");
    ProcessBuilder b =
        new ProcessBuilder(prefix.resolve("bin/prte").toString(), "--report-uri", uri.toString());
    b.environment().putAll(env);
    Process dvm = b.redirectErrorStream(true).start();
    try {
      java.io.BufferedReader said =
          new java.io.BufferedReader(
              new java.io.InputStreamReader(
                  dvm.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
      assertEquals("DVM ready", said.readLine());
      Sdm.Result r =
          Sdm.runWithEnv(
              env,
              "break combine\nrun\nwait 60\nprint mine\nquit\n",
              "debug",
              "--dvm",
              Long.toString(dvm.pid()),
              "-n",
              "4",
              "--",
              example("mpi_reduce").toString());
      assertEquals(0, r.exitCode(), r.toString());
      contains(r, "[0-3] started by the launcher through the PMIx tool interface");
      contains(r, "[2] mine = -3");
      assertTrue(dvm.isAlive(), "the DVM ended with the session");
      // The DVM serves on: the next job in it, a deadlock, with its wait-for graph.
      Sdm.Result stacks =
          Sdm.runWithEnv(
              env,
              "",
              "stacks",
              "--dvm",
              Long.toString(dvm.pid()),
              "-n",
              "4",
              "--after",
              "10s",
              "--",
              example("mpi_cycle").toString());
      assertEquals(0, stacks.exitCode(), stacks.toString());
      contains(stacks, "deadlock: 0 -> 1 -> 2 -> 0, MPI_Send to the next rank, tag 7");
      // A job started in it without sdm (prun), attached by the DVM's URI, left to finish.
      Path stop = Sdm.stopFile();
      List<String> prunCommand =
          new ArrayList<>(
              List.of(
                  prefix.resolve("bin/prun").toString(),
                  "--pid",
                  Long.toString(dvm.pid()),
                  "-n",
                  "4",
                  example("mpi_iterate").toString()));
      prunCommand.addAll(Sdm.iterateUntil(stop));
      ProcessBuilder prun = new ProcessBuilder(prunCommand).redirectErrorStream(true);
      prun.environment().putAll(env);
      Process job = prun.start();
      try {
        java.io.BufferedReader jobSaid =
            new java.io.BufferedReader(
                new java.io.InputStreamReader(
                    job.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
        assertTrue(jobSaid.readLine().startsWith("iterating"), "the job did not start");
        // As for a user of the DVM, its prte is on the PATH: sdm speaks that PMIx to a URI.
        Map<String, String> withPrte = new HashMap<>(env);
        withPrte.put("PATH", prefix.resolve("bin") + ":" + System.getenv("PATH"));
        Sdm.Result attach =
            Sdm.runWithEnv(
                withPrte,
                "bt\nquit\n",
                "attach",
                "--batch",
                "--pmix",
                Files.readString(uri).strip());
        assertEquals(0, attach.exitCode(), attach.toString());
        contains(attach, "[0-3] attached to running processes");
        contains(attach, "main at mpi_iterate.c:" + Sdm.iterateCall() + "  [0-3]");
        Sdm.stop(stop);
        assertTrue(
            jobSaid.readLine().startsWith("total = "), "the job did not finish after the detach");
        assertTrue(job.waitFor(90, java.util.concurrent.TimeUnit.SECONDS));
      } finally {
        job.destroyForcibly();
      }
    } finally {
      ProcessBuilder end =
          new ProcessBuilder(
                  prefix.resolve("bin/pterm").toString(), "--pid", Long.toString(dvm.pid()))
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD);
      end.environment().putAll(env);
      end.start().waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
      if (!dvm.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
        dvm.destroyForcibly();
      }
      try (Stream<Path> all = Files.walk(tmp)) {
        all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Test
  void aFileInTheSharedTmpSurvivesAndNothingOfTheLaunchersIsLeftThere() throws Exception {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    Path planted = Files.createTempFile(tmp, "sdm-pmix-it-", ".survives");
    try {
      List<String> before = prrteEntries(tmp);
      // The session's run directory, as a rank's environment names it.
      Sdm.Result r =
          debug(
              "mpi_reduce",
              "break combine\nrun\nwait 60\n"
                  + "gdb python print('run-dir', ' '.join(v.decode()[19:] for v in"
                  + " open('/proc/%d/environ' % gdb.selected_inferior().pid, 'rb').read()"
                  + ".split(b'\\0') if v.startswith(b'PMIX_SYSTEM_TMPDIR=')))\n"
                  + "quit\n");
      assertTrue(Files.exists(planted), planted + " is gone");
      Matcher runDir = Pattern.compile("(?m)^\\[0-3\\] run-dir (\\S+)$").matcher(r.out());
      assertTrue(runDir.find(), "the ranks' PMIX_SYSTEM_TMPDIR\n" + r);
      Path own = Path.of(runDir.group(1));
      assertEquals(tmp, own.getParent(), r.toString());
      assertTrue(own.getFileName().toString().startsWith("sdm-pmix-"), r.toString());
      assertFalse(Files.exists(own, LinkOption.NOFOLLOW_LINKS), own + " is left");
      // What was there before may go meanwhile (another test's session, in another fork of the
      // suite, ending), and another fork's session has a run directory of its own there while it
      // runs: only what PRRTE or PMIx added outside any run directory must not stay.
      List<String> added =
          prrteEntries(tmp).stream()
              .filter(entry -> !before.contains(entry) && !entry.startsWith("sdm-pmix-"))
              .toList();
      assertEquals(List.of(), added, "PRRTE's or PMIx's files left in " + tmp);
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

  /**
   * A job of Open MPI 5 started without sdm, in a private temporary directory of its own (as the
   * test bed keeps PRRTE out of the shared /tmp), running until a line of its starts with {@code
   * ready}; closing it ends whatever is left of it.
   */
  private static final class RunningJob implements AutoCloseable {
    final Path tmp = Files.createTempDirectory("sdm-pmix-it-job");
    final Map<String, String> env = env();
    final Process launcher;
    final ProcessLines said;

    RunningJob(String example, String ready, String... args) throws Exception {
      env.put("PRTE_MCA_prte_tmpdir_base", tmp.toString());
      env.put("PMIX_SERVER_TMPDIR", tmp.toString());
      env.put("PMIX_SYSTEM_TMPDIR", tmp.toString());
      List<String> command =
          new ArrayList<>(
              List.of(
                  prefix.resolve("bin/mpirun").toString(),
                  "--map-by",
                  ":OVERSUBSCRIBE",
                  "-n",
                  "4",
                  example(example).toString()));
      command.addAll(List.of(args));
      ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
      b.environment().putAll(env);
      launcher = b.start();
      said = new ProcessLines(launcher);
      try {
        said.await(ready, java.time.Duration.ofSeconds(60), "the job did not start");
      } catch (AssertionError e) {
        close();
        throw e;
      }
    }

    /** sdm with {@code args} and {@code input}, in the job's environment. */
    Sdm.Result sdm(String input, String... args) throws Exception {
      return Sdm.runWithEnv(env, input, args);
    }

    String pid() {
      return Long.toString(launcher.pid());
    }

    @Override
    public void close() throws Exception {
      launcher.descendants().forEach(ProcessHandle::destroyForcibly);
      launcher.destroyForcibly();
      launcher.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
      try (Stream<Path> all = Files.walk(tmp)) {
        all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /**
   * A running job of Open MPI 5, attached through its launcher's PMIx server by the launcher's pid:
   * every rank shows in its loop, and after quit the job finishes normally.
   */
  @Test
  void aRunningJobIsAttachedThroughItsLaunchersPmixServerAndAfterQuitFinishesNormally()
      throws Exception {
    Path stop = Sdm.stopFile();
    try (RunningJob job =
        new RunningJob("mpi_iterate", "iterating", Sdm.iterateUntil(stop).toArray(String[]::new))) {
      Sdm.Result r = job.sdm("bt\nprocs\nquit\n", "attach", "--batch", "--pmix", job.pid());
      assertEquals(0, r.exitCode(), r.toString());
      contains(r, "[0-3] attached to running processes");
      contains(r, "(attached to running processes)");
      contains(r, "main at mpi_iterate.c:" + Sdm.iterateCall() + "  [0-3]");
      contains(r, "  iterate at mpi_iterate.c:");
      Sdm.stop(stop);
      assertTrue(
          job.launcher.waitFor(3, java.util.concurrent.TimeUnit.MINUTES),
          "the job did not end:\n" + job.said);
      assertEquals(0, job.launcher.exitValue(), job.said.toString());
      assertTrue(Sdm.iteratedRight(job.said.toString()), job.said.toString());
    }
  }

  /**
   * The stacks of a hanging job of Open MPI 5, sampled three times through its launcher's PMIx
   * server: every place stuck, and the job left as it was, hanging.
   */
  @Test
  void stacksOfAHangingJobSampledThroughItsLaunchersPmixServerAreStuckAndItRunsOn()
      throws Exception {
    try (RunningJob job = new RunningJob("mpi_deadlock", "rank")) {
      Sdm.Result r =
          job.sdm("", "stacks", "--samples", "3", "--interval", "300ms", "--pmix", job.pid());
      assertEquals(0, r.exitCode(), r.toString());
      contains(r, "exchange at mpi_deadlock.c:8  [0,1]");
      contains(r, "wait_for_all at mpi_deadlock.c:12  [2,3]");
      contains(r, "stuck in 3 samples");
      assertTrue(!r.out().contains("progressing"), r.toString());
      assertTrue(job.launcher.isAlive(), "the job ended:\n" + job.said);
    }
  }
}
