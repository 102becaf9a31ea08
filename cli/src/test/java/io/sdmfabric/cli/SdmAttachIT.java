package io.sdmfabric.cli;

import static io.sdmfabric.cli.Sdm.contains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.runtime.attach.RankEnvironment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code sdm attach} to MPI jobs that run under the real mpirun and srun, started by the test
 * without sdm: the merged stacks show every rank inside the example's loop, and after {@code
 * detach} or {@code quit} the job runs to its end and prints the right total; {@code kill} ends it.
 * Bad input gets a clear message. {@code dev/test} installs OpenMPI and starts a private
 * single-host Slurm; without them the tests of that launcher are skipped.
 */
@Tag("gdb")
@Tag("mpi")
@Tag("slurm")
class SdmAttachIT {
  private static final int RANKS = 4;

  private final List<Job> jobs = new ArrayList<>();
  private final List<Process> others = new ArrayList<>();

  @TempDir Path dir;

  @BeforeAll
  static void needsGdbAndMpi() {
    Sdm.assumeGdbAndMpi();
  }

  private static void needs(String launcher) {
    Sdm.assumeLauncher(launcher);
  }

  /** Ends what the test started (the leftover check matches the examples' processes too). */
  @AfterEach
  void nothingIsLeftBehind() throws Exception {
    for (Job job : jobs) {
      job.end();
    }
    for (Process p : others) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
    Sdm.assertNothingLeftBehind();
  }

  /** A job of an MPI example, started by its launcher in the background. */
  private final class Job {
    final String launcher;
    final Process process;
    final String program;
    final String name = "sdm-attach-it-" + ProcessHandle.current().pid() + "-" + jobs.size();
    final ProcessLines output;
    private final String ready;

    /** The file whose appearance ends a job of mpi_iterate ({@link Sdm#iterateUntil}). */
    final Path stop;

    /** mpi_iterate until {@link #stop}: started once every rank says it iterates. */
    Job(String launcher) throws IOException {
      this(launcher, Sdm.stopFile());
    }

    private Job(String launcher, Path stop) throws IOException {
      this(launcher, "mpi_iterate", Sdm.iterateUntil(stop), "iterating", stop);
    }

    /** {@code example} with {@code args}, started once a rank's line starts with {@code ready}. */
    Job(String launcher, String example, List<String> args, String ready) throws IOException {
      this(launcher, example, args, ready, Sdm.stopFile());
    }

    private Job(String launcher, String example, List<String> args, String ready, Path stop)
        throws IOException {
      this.stop = stop;
      this.ready = ready;
      Sdm.Mpi mpi = Sdm.Mpi.of(launcher);
      mpi.assume();
      this.launcher = mpi.launcher();
      this.program = mpi.example(example).toString();
      List<String> command = new ArrayList<>();
      if (mpi.mpich() && mpi.launcher().equals("mpirun")) {
        command.addAll(List.of("mpiexec.hydra", "-n", "" + RANKS, program));
      } else if (mpi.launcher().equals("mpirun")) {
        command.addAll(List.of("mpirun", "-n", "" + RANKS, program));
      } else if (mpi.mpich()) {
        command.addAll(
            List.of("srun", "-n", "" + RANKS, "--mpi=pmi2", "--job-name=" + name, program));
      } else {
        command.addAll(
            List.of("srun", "-n", "" + RANKS, "--mpi=pmix", "--job-name=" + name, program));
      }
      command.addAll(args);
      process = new ProcessBuilder(command).redirectErrorStream(true).start();
      jobs.add(this);
      output = new ProcessLines(process);
    }

    /** Waits until a rank says it is ready. */
    Job started() throws Exception {
      output.await(ready, Duration.ofSeconds(60), "the job did not start");
      return this;
    }

