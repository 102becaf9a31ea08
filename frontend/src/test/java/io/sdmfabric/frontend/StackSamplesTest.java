package io.sdmfabric.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sdmfabric.model.Frame;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.RankReply;
import java.util.List;
import org.junit.jupiter.api.Test;

class StackSamplesTest {
  private static Frame f(int level, String function, int line) {
    return new Frame(level, 0, function, "app.c", line, "");
  }

  private static final Frame MAIN = f(1, "main", 30);
  private static final List<Frame> WAITING = List.of(f(0, "wait_for_peer", 12), MAIN);
  private static final List<Frame> COMPUTING_AT_40 = List.of(f(0, "compute", 40), MAIN);
  private static final List<Frame> COMPUTING_AT_41 = List.of(f(0, "compute", 41), MAIN);

  private static RankReply reply(RankSet ranks, List<List<Frame>> stacks) {
    return new RankReply(ranks, EventBodies.threadStacks(stacks));
  }

  /** The path of a stack as the tree has it: outermost frame first. */
  private static List<Frame> path(List<Frame> innermostFirst) {
    return List.of(innermostFirst.get(1), innermostFirst.get(0));
  }

  @Test
  void ranksAtTheSamePlaceInEverySampleAreStuckAndTheOthersProgressing() {
    StackSamples samples = new StackSamples();
    samples.add(
        List.of(
            reply(RankSet.of(0, 2), List.of(WAITING)),
            reply(RankSet.of(1), List.of(COMPUTING_AT_40)),
            reply(RankSet.of(3), List.of(COMPUTING_AT_41))));
    samples.add(
        List.of(
            reply(RankSet.of(0, 2), List.of(WAITING)),
            reply(RankSet.of(1, 3), List.of(COMPUTING_AT_41))));
    assertEquals(2, samples.count());
    assertEquals(
        new StackSamples.Motion(RankSet.of(0, 2), RankSet.empty()), samples.motion(path(WAITING)));
    assertEquals(
        new StackSamples.Motion(RankSet.of(3), RankSet.of(1)),
        samples.motion(path(COMPUTING_AT_41)));
    assertEquals(RankSet.range(0, 4), samples.last().ranks());
  }

  @Test
  void aRankWhoseThreadsOnAStackChangedInNumberMoved() {
    StackSamples samples = new StackSamples();
    samples.add(List.of(reply(RankSet.of(0), List.of(WAITING, WAITING, COMPUTING_AT_40))));
    samples.add(List.of(reply(RankSet.of(0), List.of(WAITING, WAITING, WAITING))));
    assertEquals(
        new StackSamples.Motion(RankSet.empty(), RankSet.of(0)), samples.motion(path(WAITING)));
  }

  @Test
  void aRankPollingInALibraryWithoutSourceLinesIsStuckWhereItsOwnCodeWaits() {
    Frame recv = f(1, "exchange", 8);
    Frame poll = new Frame(0, 0, "opal_progress", "", 0, "libopen-pal.so.40");
    Frame poll2 = new Frame(0, 0, "mca_pml_ob1_progress", "", 0, "libmpi.so.40");
    StackSamples samples = new StackSamples();
    samples.add(List.of(reply(RankSet.of(0, 1), List.of(List.of(poll, recv, MAIN)))));
    samples.add(List.of(reply(RankSet.of(0, 1), List.of(List.of(poll2, recv, MAIN)))));
    assertEquals(
        new StackSamples.Motion(RankSet.of(0, 1), RankSet.empty()),
        samples.motion(List.of(MAIN, recv, poll2)));
  }

  @Test
  void whatALibraryWithoutSourceLinesCallsDoesNotMoveTheRank() {
    Frame barrier = f(1, "wait_for_all", 12);
    Frame progress = new Frame(1, 0, "opal_progress", "", 0, "libopen-pal.so.40");
    Frame yield = new Frame(0, 0, "sched_yield", "../sysdeps/unix/syscall-template.S", 120, "");
    Frame unknown = new Frame(0, 0, "??", "", 0, "");
    StackSamples samples = new StackSamples();
    samples.add(List.of(reply(RankSet.of(2), List.of(List.of(yield, progress, barrier, MAIN)))));
    samples.add(List.of(reply(RankSet.of(2), List.of(List.of(unknown, progress, barrier, MAIN)))));
    assertEquals(
        new StackSamples.Motion(RankSet.of(2), RankSet.empty()),
        samples.motion(List.of(MAIN, barrier, progress, unknown)));
  }
}
