package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.ClusterMachine;
import io.sdmfabric.model.ClusterNode;
import io.sdmfabric.model.ClusterNodeState;
import io.sdmfabric.model.ClusterQueue;
import io.sdmfabric.model.JobStep;
import io.sdmfabric.model.LauncherJob;
import io.sdmfabric.model.QueuedJob;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What sdm jobs and sdm nodes print of given values (the ITs show them of the real Slurm's). */
class ClusterReportsTest {
  private static final JobStep STEP = new JobStep("12.0", "solver", "RUNNING", "n[1-2]", 2, 8);
  private static final QueuedJob RUNNING =
      new QueuedJob(
          "12",
          "evil\u001b]0;title\u0007",
          "ann",
          "RUNNING",
          "",
          "batch",
          "n[1-2]",
          2,
          8,
          Duration.ofSeconds(3725),
          List.of(new JobStep("12.batch", "batch", "RUNNING", "n1", 1, 1), STEP));

  @Test
  void eachRunningStepSaysHowToAttachAndSampleAndSlurmsTextIsEscaped() {
    String text = new JobsReport("ann", List.of(RUNNING), "", List.of()).text();
    assertEquals(
        String.join(
            "\n",
            "Slurm jobs of ann:",
            "  job 12 \"evil\\x1b]0;title\\x07\": RUNNING in batch, 2 nodes n[1-2], 8 tasks, 1:02:05",
            "    step 12.batch \"batch\": RUNNING, 1 node n1, 1 task",
            "    step 12.0 \"solver\": RUNNING, 2 nodes n[1-2], 8 tasks",
            "      attach: sdm attach --slurm 12.0",
            "      stacks: sdm stacks --slurm 12.0",
            "Jobs of mpirun, mpiexec and prterun on this host: none",
            ""),
        text);
  }

  @Test
  void aLauncherJobGetsAttachLinesOnlyWhenAllItsRanksAreHereAndUntraced() {
    List<String> command = List.of("mpirun", "-n", "2", "./app");
    LauncherJob whole =
        new LauncherJob(
            40,
            "mpirun",
            command,
            2,
            List.of(new LauncherJob.Rank(0, 41, 0), new LauncherJob.Rank(1, 42, 0)),
            false);
    LauncherJob half =
        new LauncherJob(50, "mpirun", command, 2, List.of(new LauncherJob.Rank(0, 51, 0)), false);
    String text =
        new JobsReport("ann", List.of(), "Slurm not found on this host", List.of(whole, half))
            .text();
    assertTrue(text.contains("Slurm jobs of ann: none (Slurm not found on this host)\n"), text);
    assertTrue(
        text.contains(
            "  mpirun 40: mpirun -n 2 ./app\n    ranks 0:41,1:42 (rank:pid)\n"
                + "    attach: sdm attach 41,42\n    stacks: sdm stacks 41,42\n"),
        text);
    assertTrue(
        text.contains("  mpirun 50: mpirun -n 2 ./app\n    ranks 0:51 (rank:pid), 1 of 2 here\n"),
        text);
    assertFalse(text.contains("sdm attach 51"), text);
  }

  @Test
  void theJsonHasTheHintsAndWithoutTimesItIsWhatWatchCompares() {
    JobsReport report = new JobsReport("ann", List.of(RUNNING), "", List.of());
    String json = ViewOptions.toJson(report.json(true));
    assertTrue(json.contains("\"seconds\":3725"), json);
    assertTrue(json.contains("\"name\":\"evil\\u001b]0;title\\u0007\""), json);
    assertTrue(
        json.contains(
            "\"attach\":\"sdm attach --slurm 12.0\",\"stacks\":\"sdm stacks --slurm 12.0\""),
        json);
    QueuedJob later =
        new QueuedJob(
            "12",
            RUNNING.name(),
            "ann",
            "RUNNING",
            "",
            "batch",
            "n[1-2]",
            2,
            8,
            Duration.ofSeconds(9999),
            RUNNING.steps());
    assertEquals(
        report.json(false), new JobsReport("ann", List.of(later), "", List.of()).json(false));
    assertFalse(
        report.json(true).equals(new JobsReport("ann", List.of(later), "", List.of()).json(true)));
  }

  @Test
  void nodesAreGroupedByStateInHostListsWithTheReasonsOfTheDrained() {
    ClusterMachine machine =
        new ClusterMachine(
            List.of(new ClusterQueue("batch", "UP", true, List.of("n1", "n2", "n3", "n4"))),
            List.of(
                new ClusterNode(
                    "n1", "ALLOCATED", ClusterNodeState.ALLOCATED, "", List.of("batch"), 4, 4),
                new ClusterNode(
                    "n2", "ALLOCATED", ClusterNodeState.ALLOCATED, "", List.of("batch"), 4, 4),
                new ClusterNode("n3", "IDLE", ClusterNodeState.IDLE, "", List.of("batch"), 4, 0),
                new ClusterNode(
                    "n4",
                    "IDLE+DRAIN",
                    ClusterNodeState.DRAINED,
                    "disk\u001b[2J",
                    List.of("batch"),
                    4,
                    0)));
    NodesReport report = new NodesReport(machine);
    assertEquals(
        String.join(
            "\n",
            "partition batch (default): UP, 4 nodes",
            "  idle        1  n3",
            "  allocated   2  n[1-2]",
            "  drained     1  n4",
            "node n4 is drained: disk\\x1b[2J",
            ""),
        report.text());
    String json = ViewOptions.toJson(report.json());
    assertTrue(
        json.startsWith(
            "{\"partitions\":[{\"name\":\"batch\",\"state\":\"UP\",\"default\":true,\"nodes\":\"n[1-4]\","
                + "\"byState\":{\"idle\":\"n3\",\"allocated\":\"n[1-2]\",\"drained\":\"n4\"}}]"),
        json);
  }
}