    /**
     * Every rank runs on without a debugger: its process is there, no tracer holds it, and it is
     * not stopped (asked a few times: a process just detached may take a moment to be scheduled).
     */
    void runsOnUntraced() throws Exception {
      List<ProcessHandle> ranks =
          ProcessHandle.allProcesses()
              .filter(p -> p.info().command().map(program::equals).orElse(false))
              .toList();
      assertEquals(RANKS, ranks.size(), "the job's processes: " + ranks + "\n" + output);
      for (ProcessHandle p : ranks) {
        String status = "";
        for (int i = 0; i < 50; i++) {
          status = Files.readString(Path.of("/proc/" + p.pid() + "/status"));
          if (!status.matches("(?s).*\nState:\\s*[tT].*")) {
            break;
          }
          Thread.sleep(100);
        }
        assertTrue(status.matches("(?s).*\nTracerPid:\\s*0\n.*"), p.pid() + ": " + status);
        assertTrue(status.matches("(?s).*\nState:\\s*[RS].*"), p.pid() + ": " + status);
      }
    }

    /** The ranks' processes, in rank order (mpirun's children that run the example). */
    List<Long> pids() throws IOException {
      List<ProcessHandle> ranks =
          process
              .descendants()
              .filter(p -> p.info().command().map(program::equals).orElse(false))
              .toList();
      assertEquals(RANKS, ranks.size(), "the job's processes: " + ranks);
      List<long[]> byRank = new ArrayList<>();
      for (ProcessHandle p : ranks) {
        byRank.add(new long[] {RankEnvironment.ofProcess(p.pid()).rank(), p.pid()});
      }
      byRank.sort(Comparator.comparingLong(r -> r[0]));
      return byRank.stream().map(r -> r[1]).toList();
    }

    /** The Slurm job's id, as squeue knows it by the job's name. */
    String slurmJob() throws Exception {
      for (int i = 0; i < 100; i++) {
        Process q = new ProcessBuilder("squeue", "-h", "-n", name, "-o", "%i").start();
        String id = new String(q.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        q.waitFor(10, TimeUnit.SECONDS);
        if (!id.isEmpty()) {
          return id;
        }
        Thread.sleep(100);
      }
      throw new AssertionError("squeue does not know the job " + name);
    }

    /** Waits for the job's end; its launcher's exit code. */
    int await() throws Exception {
      assertTrue(process.waitFor(3, TimeUnit.MINUTES), "the job did not end:\n" + output);
      return process.exitValue();
    }

    /** Told to finish, it runs to its end, exit code 0, with the right total. */
    void finishesNormally() throws Exception {
      Sdm.stop(stop);
      assertEquals(0, await(), "the job did not end normally:\n" + output);
      assertTrue(Sdm.iteratedRight(output.toString()), "the job's output:\n" + output);
    }

    void end() throws Exception {
      if (launcher.equals("srun") && process.isAlive()) {
        new ProcessBuilder("scancel", "-n", name).start().waitFor(30, TimeUnit.SECONDS);
      }
      List<ProcessHandle> tree = process.descendants().toList();
      process.destroyForcibly();
      tree.forEach(ProcessHandle::destroyForcibly);
      process.waitFor(30, TimeUnit.SECONDS);
      for (ProcessHandle p : tree) {
        p.onExit().get(30, TimeUnit.SECONDS);
      }
    }
  }

  private static String list(List<Long> pids) {
    return String.join(",", pids.stream().map(String::valueOf).toList());
  }

  /** The merged stacks show every one of {@code ranks} in main's call of iterate, and in it. */
  private static void everyRankIterates(Sdm.Result r, RankSet ranks) throws IOException {
    contains(r, "main at mpi_iterate.c:" + Sdm.iterateCall() + "  [" + ranks + "]");
    RankSet inIterate = RankSet.empty();
    Matcher m =
        Pattern.compile("(?m)^  iterate at mpi_iterate\\.c:\\d+  \\[([^\\]]+)\\]$")
            .matcher(r.out());
    while (m.find()) {
      inIterate = inIterate.union(RankSet.parse(m.group(1)));
    }
    assertEquals(ranks, inIterate, r.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"mpirun", "mpich:mpirun"})
  void underMpirunAttachShowsEveryRankInTheLoopAndAfterDetachTheJobFinishesNormally(String launcher)
      throws Exception {
    Job job = new Job(launcher).started();
    Sdm.Result r =
        Sdm.run("bt\nprocs\ndetach\nprocs\nbt\nquit\n", "attach", "--batch", list(job.pids()));
    assertEquals(0, r.exitCode(), r.toString());
    contains(r, "[0-3] loaded " + job.program);
    everyRankIterates(r, RankSet.all(RANKS));
    assertTrue(r.out().matches("(?s).*\nstopped +\\S.*"), "procs shows them stopped:\n" + r);
    contains(r, "[0-3] detached");
    assertTrue(r.out().matches("(?s).*\ndetached +\\[0-3\\]\n.*"), "procs after detach:\n" + r);
    contains(r, "[0-3] error: detached: the process runs on without a debugger");
    job.finishesNormally();
  }

