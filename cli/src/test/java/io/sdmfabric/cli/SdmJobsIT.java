package io.sdmfabric.cli;

import static io.sdmfabric.cli.Sdm.contains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sdmfabric.model.HostList;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code sdm jobs} and {@code sdm nodes} against the test bed's Slurm (partition {@code nodes} of
 * node[1-4]), with a job of the test's running an MPI step on node1 and node2, one waiting for its
 * begin time, one completed; and a job of mpirun on this host. The lines they print to attach and
 * sample stacks work as printed. Every job the test made is cancelled, also on failure.
 */
@Tag("gdb")
@Tag("mpi")
@Tag("slurm")
@Tag("namespaces")
class SdmJobsIT {
  private final String name = "sdm-jobs-it-" + ProcessHandle.current().pid();
  private final Path stop = Sdm.stopFile();
  private final List<String> slurmJobs = new ArrayList<>();
  private final List<Process> processes = new ArrayList<>();

  public SdmJobsIT() throws Exception {}

  /**
   * The test bed's Slurm, without the nodes to itself: its jobs run beside the other classes' on
   * node1 and node2, which no test takes down (SdmNodesIT cuts node3 off), so that this class does
   * not wait for the node classes to end.
   */
  @BeforeAll
  static void theTestBedsSlurm() {
    Sdm.assumeGdbAndMpi();
    assumeTrue(
        System.getenv(OnTheTestNodes.NODES) != null,
        "no test nodes: dev/test starts four with dev/lib/nodes.sh (needs root and iproute2)");
  }

  private static Map<String, String> slurm() {
    return Map.of("SLURM_CONF", System.getenv("SDM_NODES_SLURM_CONF"));
  }

  /** Runs a Slurm command of the test bed's; its standard output. */
  private static String slurmCommand(String... command) throws Exception {
    ProcessBuilder b = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
    b.environment().putAll(slurm());
    Process p = b.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", command) + " did not end");
    assertEquals(0, p.exitValue(), String.join(" ", command) + ": " + out);
    return out.strip();
  }

  private Process start(String... command) throws Exception {
    ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
    b.environment().putAll(slurm());
    Process p = b.start();
    processes.add(p);
    return p;
  }

  /** The id of this test's job {@code jobName}, once squeue knows it in {@code state}. */
  private String awaitJob(String jobName, String state) throws Exception {
    String[] id = {""};
    Sdm.await(
        () -> {
          try {
            id[0] = slurmCommand("squeue", "-h", "-n", jobName, "-t", state, "-o", "%i");
            return !id[0].isEmpty();
          } catch (Exception e) {
            return false;
          }
        },
        Duration.ofSeconds(60),
        "job " + jobName + " " + state);
    slurmJobs.add(id[0]);
    return id[0];
  }

  @AfterEach
  void cancelEveryJobOfTheTest() throws Exception {
    Sdm.stop(stop);
    for (String job : slurmJobs) {
      // Whatever its state: scancel of an ended job fails, and the next must still be cancelled.
      ProcessBuilder cancel =
          new ProcessBuilder("scancel", job)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD);
      cancel.environment().putAll(slurm());
      cancel.start().waitFor(30, TimeUnit.SECONDS);
    }
    for (Process p : processes) {
      p.waitFor(60, TimeUnit.SECONDS);
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
    Sdm.assertNothingLeftBehind();
  }

