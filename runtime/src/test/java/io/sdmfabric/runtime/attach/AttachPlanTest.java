package io.sdmfabric.runtime.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sdmfabric.model.RankSet;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AttachPlanTest {
  private static ProcessProbe.Found found(String host, long pid, int rank, int size, String job) {
    return new ProcessProbe.Found(host, pid, "/bin/app", new RankEnvironment(rank, size, job));
  }

  @Test
  void someRanksOfAJobByHost() throws Exception {
    AttachPlan plan =
        AttachPlan.of(
            List.of(
                found("localhost", 100, 5, 16, "j"),
                found("node2", 200, 9, 16, "j"),
                found("localhost", 101, 6, 16, "j")));
    assertEquals(16, plan.size());
    assertEquals(RankSet.of(5, 6, 9), plan.ranks());
    assertEquals(
        Map.of(
            "localhost",
            List.of(new AttachPlan.Rank(100, 5), new AttachPlan.Rank(101, 6)),
            "node2",
            List.of(new AttachPlan.Rank(200, 9))),
        plan.hosts());
  }

  @Test
  void withoutASizeTheJobIsAsLargeAsItsHighestRank() throws Exception {
    assertEquals(
        4, AttachPlan.of(List.of(found("h", 1, 3, 0, ""), found("h", 2, 0, 0, ""))).size());
  }

  @Test
  void twoProcessesWithOneRankAreRefused() {
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                AttachPlan.of(
                    List.of(found("localhost", 100, 2, 4, ""), found("node2", 200, 2, 4, ""))));
    assertEquals(
        "processes 100 and node2:200 both have rank 2: give processes of one job", e.getMessage());
  }

  @Test
  void processesOfDifferentJobsOrSizesAreRefused() {
    IOException jobs =
        assertThrows(
            IOException.class,
            () -> AttachPlan.of(List.of(found("h", 1, 0, 4, "a"), found("h", 2, 1, 4, "b"))));
    assertEquals(
        "process h:1 belongs to job a and process h:2 to job b: give processes of one job",
        jobs.getMessage());
    assertThrows(
        IOException.class,
        () -> AttachPlan.of(List.of(found("h", 1, 0, 4, ""), found("h", 2, 1, 8, ""))));
    assertThrows(
        IOException.class,
        () -> AttachPlan.of(List.of(found("h", 1, 0, 2, ""), found("h", 2, 5, 0, ""))));
  }
}
