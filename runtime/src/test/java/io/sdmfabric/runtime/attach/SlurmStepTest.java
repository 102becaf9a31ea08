package io.sdmfabric.runtime.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Slurm 22.05's answers, as recorded on this machine's private Slurm (dev/lib/cluster.sh). */
class SlurmStepTest {
  private static final String SHOW =
      "StepId=3.0 UserId=0 StartTime=2026-11-23T16:04:18 TimeLimit=UNLIMITED State=RUNNING"
          + " Partition=debug NodeList=node[1-2] Nodes=2 CPUs=4 Tasks=4 Name=my job"
          + " Network=(null) TRES=cpu=3,mem=0,node=1 ResvPorts=(null) CPUFreqReq=Default"
          + " Dist=Block SrunHost:Pid=vm:5307\n";

  private static final String LISTPIDS =
      String.join(
          "\n",
          "PID      JOBID    STEPID   LOCALID GLOBALID",
          "5331     3        0        0       0       ",
          "5332     3        0        1       1       ",
          "5340     3        0        1       1       ",
          "5333     3        0        2       2       ",
          "");

  @Test
  void aJobAloneMeansItsStepZero() {
    assertEquals(new SlurmStep("1234", "0"), SlurmStep.parse("1234"));
    assertEquals("1234.3", SlurmStep.parse("1234.3").id());
    assertEquals("77_5.1", SlurmStep.parse("77_5.1").id(), "an array job's task");
    for (String bad : List.of("", "x", "12.x", "12.", ".3", "1 2")) {
      assertThrows(IllegalArgumentException.class, () -> SlurmStep.parse(bad), bad);
    }
  }

  @Test
  void showStepGivesItsNodesAndTasks() throws Exception {
    assertEquals(new SlurmStep.Description("node[1-2]", 2, 4), SlurmStep.parseShow("3.0", SHOW));
  }

  @Test
  void aStepThatDoesNotRunIsRefused() {
    IOException e =
        assertThrows(
            IOException.class,
            () -> SlurmStep.parseShow("3.0", SHOW.replace("State=RUNNING", "State=COMPLETING")));
    assertEquals("Slurm job step 3.0 is COMPLETING", e.getMessage());
  }

  @Test
  void listpidsGivesEveryProcessWithItsTask() {
    assertEquals(
        List.of(
            new SlurmStep.Listed(5331, 0),
            new SlurmStep.Listed(5332, 1),
            new SlurmStep.Listed(5340, 1),
            new SlurmStep.Listed(5333, 2)),
        SlurmStep.parseListPids(LISTPIDS));
  }

  @Test
  void ofATaskRunningAShellAndItsProgramTheProgramIsTaken() {
    // Task 1 is a shell (5332) that started the program (5340).
    Map<Long, Long> parents = Map.of(5331L, 1L, 5332L, 1L, 5340L, 5332L, 5333L, 1L);
    assertEquals(
        List.of(
            new SlurmStep.Task(5331, 0), new SlurmStep.Task(5340, 1), new SlurmStep.Task(5333, 2)),
        SlurmStep.onePerTask(SlurmStep.parseListPids(LISTPIDS), parents::get));
  }
}
