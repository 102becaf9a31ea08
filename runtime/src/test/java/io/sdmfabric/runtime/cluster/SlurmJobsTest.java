package io.sdmfabric.runtime.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.JobStep;
import io.sdmfabric.model.QueuedJob;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * squeue --json and scontrol show step -o of Slurm 22.05.8, recorded with a job waiting for its
 * begin time (1), a job that completed (3), and a batch job running a step on two nodes (7).
 */
class SlurmJobsTest {
  /** When job 7, started at 1795798783, had run for 21 s. */
  private static final Instant NOW = Instant.ofEpochSecond(1795798783 + 21);

  private static List<QueuedJob> jobs() {
    return SlurmJobs.parseQueue(Recorded.text("squeue-22.05.json"), NOW);
  }

  @Test
  void readsEachJobWithItsStateNodesAndCounts() {
    List<QueuedJob> jobs = jobs();
    assertEquals(List.of("1", "3", "7"), jobs.stream().map(QueuedJob::id).toList());
    QueuedJob pending = jobs.get(0);
    assertEquals("later", pending.name());
    assertEquals("root", pending.user());
    assertEquals("PENDING", pending.state());
    assertEquals(QueuedJob.Phase.PENDING, pending.phase());
    assertEquals("BeginTime", pending.reason());
    assertEquals("nodes", pending.partition());
    assertEquals("", pending.nodes());
    assertEquals(1, pending.nodeCount());
    assertEquals(Duration.ZERO, pending.elapsed());
    QueuedJob running = jobs.get(2);
    assertEquals("batch y", running.name());
    assertEquals(QueuedJob.Phase.RUNNING, running.phase());
    assertEquals("", running.reason(), "Slurm's None is no reason");
    assertEquals("node[1-2]", running.nodes());
    assertEquals(2, running.nodeCount());
    assertEquals(4, running.tasks());
  }

  @Test
  void aRunningJobsTimeRunsToNowAndAnEndedJobsToItsEnd() {
    assertEquals(Duration.ofSeconds(21), jobs().get(2).elapsed());
    QueuedJob completed = jobs().get(1);
    assertEquals(QueuedJob.Phase.ENDED, completed.phase());
    assertEquals("COMPLETED", completed.state());
    assertEquals("node1", completed.nodes());
    assertEquals(Duration.ofSeconds(1), completed.elapsed());
  }

  @Test
  void readsTheStepsByJobTheBatchScriptsAndSrunsWithTheirNodesAndTasks() {
    Map<String, List<JobStep>> steps =
        SlurmJobs.parseSteps(Recorded.text("scontrol-show-step-22.05.txt"));
    assertEquals(
        Map.of(
            "7",
            List.of(
                new JobStep("7.batch", "batch", "RUNNING", "node1", 1, 1),
                new JobStep("7.0", "sleep", "RUNNING", "node[1-2]", 2, 2))),
        steps);
  }

  @Test
  void noStepsIsNoneAndANameWithSpacesIsKeptWhole() {
    assertEquals(Map.of(), SlurmJobs.parseSteps("No job steps in the system\n"));
    List<JobStep> steps =
        SlurmJobs.parseSteps(
                "StepId=9.0 UserId=0 State=RUNNING Partition=nodes NodeList=node[1-4] Nodes=4"
                    + " CPUs=8 Tasks=8 Name=my solver Network=(null)")
            .get("9");
    assertEquals(List.of(new JobStep("9.0", "my solver", "RUNNING", "node[1-4]", 4, 8)), steps);
  }

  @Test
  void squeuesErrorsAndOutputThatIsNotItsJsonAreRefusedWithWhy() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                SlurmJobs.parseQueue(
                    "{\"errors\":[{\"error\":\"Unable to contact slurm controller\",\"errno\":1}],"
                        + "\"jobs\":[]}",
                    NOW));
    assertEquals("Unable to contact slurm controller", e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> SlurmJobs.parseQueue("{\"errors\":[],\"jobs\":[{\"job_id\":1}]}", NOW));
    assertTrue(e.getMessage().contains("has no \"job_state\""), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> SlurmJobs.parseQueue("squeue: error", NOW));
    assertThrows(
        IllegalArgumentException.class,
        () -> SlurmJobs.parseSteps("StepId=9.0 State=RUNNING Nodes=two Tasks=1"));
  }
}