  @ParameterizedTest
  @ValueSource(strings = {"srun", "mpich:srun"})
  void underSrunAttachByJobStepShowsEveryRankAndQuitLeavesTheJobToFinish(String launcher)
      throws Exception {
    Job job = new Job(launcher).started();
    Sdm.Result r = Sdm.run("bt\nquit\n", "attach", "--batch", "--slurm", job.slurmJob());
    assertEquals(0, r.exitCode(), r.toString());
    everyRankIterates(r, RankSet.all(RANKS));
    contains(r, "[0-3] detached");
    job.finishesNormally();
  }

  /**
   * sdm stacks of the hanging mpi_deadlock, three samples: every place stuck, the job left as it
   * was.
   */
  private static void stuckInThreeSamples(Sdm.Result r) {
    assertEquals(0, r.exitCode(), r.toString());
    contains(r, "exchange at mpi_deadlock.c:8  [0,1]");
    contains(r, "wait_for_all at mpi_deadlock.c:12  [2,3]");
    assertTrue(r.out().contains("stuck in 3 samples"), r.toString());
    assertFalse(r.out().contains("progressing"), r.toString());
  }

  @Test
  void stacksOfAHangingJobStartedWithoutSdmSampledThreeTimesByPidAreStuckAndItRunsOn()
      throws Exception {
    Job job = new Job("mpirun", "mpi_deadlock", List.of(), "rank").started();
    Sdm.Result r = Sdm.run("", "stacks", "--samples", "3", "--interval", "300ms", list(job.pids()));
    stuckInThreeSamples(r);
    job.runsOnUntraced();
  }

  @Test
  void stacksOfAHangingJobStepSampledThreeTimesAreStuckAndItRunsOn() throws Exception {
    Job job = new Job("srun", "mpi_deadlock", List.of(), "rank").started();
    Sdm.Result r =
        Sdm.run(
            "",
            "stacks",
            "--samples",
            "3",
            "--interval",
            "300ms",
            "--format",
            "json",
            "--slurm",
            job.slurmJob());
    assertEquals(0, r.exitCode(), r.toString());
    contains(r, "\"func\":\"exchange\",\"file\":\"mpi_deadlock.c\",\"line\":8,\"ranks\":\"0,1\"");
    contains(r, "\"stuck\":\"0,1\",\"progressing\":\"\"");
    contains(r, "\"stuck\":\"2,3\",\"progressing\":\"\"");
    job.runsOnUntraced();
  }

  @Test
  void killEndsTheAttachedJob() throws Exception {
    Job job = new Job("mpirun").started();
    // A gdb per rank, the backend kept for comparison and as a fallback.
    Sdm.Result r =
        Sdm.run(
            "kill\nwait 30\nprocs\nquit\n",
            "attach",
            "--batch",
            "--ranks-per-gdb",
            "1",
            list(job.pids()));
    assertEquals(0, r.exitCode(), r.toString());
    int killed =
        r.out()
            .lines()
            .filter(l -> l.endsWith("killed by signal SIGKILL"))
            .mapToInt(l -> RankSet.parse(l.substring(1, l.indexOf(']'))).size())
            .sum();
    assertEquals(RANKS, killed, r.toString());
    assertFalse(r.out().contains("detached"), r.toString());
    assertNotEquals(0, job.await(), "mpirun ended normally after its ranks were killed");
    assertFalse(job.output.toString().contains("total ="), job.output.toString());
  }

