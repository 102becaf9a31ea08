package io.sdmfabric.server;

import io.sdmfabric.wire.CanonicalBytes;
import io.sdmfabric.wire.proto.EventBody;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The cap on the classes of value replies a node of the tree passes up for one command (issue 30,
 * item 7): 2^20 ranks that all print a different value are a million lines nobody reads, and a
 * million groups that every level of the tree merges again (3.8 s).
 *
 * <p>Past {@code cap} classes of {@code value} replies, a node keeps the largest classes, and among
 * equal ones those of the lowest ranks, and folds the others into one {@link ValueSummary}: how
 * many, their ranks, their least and greatest number. Summaries from the children fold into it too,
 * so a node passes up at most {@code cap} value classes and one summary, whatever the size of its
 * subtree. The choice depends only on the classes, not on the order in which they came: with every
 * rank's value different, ranks 0 to cap - 1 keep theirs at every level, and the user sees the
 * first ranks' values, how many others there are and their range. A class large in the whole job
 * but small in every node (one rank in each of many nodes) is folded where it is small: the tree
 * cannot know it is large without passing every class up.
 *
 * <p>Only values are capped. Errors and lost ranks say what failed and stay whole (a few distinct
 * messages in practice); stacks merge into the call-prefix tree, which needs every path and whose
 * size is that of the distinct paths; events are not replies to a command.
 */
final class ValueClasses {
  private static final Comparator<ReplyGroup> LARGEST_THEN_LOWEST =
      Comparator.<ReplyGroup>comparingLong(g -> -g.ranks().size())
          .thenComparingInt(g -> g.ranks().first());

  private ValueClasses() {}

  /**
   * {@code groups} with at most {@code cap} classes of values and at most one summary: the groups
   * that are not values first, in their order, then the value classes kept, by lowest rank, then
   * the summary. The same list when there is nothing to fold.
   */
  static List<ReplyGroup> capped(List<ReplyGroup> groups, int cap) {
    int values = 0;
    int summaries = 0;
    for (ReplyGroup g : groups) {
      EventBody.KindCase kind = CanonicalBytes.kindOf(g.body());
      if (kind == EventBody.KindCase.VALUE) {
        values++;
      } else if (kind == EventBody.KindCase.VALUE_SUMMARY) {
        summaries++;
      }
    }
    if (values <= cap && summaries <= 1) {
      return groups;
    }
    List<ReplyGroup> out = new ArrayList<>(Math.min(groups.size(), cap + 8));
    List<ReplyGroup> classes = new ArrayList<>(values);
    ValueSummary summary = new ValueSummary();
    for (ReplyGroup g : groups) {
      EventBody.KindCase kind = CanonicalBytes.kindOf(g.body());
      if (kind == EventBody.KindCase.VALUE) {
        classes.add(g);
      } else if (kind != EventBody.KindCase.VALUE_SUMMARY || !folded(summary, g)) {
        out.add(g);
      }
    }
    if (classes.size() > cap) {
      classes.sort(LARGEST_THEN_LOWEST);
      for (ReplyGroup g : classes.subList(cap, classes.size())) {
        if (!foldedValue(summary, g)) {
          out.add(g);
        }
      }
      classes = new ArrayList<>(classes.subList(0, cap));
      classes.sort(Comparator.comparingInt(g -> g.ranks().first()));
    }
    out.addAll(classes);
    if (!summary.isEmpty()) {
      out.add(summary.drain());
    }
    return out;
  }

  // A body that does not parse (a peer's broken one) is passed up as it came, for the front-end
  // to show as malformed, instead of failing the node.

  private static boolean folded(ValueSummary summary, ReplyGroup g) {
    try {
      summary.addSummary(g.ranks(), g.body());
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean foldedValue(ValueSummary summary, ReplyGroup g) {
    try {
      summary.addValue(g.ranks(), g.body());
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
