package io.sdmfabric.frontend.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sdmfabric.model.RankSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameSelectionTest {
  private final List<String> sent = new ArrayList<>();
  private final FrameSelection frames =
      new FrameSelection(8, (level, ranks) -> sent.add(level + " on [" + ranks + "]"));

  @Test
  void ranksThatStoppedHaveTheInnermostFrameAlready() {
    frames.stopped(RankSet.range(0, 8));
    frames.select(0, RankSet.range(0, 8));
    assertEquals(List.of(), sent);
  }

  @Test
  void onlyTheRanksWithAnotherFrameAreSelected() {
    frames.stopped(RankSet.range(0, 8));
    frames.select(2, RankSet.of(1, 2));
    frames.select(2, RankSet.range(0, 4));
    frames.select(2, RankSet.range(0, 4));
    assertEquals(List.of("2 on [1,2]", "2 on [0,3]"), sent);
  }

  @Test
  void whatIsNotKnownIsSelected() {
    frames.select(0, RankSet.of(5));
    frames.stopped(RankSet.of(5));
    frames.forget(RankSet.of(5));
    frames.select(0, RankSet.of(5));
    assertEquals(List.of("0 on [5]", "0 on [5]"), sent);
  }
}
