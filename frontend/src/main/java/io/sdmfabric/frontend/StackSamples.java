package io.sdmfabric.frontend;

import io.sdmfabric.model.Frame;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.StackTree;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Snapshots of every thread's stack of a job taken one after the other, as STAT's temporal view
 * compares them: a rank whose threads stand at a place (the same stack, frame by frame and line by
 * line) in every snapshot is stuck there; one that was elsewhere in some snapshot moved, so it is
 * progressing, however slowly. Stacks are compared from the outermost frame down to the first frame
 * without a source line: the program's own code (and libraries with debugging information) down to
 * where it called into a library without it. A rank that polls inside an MPI library without lines
 * (Debian's Open MPI) is stuck where its own code waits, not progressing because the library's
 * innermost frames change from one snapshot to the next, nor because the library called into the C
 * library, whose lines are known ({@code sched_yield} in one snapshot, not in the next). Snapshots
 * hold the merged replies as they came (a class of ranks with one set of stacks), so their size is
 * the number of distinct replies, not of ranks.
 */
public final class StackSamples {
  /** Where ranks stopped and ranks that moved, at one place of the last snapshot. */
  public record Motion(RankSet stuck, RankSet progressing) {}

  /** One class of ranks of a snapshot: how many of its threads stand on each stack. */
  private record Class(RankSet ranks, Map<List<Place>, Integer> threadsByStack) {}

  /** A frame as a place: the same function, file and line. */
  private record Place(String function, String file, int line) {
    static Place of(Frame f) {
      return new Place(f.function(), f.file(), f.line());
    }
  }

  private final List<List<Class>> snapshots = new ArrayList<>();
  private StackTree last = StackTree.empty();

  /** Adds a snapshot: the replies of the ranks to the stacks of every thread. */
  public void add(List<RankReply> replies) {
    List<Class> snapshot = new ArrayList<>();
    StackTree.Builder tree = StackTree.builder();
    for (RankReply r : replies) {
      if (r.reply() instanceof Reply.ThreadStacks t) {
        List<List<Frame>> stacks = t.stacks();
        tree.addThreads(stacks, r.ranks());
        Map<List<Place>, Integer> counts = new HashMap<>();
        stacks.forEach(s -> counts.merge(places(s), 1, Integer::sum));
        snapshot.add(new Class(r.ranks(), counts));
      }
    }
    snapshots.add(snapshot);
    last = tree.build();
  }

  /** How many snapshots there are. */
  public int count() {
    return snapshots.size();
  }

  /** The stacks of the last snapshot, merged. */
  public StackTree last() {
    return last;
  }

  /**
   * The ranks at the end of {@code stackOutermostFirst} in the last snapshot that had as many of
   * their threads on that stack in every snapshot (stuck), and the others (progressing).
   */
  public Motion motion(List<Frame> stackOutermostFirst) {
    List<Frame> innermostFirst = new ArrayList<>(stackOutermostFirst);
    java.util.Collections.reverse(innermostFirst);
    List<Place> stack = places(innermostFirst);
    RankSet here = RankSet.empty();
    RankSet.Builder moved = RankSet.builder();
    List<Class> now = snapshots.isEmpty() ? List.of() : snapshots.get(snapshots.size() - 1);
    for (Class c : now) {
      Integer threads = c.threadsByStack().get(stack);
      if (threads == null) {
        continue;
      }
      here = here.union(c.ranks());
      for (List<Class> before : snapshots) {
        for (Class b : before) {
          RankSet both = b.ranks().intersect(c.ranks());
          if (!both.isEmpty() && !threads.equals(b.threadsByStack().get(stack))) {
            moved.addAll(both);
          }
        }
      }
    }
    RankSet progressing = moved.build().intersect(here);
    return new Motion(here.minus(progressing), progressing);
  }

  /**
   * A stack as the places that are compared, outermost first: its frames down to the first without
   * a source line, or every frame when the outermost has none.
   */
  private static List<Place> places(List<Frame> innermostFirst) {
    List<Place> all = new ArrayList<>(innermostFirst.size());
    int withSource = 0;
    for (int i = innermostFirst.size() - 1; i >= 0; i--) {
      Frame f = innermostFirst.get(i);
      if (withSource == all.size() && f.hasSource()) {
        withSource++;
      }
      all.add(Place.of(f));
    }
    return withSource == 0 ? all : all.subList(0, withSource);
  }
}
