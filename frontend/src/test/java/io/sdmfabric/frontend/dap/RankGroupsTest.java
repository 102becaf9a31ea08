package io.sdmfabric.frontend.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.sdmfabric.frontend.ProcessTable.Row;
import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.RankSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class RankGroupsTest {
  private static Row row(ProcessState state, String where, String ranks) {
    return new Row(state, where, RankSet.parse(ranks));
  }

  private static List<String> names(List<RankGroups.Group> groups) {
    return groups.stream().map(RankGroups.Group::name).toList();
  }

  @Test
  void aThreadIsAGroupOfRanksInOneStateAtOnePlace() {
    RankGroups groups = new RankGroups(16, 2);
    List<RankGroups.Group> now =
        groups.regroup(
            List.of(
                row(ProcessState.STOPPED, "compute at ranks.c:7", "0-2,4-7"),
                row(ProcessState.STOPPED, "store_result at ranks.c:12", "3"),
                row(ProcessState.RUNNING, "", "8-15")));
    assertEquals(
        List.of(
            "[0-2,4-7] compute at ranks.c:7", "[3] store_result at ranks.c:12", "[8-15] running"),
        names(now));
  }

  @Test
  void aGroupKeepsItsThreadWhileItsRanksChangeAndANewPlaceIsANewThread() {
    RankGroups groups = new RankGroups(8, 2);
    int compute =
        groups
            .regroup(
                List.of(
                    row(ProcessState.STOPPED, "compute at a.c:7", "0-2"),
                    row(ProcessState.RUNNING, "", "3-7")))
            .get(0)
            .id();
    List<RankGroups.Group> later =
        groups.regroup(
            List.of(
                row(ProcessState.STOPPED, "compute at a.c:7", "0-3"),
                row(ProcessState.STOPPED, "main at a.c:20", "4-7")));
    assertEquals(compute, later.get(0).id());
    assertEquals("[0-3] compute at a.c:7", later.get(0).name());
    assertNotEquals(compute, later.get(1).id());
    assertEquals(later.get(1), groups.holding(5).orElseThrow());
  }

  @Test
  void upToTheGivenNumberOfRanksEachRankIsAThreadOfItsOwn() {
    RankGroups groups = new RankGroups(2, 2);
    List<RankGroups.Group> now =
        groups.regroup(List.of(row(ProcessState.STOPPED, "compute at a.c:7", "0-1")));
    assertEquals(List.of("[0] compute at a.c:7", "[1] compute at a.c:7"), names(now));
    assertEquals(List.of(1, 2), now.stream().map(RankGroups.Group::id).toList());
  }
}