  @Test
  void processesOfThisHostUnderTwoOfItsNamesAreAttachedTogether() throws Exception {
    Job job = new Job("mpirun").started();
    List<Long> pids = job.pids();
    String host = java.net.InetAddress.getLocalHost().getHostName();
    Sdm.Result r =
        Sdm.run(
            "bt\nquit\n",
            "attach",
            "--batch",
            "--json",
            pids.get(0) + "," + pids.get(1),
            host + ":" + pids.get(2) + "," + pids.get(3));
    assertEquals(0, r.exitCode(), r.toString());
    contains(r, "{\"event\":\"stacks\",\"ranks\":\"0-3\"");
    contains(r, "{\"event\":\"detached\",\"ranks\":\"0-3\"}");
    job.finishesNormally();
  }

  @Test
  void someRanksOfAJobAreAttachedAndTheOthersAnswerNotAttached() throws Exception {
    Job job = new Job("mpirun").started();
    List<Long> pids = job.pids();
    Sdm.Result r =
        Sdm.run(
            "bt\n[0-3] print 6*7\n[0-3] procs\nquit\n",
            "attach",
            "--batch",
            "--json",
            pids.get(1) + "," + pids.get(3));
    assertEquals(0, r.exitCode(), r.toString());
    contains(r, "{\"event\":\"stacks\",\"ranks\":\"1,3\"");
    contains(r, "{\"event\":\"error\",\"ranks\":\"0,2\",\"message\":\"not attached\"}");
    contains(r, "{\"event\":\"value\",\"ranks\":\"1,3\",\"expr\":\"6*7\",\"value\":\"42\"");
    contains(r, "{\"state\":\"detached\",\"location\":\"not attached\",\"ranks\":\"0,2\"}");
    contains(r, "{\"event\":\"detached\",\"ranks\":\"1,3\"}");
    job.finishesNormally();
  }

  @Test
  void processesOfAnotherHostAreAttachedThroughTheRemoteShell() throws Exception {
    // A remote shell that runs the command on this host as ssh would on another: through sh,
    // with none of this environment (the session's secret must come on standard input).
    Path rsh = dir.resolve("rsh");
    Files.writeString(rsh, "#!/bin/sh\nshift\nexec env -i PATH=\"$PATH\" sh -c \"$*\"\n");
    Files.setPosixFilePermissions(rsh, PosixFilePermissions.fromString("rwx------"));
    Job job = new Job("mpirun").started();
    List<Long> pids = job.pids();
    Sdm.Result r =
        Sdm.run(
            "bt\nquit\n",
            "attach",
            "--batch",
            "--rsh",
            rsh.toString(),
            "elsewhere.invalid:" + pids.get(2) + "," + pids.get(3),
            pids.get(0) + "," + pids.get(1));
    assertEquals(0, r.exitCode(), r.toString());
    everyRankIterates(r, RankSet.all(RANKS));
    contains(r, "[0-3] detached");
    job.finishesNormally();
  }

  /**
   * Starts {@code sdm attach --batch} on the job with its standard input left open, and waits until
   * it has attached every rank.
   */
  private Process attachedAndWaiting(Job job) throws Exception {
    Process sdm =
        new ProcessBuilder(Sdm.command("attach", "--batch", list(job.pids())))
            .redirectErrorStream(true)
            .start();
    others.add(sdm);
    new ProcessLines(sdm).await("[0-3] loaded ", Duration.ofMinutes(2), "sdm did not attach");
    return sdm;
  }

  @Test
  void sigtermToSdmDetachesEveryRankAndTheJobFinishesNormally() throws Exception {
    Job job = new Job("mpirun").started();
    Process sdm = attachedAndWaiting(job);
    sdm.destroy();
    assertTrue(sdm.waitFor(1, TimeUnit.MINUTES), "sdm did not end at SIGTERM");
    job.finishesNormally();
  }

  @Test
  void sdmKilledWithSigkillStillLeavesTheJobToFinish() throws Exception {
    Job job = new Job("mpirun").started();
    Process sdm = attachedAndWaiting(job);
    List<ProcessHandle> agents = sdm.descendants().toList();
    sdm.destroyForcibly();
    sdm.waitFor(1, TimeUnit.MINUTES);
    // The agent finds its master gone, ends, and its gdbs detach as they end.
    for (ProcessHandle p : agents) {
      p.onExit().get(1, TimeUnit.MINUTES);
    }
    job.finishesNormally();
  }