  @Test
  void jobsShowsTheRunningPendingAndCompletedJobsWithTheirStepsNodesAndTasks() throws Exception {
    String program = Sdm.mpiExample("mpi_iterate").toString();
    List<String> run =
        new ArrayList<>(
            List.of(
                "srun",
                "-w",
                "node1,node2",
                "-N",
                "2",
                "-n",
                "4",
                "--mpi=pmix",
                "-J",
                name + "-run",
                program));
    run.addAll(Sdm.iterateUntil(stop));
    ProcessLines running = new ProcessLines(start(run.toArray(String[]::new)));
    running.await("iterating", Duration.ofSeconds(60), "the srun job did not start");
    String runId = awaitJob(name + "-run", "RUNNING");
    String runNodes = slurmCommand("squeue", "-h", "-j", runId, "-o", "%N");
    String laterId =
        slurmCommand(
            "sbatch",
            "--parsable",
            "--begin=now+1hour",
            "-N",
            "1",
            "-J",
            name + "-later",
            "--wrap",
            "true");
    slurmJobs.add(laterId);
    Process done = start("srun", "-w", "node1", "-N", "1", "-n", "1", "-J", name + "-done", "true");
    assertTrue(done.waitFor(60, TimeUnit.SECONDS), "srun true did not end");
    String doneId = awaitJob(name + "-done", "COMPLETED");
    String doneNode = slurmCommand("squeue", "-h", "-t", "all", "-j", doneId, "-o", "%N");

    Sdm.Result text = Sdm.runWithEnv(slurm(), "", "jobs");
    assertEquals(0, text.exitCode(), text.toString());
    contains(
        text,
        "  job "
            + runId
            + " \""
            + name
            + "-run\": RUNNING in nodes, 2 nodes "
            + runNodes
            + ", 4 tasks, ");
    contains(
        text,
        "    step "
            + runId
            + ".0 \""
            + name
            + "-run\": RUNNING, 2 nodes "
            + runNodes
            + ", 4 tasks\n"
            + "      attach: sdm attach --slurm "
            + runId
            + ".0\n"
            + "      stacks: sdm stacks --slurm "
            + runId
            + ".0\n");
    contains(
        text,
        "  job "
            + laterId
            + " \""
            + name
            + "-later\": PENDING (BeginTime) in nodes, 1 node, 1 task\n");
    contains(
        text,
        "  job "
            + doneId
            + " \""
            + name
            + "-done\": COMPLETED in nodes, 1 node "
            + doneNode
            + ", 1 task, ");

    Sdm.Result json = Sdm.runWithEnv(slurm(), "", "jobs", "--json");
    assertEquals(0, json.exitCode(), json.toString());
    List<?> jobs =
        (List<?>) ((Map<?, ?>) ((Map<?, ?>) Sdm.json(json.out())).get("slurm")).get("jobs");
    Map<?, ?> runJob = job(jobs, runId);
    assertEquals("RUNNING", runJob.get("state"));
    assertEquals(runNodes, runJob.get("nodes"));
    assertEquals(2L, runJob.get("nodeCount"));
    assertEquals(4L, runJob.get("tasks"));
    Map<?, ?> step = (Map<?, ?>) ((List<?>) runJob.get("steps")).get(0);
    assertEquals(runId + ".0", step.get("id"));
    assertEquals(4L, step.get("tasks"));
    assertEquals(runNodes, step.get("nodes"));
    assertEquals("sdm stacks --slurm " + runId + ".0", step.get("stacks"));
    assertEquals("PENDING", job(jobs, laterId).get("state"));
    assertEquals("BeginTime", job(jobs, laterId).get("reason"));
    assertEquals(List.of(), job(jobs, laterId).get("steps"));
    assertEquals("COMPLETED", job(jobs, doneId).get("state"));
    assertEquals(doneNode, job(jobs, doneId).get("nodes"));

    Sdm.Result nodes = Sdm.runWithEnv(slurm(), "", "nodes");
    assertEquals(0, nodes.exitCode(), nodes.toString());
    contains(nodes, "partition nodes (default): UP, 4 nodes\n");
    Sdm.Result nodesJson = Sdm.runWithEnv(slurm(), "", "nodes", "--json");
    Map<?, ?> partition =
        (Map<?, ?>) ((List<?>) ((Map<?, ?>) Sdm.json(nodesJson.out())).get("partitions")).get(0);
    assertEquals("node[1-4]", partition.get("nodes"));
    // The job's nodes are in use: mixed (it has 4 of their CPUs), or allocated when other tests'
    // jobs on the test bed take the rest; never idle. (Not --exclusive: other classes' jobs run on
    // these nodes at the same time, and would wait for them.)
    Map<?, ?> byState = (Map<?, ?>) partition.get("byState");
    for (String host : HostList.expand(runNodes)) {
      String state =
          byState.entrySet().stream()
              .filter(e -> HostList.expand((String) e.getValue()).contains(host))
              .map(e -> (String) e.getKey())
              .findFirst()
              .orElse("none");
      assertTrue(state.equals("mixed") || state.equals("allocated"), host + " is " + byState);
      assertTrue(
          nodes.out().lines().anyMatch(l -> l.startsWith("  " + state + " ") && l.contains("node")),
          nodes.toString());
    }

    // The line sdm jobs printed samples the running step.
    List<String> stacks = List.of(((String) step.get("stacks")).split(" "));
    Sdm.Result sampled =
        Sdm.runWithEnv(slurm(), "", stacks.subList(1, stacks.size()).toArray(String[]::new));
    assertEquals(0, sampled.exitCode(), sampled.toString());
    contains(sampled, "  [0-3]");
    contains(sampled, "iterate at mpi_iterate.c:");
  }

  @Test
  void aJobOfMpirunOnThisHostIsListedWithItsRanksAndItsAttachLineWorks() throws Exception {
    String program = Sdm.mpiExample("mpi_iterate").toString();
    List<String> command = new ArrayList<>(List.of("mpirun", "-n", "2", program));
    command.addAll(Sdm.iterateUntil(stop));
    Process mpirun = start(command.toArray(String[]::new));
    new ProcessLines(mpirun).await("iterating", Duration.ofSeconds(60), "mpirun did not start");
    List<Long> ranks =
        mpirun
            .descendants()
            .filter(p -> p.info().command().map(program::equals).orElse(false))
            .map(ProcessHandle::pid)
            .sorted()
            .toList();
    assertEquals(2, ranks.size(), "the ranks: " + ranks);

    Sdm.Result r = Sdm.runWithEnv(slurm(), "", "jobs");
    assertEquals(0, r.exitCode(), r.toString());
    contains(r, "  mpirun " + mpirun.pid() + ": mpirun -n 2 " + program + " ");
    String pids = ranks.get(0) + "," + ranks.get(1);
    assertTrue(
        r.out().contains("0:" + ranks.get(0) + ",1:" + ranks.get(1) + " (rank:pid)\n")
            || r.out().contains("0:" + ranks.get(1) + ",1:" + ranks.get(0) + " (rank:pid)\n"),
        r.toString());
    String attach =
        r.out()
            .lines()
            .filter(
                l ->
                    l.contains("attach: sdm attach " + ranks.get(0))
                        || l.contains("attach: sdm attach " + ranks.get(1)))
            .findFirst()
            .orElseThrow(() -> new AssertionError(r.toString()));
    assertTrue(attach.endsWith(pids) || attach.endsWith(ranks.get(1) + "," + ranks.get(0)), attach);

    // The line printed attaches: bt of both ranks, and they run on when sdm quits.
    String target = attach.substring(attach.lastIndexOf(' ') + 1);
    Sdm.Result attached = Sdm.runWithEnv(slurm(), "bt\nquit\n", "attach", "--batch", target);
    assertEquals(0, attached.exitCode(), attached.toString());
    contains(attached, "[0,1] loaded " + program);
    contains(attached, "[0,1] detached");
  }

  private static Map<?, ?> job(List<?> jobs, String id) {
    return jobs.stream()
        .map(j -> (Map<?, ?>) j)
        .filter(j -> j.get("id").equals(id))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no job " + id + " in " + jobs));
  }
}
