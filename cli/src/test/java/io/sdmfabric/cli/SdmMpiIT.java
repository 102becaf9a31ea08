package io.sdmfabric.cli;

import static io.sdmfabric.cli.Sdm.contains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.Shell;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MPI programs debugged through the real launchers: mpirun (OpenMPI) and srun (Slurm with PMIx), an
 * agent JVM per node attaching gdb to each rank, and, where a test names {@code mpich:LAUNCHER},
 * the same under MPICH: its hydra as {@code mpirun}, or srun through Slurm's PMI-2 ({@link
 * Sdm.Mpi}). {@code dev/test} installs OpenMPI and MPICH and starts a private single-host Slurm for
 * them; without one, the tests of that launcher or MPI are skipped.
 */
@Tag("gdb")
@Tag("mpi")
@Tag("slurm")
class SdmMpiIT extends WithMpi {

  private static void needs(String launcher) {
    Sdm.assumeLauncher(launcher);
  }

  /**
   * Runs {@code sdm debug --launcher LAUNCHER --transport TRANSPORT -n 4 -- PROGRAM} with {@code
   * input} as its console, where PROGRAM is the MPI example {@code example}; it must exit with 0.
   */
  private static Sdm.Result debug(String launcher, String transport, String example, String input)
      throws Exception {
    return debug(launcher, transport, example, input, "16");
  }

  private static Sdm.Result debug(
      String launcher, String transport, String example, String input, String ranksPerGdb)
      throws Exception {
    return debug(launcher, transport, example, input, ranksPerGdb, List.of());
  }

  private static Sdm.Result debug(
      String launcher,
      String transport,
      String example,
      String input,
      String ranksPerGdb,
      List<String> options)
      throws Exception {
    Sdm.Mpi mpi = Sdm.Mpi.of(launcher);
    mpi.assume();
    List<String> args =
        new ArrayList<>(
            List.of(
                "debug",
                "--launcher",
                mpi.launcher(),
                "--transport",
                transport,
                "--ranks-per-gdb",
                ranksPerGdb,
                "-n",
                "4"));
    args.addAll(options);
    args.addAll(mpi.launcherOptions());
    args.addAll(List.of("--", mpi.example(example).toString()));
    Sdm.Result r = Sdm.runWithEnv(mpi.env(), input, args.toArray(String[]::new));
    assertEquals(0, r.exitCode(), r.toString());
    assertFalse(r.err().contains(PMI2_WARNING), "no warning where the plugin fits:\n" + r);
    return r;
  }