  /** A process that is not MPI's, or pretends to be a rank: {@code sleep} with that environment. */
  private Process sleeper(Map<String, String> env) throws IOException {
    ProcessBuilder b = new ProcessBuilder("sleep", "300");
    b.environment().putAll(env);
    Process p = b.start();
    others.add(p);
    return p;
  }

  @Test
  void aPidThatIsNotThereOrNotAnMpiRankIsRefusedClearly() throws Exception {
    long gone;
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor(10, TimeUnit.SECONDS);
    gone = ended.pid();
    Sdm.Result none = Sdm.run("", "attach", "--batch", Long.toString(gone));
    assertEquals(2, none.exitCode(), none.toString());
    assertTrue(none.err().contains("sdm: no process " + gone), none.toString());

    Process plain = sleeper(Map.of());
    Sdm.Result notMpi = Sdm.run("", "attach", "--batch", Long.toString(plain.pid()));
    assertEquals(2, notMpi.exitCode(), notMpi.toString());
    assertTrue(
        notMpi
            .err()
            .matches(
                "(?s).*sdm: process "
                    + plain.pid()
                    + " \\(.*sleep\\) has no MPI rank in its environment.*"),
        notMpi.toString());

    Process a = sleeper(Map.of("PMI_RANK", "0", "PMI_SIZE", "2"));
    Process b = sleeper(Map.of("PMI_RANK", "0", "PMI_SIZE", "2"));
    Sdm.Result twice = Sdm.run("", "attach", "--batch", a.pid() + "," + b.pid());
    assertEquals(2, twice.exitCode(), twice.toString());
    assertTrue(
        twice.err().contains("processes " + a.pid() + " and " + b.pid() + " both have rank 0"),
        twice.toString());
    assertTrue(a.isAlive() && b.isAlive() && plain.isAlive(), "sdm harmed a process");
  }

  @Test
  void aRankGdbCannotAttachAnswersWhyAndTheOthersAreDebugged() throws Exception {
    Process traced = sleeper(Map.of("PMI_RANK", "0", "PMI_SIZE", "2"));
    Process free = sleeper(Map.of("PMI_RANK", "1", "PMI_SIZE", "2"));
    // Another debugger holds rank 0: a process has one tracer at most.
    Process holder =
        new ProcessBuilder(
                "gdb", "-nx", "-q", "-batch", "-p", "" + traced.pid(), "-ex", "shell sleep 300")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    others.add(holder);
    for (int i = 0; i < 300 && tracer(traced.pid()) == 0; i++) {
      Thread.sleep(100);
    }
    assertNotEquals(0, tracer(traced.pid()), "the other debugger did not attach");
    Sdm.Result r =
        Sdm.run("bt\nprocs\nquit\n", "attach", "--batch", traced.pid() + "," + free.pid());
    assertEquals(0, r.exitCode(), r.toString());
    assertTrue(
        r.out()
            .matches(
                "(?s).*\\[0\\] error: rank 0: gdb could not attach to process "
                    + traced.pid()
                    + ": .*Operation not permitted.*"),
        r.toString());
    contains(r, "[1] loaded ");
    contains(r, "  [1]\n");
    assertTrue(r.out().matches("(?s).*\nerror +rank 0: gdb could not attach.*"), r.toString());
    contains(r, "[1] detached");
    assertTrue(free.isAlive() && traced.isAlive(), "sdm harmed a process");
  }

  private static long tracer(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", "" + pid, "status"))) {
      if (line.startsWith("TracerPid:")) {
        return Long.parseLong(line.substring("TracerPid:".length()).strip());
      }
    }
    return 0;
  }

  @Test
  void aSlurmJobStepThatDoesNotExistIsRefusedClearly() throws Exception {
    needs("srun");
    Sdm.Result r = Sdm.run("", "attach", "--batch", "--slurm", "99999999");
    assertEquals(2, r.exitCode(), r.toString());
    assertTrue(r.err().contains("sdm: no Slurm job step 99999999.0"), r.toString());
  }
}
