package io.sdmfabric.runtime.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PidAttacherTest {
  /** Targets of ranks {@code 0..n-1}, listed last rank first. */
  private static List<PidAttacher.Target> targets(int n) {
    List<PidAttacher.Target> targets = new ArrayList<>();
    for (int rank = n - 1; rank >= 0; rank--) {
      targets.add(new PidAttacher.Target(1000 + rank, rank));
    }
    return targets;
  }

  private static List<Integer> sizes(List<List<PidAttacher.Target>> shares) {
    return shares.stream().map(List::size).toList();
  }

  @Test
  void processesAreSharedOutEvenlyAmongAsFewGdbsAsTheCapAllows() {
    assertEquals(List.of(16, 16, 16, 16), sizes(PidAttacher.shares(targets(64), 16)));
    assertEquals(List.of(10, 10), sizes(PidAttacher.shares(targets(20), 16)));
    assertEquals(List.of(8, 9), sizes(PidAttacher.shares(targets(17), 16)));
    assertEquals(List.of(5), sizes(PidAttacher.shares(targets(5), 16)));
    assertEquals(List.of(1, 1, 1), sizes(PidAttacher.shares(targets(3), 1)));
    assertEquals(List.of(), PidAttacher.shares(targets(0), 16));
  }

  @Test
  void aGdbsShareIsNeighbouringRanks() {
    List<List<PidAttacher.Target>> shares = PidAttacher.shares(targets(20), 16);
    assertEquals(
        IntStream.range(0, 10).boxed().toList(),
        shares.get(0).stream().map(PidAttacher.Target::rank).toList());
    assertEquals(
        IntStream.range(10, 20).boxed().toList(),
        shares.get(1).stream().map(PidAttacher.Target::rank).toList());
  }
}
