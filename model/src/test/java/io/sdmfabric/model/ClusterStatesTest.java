package io.sdmfabric.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The normalized states of nodes, jobs and steps, and a queue's nodes grouped by them. */
class ClusterStatesTest {
  @Test
  void aNodesStateFoldsInTheFlagsAsSinfoWordsIt() {
    assertEquals(ClusterNodeState.IDLE, ClusterNodeState.of("idle", List.of()));
    assertEquals(ClusterNodeState.MIXED, ClusterNodeState.of("MIXED", List.of()));
    assertEquals(ClusterNodeState.ALLOCATED, ClusterNodeState.of("allocated", List.of()));
    assertEquals(ClusterNodeState.DRAINED, ClusterNodeState.of("idle", List.of("DRAIN")));
    assertEquals(ClusterNodeState.DRAINING, ClusterNodeState.of("mixed", List.of("DRAIN")));
    assertEquals(ClusterNodeState.DOWN, ClusterNodeState.of("down", List.of("DRAIN")));
    assertEquals(ClusterNodeState.DOWN, ClusterNodeState.of("idle", List.of("NOT_RESPONDING")));
    assertEquals(
        ClusterNodeState.COMPLETING, ClusterNodeState.of("allocated", List.of("COMPLETING")));
    assertEquals(ClusterNodeState.RESERVED, ClusterNodeState.of("idle", List.of("RESERVED")));
    assertEquals(ClusterNodeState.UNKNOWN, ClusterNodeState.of("weird", List.of()));
    assertEquals("drained", ClusterNodeState.DRAINED.word());
  }

  @Test
  void aJobsPhaseIsWhatSlurmsStateMeans() {
    assertEquals(QueuedJob.Phase.PENDING, QueuedJob.Phase.of("PENDING"));
    assertEquals(QueuedJob.Phase.RUNNING, QueuedJob.Phase.of("running"));
    assertEquals(QueuedJob.Phase.COMPLETING, QueuedJob.Phase.of("COMPLETING"));
    assertEquals(QueuedJob.Phase.ENDED, QueuedJob.Phase.of("CANCELLED"));
    assertEquals(QueuedJob.Phase.ENDED, QueuedJob.Phase.of("TIMEOUT"));
    assertEquals(QueuedJob.Phase.UNKNOWN, QueuedJob.Phase.of("NEW_STATE"));
  }

  @Test
  void onlyARunningNumberedStepRunsTasks() {
    assertEquals(true, new JobStep("12.0", "a", "RUNNING", "node1", 1, 1).runsTasks());
    assertEquals(false, new JobStep("12.batch", "b", "RUNNING", "node1", 1, 1).runsTasks());
    assertEquals(false, new JobStep("12.1", "a", "COMPLETING", "node1", 1, 1).runsTasks());
    assertEquals("batch", new JobStep("12.batch", "b", "RUNNING", "node1", 1, 1).step());
  }

  @Test
  void aQueuesNodesGroupByStateInTheStatesOrder() {
    ClusterQueue q = new ClusterQueue("batch", "UP", true, List.of("n1", "n2", "n3", "n4", "n5"));
    ClusterMachine m =
        new ClusterMachine(
            List.of(q),
            List.of(
                node("n1", ClusterNodeState.DOWN),
                node("n2", ClusterNodeState.IDLE),
                node("n3", ClusterNodeState.ALLOCATED),
                node("n4", ClusterNodeState.IDLE)));
    assertEquals(
        Map.of(
            ClusterNodeState.IDLE, List.of("n2", "n4"),
            ClusterNodeState.ALLOCATED, List.of("n3"),
            ClusterNodeState.DOWN, List.of("n1"),
            ClusterNodeState.UNKNOWN, List.of("n5")),
        m.nodesByState(q));
    assertEquals(
        List.of(
            ClusterNodeState.IDLE,
            ClusterNodeState.ALLOCATED,
            ClusterNodeState.DOWN,
            ClusterNodeState.UNKNOWN),
        List.copyOf(m.nodesByState(q).keySet()));
  }

  @Test
  void aLauncherJobIsAttachableWhenAllItsRanksAreHereAndNoneIsTraced() {
    LauncherJob.Rank r0 = new LauncherJob.Rank(0, 100, 0);
    LauncherJob.Rank r1 = new LauncherJob.Rank(1, 101, 0);
    List<String> mpirun = List.of("mpirun");
    assertEquals(
        true, new LauncherJob(99, "mpirun", mpirun, 2, List.of(r0, r1), false).attachable());
    assertEquals(
        false, new LauncherJob(99, "mpirun", mpirun, 4, List.of(r0, r1), false).attachable());
    assertEquals(
        true, new LauncherJob(99, "mpirun", mpirun, 4, List.of(r0, r1), false).ranks().size() == 2);
    assertEquals(false, new LauncherJob(99, "mpirun", mpirun, 0, List.of(), false).allRanksHere());
    LauncherJob.Rank traced = new LauncherJob.Rank(1, 101, 555);
    assertEquals(
        false, new LauncherJob(99, "mpirun", mpirun, 2, List.of(r0, traced), false).attachable());
    assertEquals(
        false, new LauncherJob(99, "mpirun", mpirun, 2, List.of(r0, r1), true).attachable());
  }

  @Test
  void aJobTakesItsStepsAsACopy() {
    QueuedJob job =
        new QueuedJob("7", "j", "u", "RUNNING", "", "p", "n1", 1, 1, Duration.ZERO, List.of());
    JobStep step = new JobStep("7.0", "j", "RUNNING", "n1", 1, 1);
    assertEquals(List.of(step), job.withSteps(List.of(step)).steps());
    assertEquals(QueuedJob.Phase.RUNNING, job.phase());
  }

  private static ClusterNode node(String name, ClusterNodeState state) {
    return new ClusterNode(name, state.name(), state, "", List.of("batch"), 4, 0);
  }
}