  /**
   * A Ctrl-C typed at sdm's prompt clears the line there. It must not reach the launcher, which
   * shares sdm's terminal: Open MPI's mpirun aborts its job on SIGINT. sdm runs on a real terminal
   * here, script(1)'s, where the terminal's Ctrl-C goes to its whole foreground process group.
   */
  @Test
  void aCtrlCAtThePromptLeavesTheJobUnderMpirunRunning() throws Exception {
    needs("mpirun");
    Assumptions.assumeTrue(Sdm.works("script", "--version"), "no script(1)");
    List<String> sdm =
        Sdm.command(
            "debug",
            "--launcher",
            "mpirun",
            "-n",
            "4",
            "--",
            Sdm.mpiExample("mpi_reduce").toString());
    Process p =
        new ProcessBuilder("script", "-qec", Shell.join(sdm), "/dev/null")
            .redirectErrorStream(true)
            .start();
    ProcessLines said = new ProcessLines(p);
    try (OutputStream typed = p.getOutputStream()) {
      said.awaitText("] loaded ", Duration.ofSeconds(120), "the program loaded");
      Thread.sleep(1000); // the prompt
      type(typed, "\u0003");
      Thread.sleep(1000);
      type(typed, "break combine\rrun\rwait 30\rprint mine\r");
      said.awaitText("[2] mine = -3", Duration.ofSeconds(120), "rank 2's value after the Ctrl-C");
      type(typed, "quit\r");
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), said.toString());
    } finally {
      Sdm.end(p);
    }
  }

  private static void type(OutputStream terminal, String keys) throws IOException {
    terminal.write(keys.getBytes(StandardCharsets.UTF_8));
    terminal.flush();
  }

  /** What sdm says of an MPICH program whose ranks srun would start each as a world of one. */
  private static final String PMI2_WARNING = "runs with MPICH, whose ranks find each other";

  @Test
  void anMpichProgramUnderSrunWithoutPmi2IsWarnedOfForItsRanksWouldNotMeet() throws Exception {
    Sdm.Mpi mpi = Sdm.Mpi.of("mpich:srun");
    mpi.assume();
    String program = mpi.example("mpi_reduce").toString();
    Sdm.Result r =
        Sdm.runWithEnv(
            mpi.env(), "quit\n", "debug", "--launcher", "srun", "-n", "2", "--", program);
    assertEquals(0, r.exitCode(), r.toString());
    assertTrue(
        r.err()
            .contains(
                "sdm: WARNING: "
                    + program
                    + " "
                    + PMI2_WARNING
                    + " under srun only through Slurm's pmi2 plugin"),
        r.toString());
    assertTrue(r.err().contains("Add --mpi=pmi2 to srun's options."), r.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"mpirun", "srun"})
  void theConsoleShowsWhoWaitsForWhomAndAnEmptyGraphWhenNoCallIsPending(String launcher)
      throws Exception {
    Sdm.Result r =
        debug(
            launcher,
            "tls-tcp",
            "mpi_reduce",
            "break combine\nrun\nwait 30\nwaits\n[0] next\n[1-3] continue\nwait 3\n"
                + "interrupt\nwait 30\nwaits\nquit\n");
    contains(r, "MPI waits: none");
    contains(r, "[1-3] MPI_Allreduce on MPI_COMM_WORLD (collective #1), waits for [0]");
    contains(
        r, "ranks 1-3 wait in MPI_Allreduce for rank 0, which is in combine at mpi_reduce.c:10");
  }

  /**
   * sdm's library wraps MPI_Allreduce with a function of that name: a breakpoint on it still stops
   * each rank once, in the MPI library, and continue runs the job to its end.
   */
  @Test
  void aBreakpointOnAnMpiCallStopsEachRankOnceThoughSdmsLibraryWrapsIt() throws Exception {
    Sdm.Result r =
        debug(
            "mpirun",
            "tls-tcp",
            "mpi_reduce",
            "break MPI_Allreduce\nrun\nwait 30\nbt\ncontinue\nwait 30\nprocs\nquit\n");
    assertEquals(1, r.out().split("stopped: breakpoint", -1).length - 1, r.toString());
    contains(r, "combine at mpi_reduce.c:10  [0-3]");
    contains(r, "[0-3] exited with code 0");
  }

  /**
   * An MPI program's ranks are attached at the end of MPI_Init, where sdm's library holds them (gdb
   * does not see MPI_Init load and unload its hundred libraries); with {@code --from-exec} at their
   * exec, and a breakpoint before MPI_Init stops them.
   */
  @ParameterizedTest
  @ValueSource(strings = {"mpirun", "mpich:mpirun", "srun"})
  void theRanksAreHeldAtTheEndOfMpiInitOrFromTheirExecWhenAsked(String launcher) throws Exception {
    Sdm.Result held =
        debug(launcher, "tls-tcp", "mpi_reduce", "bt\nbreak combine\nrun\nwait 30\nquit\n");
    contains(held, "[0-3] started by the launcher under sdm's rank shim, each held at the end of");
    contains(held, "  MPI_Init  [0-3]");
    contains(held, "[0-3] stopped: breakpoint 1 in combine at ");

    Sdm.Result fromExec =
        debug(
            launcher,
            "tls-tcp",
            "mpi_reduce",
            "break main\nrun\nwait 30\nbt\nquit\n",
            "16",
            List.of("--from-exec"));
    contains(fromExec, "[0-3] started by the launcher under sdm's rank shim\n");
    contains(fromExec, "[0-3] stopped: breakpoint 1 in main at ");
    assertFalse(fromExec.out().contains("MPI_Init"), fromExec.toString());
  }

  /**
   * Rank 1 sleeps before MPI_Init and the others wait for it there: none reaches the end of
   * MPI_Init, where sdm would hold it, so at half the wire-up each is attached where it is, and bt
   * shows where they hang. The wire-up leaves time for agent JVMs (srun's), which start on these 2
   * cores in a few seconds and count their half from their own start.
   */
  @ParameterizedTest
  @ValueSource(strings = {"mpirun", "mpich:mpirun", "srun"})
  void ranksThatDoNotReachTheEndOfMpiInitAreAttachedWhereTheyAre(String launcher) throws Exception {
    Sdm.Result r =
        debug(launcher, "tls-tcp", "mpi_late", "bt\nquit\n", "16", List.of("--wire-up", "30"));
    contains(r, "  sleep  [1]");
    contains(r, "  MPI_Init  [0,2,3]");
    assertFalse(r.err().contains("were not attached"), r.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"mpirun", "srun"})
  void theRankThatCrashesBeforeItsSendStopsWhereItCrashed(String launcher) throws Exception {
    Sdm.Result r =
        debug(launcher, "tls-tcp", "mpi_crash", "run\n[3] wait 30\n[3] bt\n[0-2] procs\nquit\n");
    contains(r, "[3] stopped: signal SIGSEGV in send_halo at mpi_crash.c:13");
    contains(r, "send_halo at mpi_crash.c:13  [3]");
    contains(r, "running");
  }

  @ParameterizedTest
  @ValueSource(strings = {"mpirun", "srun"})
  void theRanksOfAGdbThatDiesGoIntoErrorAndTheOthersGoOn(String launcher) throws Exception {
    // Two ranks to a gdb, in the order the ranks come: rank 2 shares its gdb with one other.
    // gdb's shell command runs sh as gdb's child: its $PPID is that rank's gdb.
    Sdm.Result r =
        debug(
            launcher,
            "tls-tcp",
            "mpi_reduce",
            "break combine\nrun\nwait 30\n[2] gdb shell kill -9 $PPID\nprint mine\nquit\n",
            "2");
    contains(r, "[2] error: gdb exited unexpectedly");
    java.util.Map<Integer, String> values = new java.util.TreeMap<>();
    RankSet lost = RankSet.empty();
    for (String line : r.out().lines().toList()) {
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("\\[([0-9,-]+)\\] (mine = .*|error: .*)").matcher(line);
      if (m.matches()) {
        RankSet ranks = RankSet.parse(m.group(1));
        if (m.group(2).startsWith("mine = ")) {
          ranks.forEach(rank -> values.put(rank, m.group(2)));
        } else {
          lost = lost.union(ranks);
        }
      }
    }
    assertEquals(2, lost.size(), "the ranks of one gdb are lost: " + r);
    assertTrue(lost.contains(2), r.toString());
    java.util.Map<Integer, String> expected = new java.util.TreeMap<>();
    for (int rank : new int[] {0, 1, 3}) {
      if (!lost.contains(rank)) {
        expected.put(rank, "mine = " + List.of(1, 2, -3, 4).get(rank));
      }
    }
    assertEquals(expected, values, r.toString());
  }

  @ParameterizedTest
  @CsvSource({
    "mpirun, tls-tcp",
    "srun, tls-tcp",
    // A job of this host alone under mpirun has no agents, so no transport: srun's agents are the
    // ones that talk over aeron-udp here.
    "srun, aeron-udp",
    "srun, insecure-tcp",
    "mpich:mpirun, tls-tcp",
    "mpich:srun, tls-tcp"
  })
  void theRankWithTheWrongContributionStandsOut(String launcher, String transport)
      throws Exception {
    Sdm.Result r =
        debug(
            launcher,
            transport,
            "mpi_reduce",
            "break combine\nrun\nwait 30\nprint mine\ncontinue\nwait 30\nquit\n");
    contains(r, "[0-3] breakpoint 1: combine at mpi_reduce.c:9");
    contains(r, "[0] mine = 1");
    contains(r, "[1] mine = 2");
    contains(r, "[2] mine = -3");
    contains(r, "[3] mine = 4");
    contains(r, "[0] total = 4, expected 10");
    // Ranks end at their own pace, so their exits may come in more than one group.
    assertEquals(
        4,
        r.out()
            .lines()
            .filter(l -> l.endsWith("exited with code 0"))
            .mapToInt(l -> RankSet.parse(l.substring(1, l.indexOf(']'))).size())
            .sum(),
        r.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"mpirun", "srun"})
  void noRankNorItsGdbHasTheSessionsSecretsInItsEnvironment(String launcher) throws Exception {
    // The agents read the session's keys from the shared sdm home and hold none in their
    // environment (with --secrets-in-clear they hold SDM_SECRET and SDM_KEYSTORE there); gdb, its
    // shell commands and the programs it starts must never: the program is the user's, but a secret
    // in its environment is one more copy for a core file or a /proc reader to find. Each rank's
    // environment is read from /proc where its gdb runs (on its node), not through a call into
    // the program: gdb 13 cannot call functions on this machine's CPUs with AMX ("Couldn't write
    // extended state status: Bad address").
    Sdm.Result r =
        debug(
            launcher,
            "tls-tcp",
            "mpi_reduce",
            "break combine\nrun\nwait 30\n"
                + "gdb python print('rank-env', ' '.join(sorted(v.split(b'=')[0].decode() for v in"
                + " open('/proc/%d/environ' % gdb.selected_inferior().pid, 'rb').read().split(b'\\0')"
                + " if v.startswith(b'SDM_'))))\n"
                + "gdb python print('agent-env', ' '.join(sorted(v.split(b'=')[0].decode() for v in"
                + " open('/proc/%d/environ' % __import__('os').getppid(), 'rb').read().split(b'\\0')"
                + " if v.startswith(b'SDM_'))) or '-')\n"
                + "gdb shell echo \"gdb-env=[$SDM_SECRET$SDM_KEYSTORE]\"\nquit\n");
    Matcher env = Pattern.compile("(?m)^\\[0-3\\] rank-env (.*)$").matcher(r.out());
    assertTrue(env.find(), "every rank's SDM_ variables, alike\n" + r);
    List<String> names = List.of(env.group(1).split(" "));
    // The shim's own variables are there: the check looks in the right place.
    assertTrue(names.contains("SDM_RANK"), r.toString());
    assertFalse(names.contains("SDM_SECRET"), r.toString());
    assertFalse(names.contains("SDM_KEYSTORE"), r.toString());
    // gdb's parent, the agent, holds no secret in its environment either.
    Matcher agent = Pattern.compile("(?m)^\\[0-3\\] agent-env (.*)$").matcher(r.out());
    assertTrue(agent.find(), "every agent's SDM_ variables, alike\n" + r);
    assertFalse(agent.group(1).contains("SDM_SECRET"), r.toString());
    assertFalse(agent.group(1).contains("SDM_KEYSTORE"), r.toString());
    // gdb's shell writes to gdb's own output, which the agent logs as a line that is not MI.
    assertTrue(r.err().contains("gdb-env=[]"), r.toString());
    assertFalse(r.err().matches("(?s).*gdb-env=\\[[^\\]].*"), r.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"mpirun", "srun"})
  void aSigtermWhileTheSessionClosesStillEndsTheWholeJob(String launcher) throws Exception {
    // A batch step's end: sdm gets SIGTERM, maybe while its session is closing already (here its
    // console's input has just ended). The JVM must not exit before what it started has ended.
    needs(launcher);
    Path out = Files.createTempFile("sdm-out", ".txt");
    Process sdm =
        new ProcessBuilder(
                Sdm.command(
                    "debug",
                    "--launcher",
                    launcher,
                    "-n",
                    "2",
                    "--",
                    Sdm.mpiExample("mpi_reduce").toString()))
            .redirectOutput(out.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    List<ProcessHandle> tree = new ArrayList<>(List.of(sdm.toHandle()));
    try {
      Sdm.await(
          () -> read(out).contains(" loaded ") || !sdm.isAlive(),
          Duration.ofMinutes(2),
          "the session to start");
      assertTrue(sdm.isAlive(), () -> read(out));
      sdm.descendants().forEach(tree::add);
      assertTrue(tree.size() > 1, "no launcher started");

      sdm.getOutputStream().close(); // the console's input ends: the session closes
      sdm.destroy(); // SIGTERM, while it does
      assertTrue(sdm.waitFor(60, TimeUnit.SECONDS), () -> read(out));
      Sdm.await(
          () -> tree.stream().noneMatch(ProcessHandle::isAlive),
          Duration.ofSeconds(60),
          "the processes the session started to end");
    } finally {
      sdm.descendants().forEach(tree::add);
      tree.forEach(ProcessHandle::destroyForcibly);
      Files.deleteIfExists(out);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "(" + e + ")";
    }
  }
}
