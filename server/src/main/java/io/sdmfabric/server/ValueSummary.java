package io.sdmfabric.server;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.CanonicalBytes;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.ValueExtreme;
import io.sdmfabric.wire.proto.ValueProto;
import io.sdmfabric.wire.proto.ValueSummaryEvent;
import java.util.List;
import java.util.Optional;

/**
 * Value classes folded into one reply group ({@code value_summary} in {@code debug.proto}): how
 * many classes, the ranks that hold them, and the least and the greatest of those values that are
 * numbers ({@link ValueNumber}), each with its ranks. Folding a class counts it once; folding a
 * summary adds its count, unites its ranks and combines its extremes, so that summaries fold into
 * summaries up the tree and cost the same at every level. When two values are equal numbers (a
 * float's {@code 1} and {@code 1.0}), their ranks unite and the value of the lowest rank is kept,
 * so that the result does not depend on the order of folding. Not thread-safe: one actor owns it.
 */
final class ValueSummary {
  private long classes;
  private final RankSet.Builder ranks = RankSet.builder();
  private Extreme least;
  private Extreme greatest;

  /** One end of the range: the number, its value as it came, and every rank that holds it. */
  private static final class Extreme {
    final ValueNumber number;
    ValueProto value;
    RankSet ranks;

    Extreme(ValueNumber number, ValueProto value, RankSet ranks) {
      this.number = number;
      this.value = value;
      this.ranks = ranks;
    }
  }

  /** Whether nothing was folded yet. */
  boolean isEmpty() {
    return classes == 0;
  }

  /**
   * Folds one class of values: {@code body} is a {@code value} reply in its canonical bytes.
   *
   * @throws IllegalArgumentException when the bytes are not a value a model could hold
   */
  void addValue(RankSet classRanks, byte[] body) {
    ValueProto value = CanonicalBytes.eventBody(body).getValue();
    Optional<ValueNumber> number = ValueNumber.of(value);
    classes++;
    ranks.addAll(classRanks);
    number.ifPresent(n -> extremes(n, value, classRanks, n, value, classRanks));
  }

  /**
   * Folds a summary a child passed up: {@code body} is a {@code value_summary} reply in its
   * canonical bytes.
   *
   * @throws IllegalArgumentException when the bytes are not a summary a model could hold (a peer's
   *     broken one), before anything is folded
   */
  void addSummary(RankSet summaryRanks, byte[] body) {
    EventBody parsed = CanonicalBytes.eventBody(body);
    // Reply's decoder checks what a summary must hold (a class, both extremes or none).
    if (!(Reply.decode(parsed) instanceof Reply.ValuesSummarized)) {
      throw new IllegalArgumentException("not a value summary: " + Reply.kindName(parsed));
    }
    ValueSummaryEvent s = parsed.getValueSummary();
    Optional<ValueNumber> low = ValueNumber.of(s.getLeast().getValue());
    Optional<ValueNumber> high = ValueNumber.of(s.getGreatest().getValue());
    classes += s.getClasses();
    ranks.addAll(summaryRanks);
    if (low.isPresent() && high.isPresent()) {
      extremes(
          low.get(),
          s.getLeast().getValue(),
          ranks(s.getLeast()),
          high.get(),
          s.getGreatest().getValue(),
          ranks(s.getGreatest()));
    }
  }

  /** The summary as one reply group, and a fresh start. */
  ReplyGroup drain() {
    List<Reply.Extreme> range = List.of();
    try {
      range = least == null ? List.of() : List.of(extreme(least), extreme(greatest));
    } catch (IllegalArgumentException e) {
      // A child's value no model can hold (a peer that broke the protocol) was an extreme: the
      // summary goes without its range rather than the command without its replies.
    }
    ReplyGroup group =
        new ReplyGroup(ranks.build(), CanonicalBytes.of(EventBodies.valueSummary(classes, range)));
    classes = 0;
    least = null;
    greatest = null;
    return group;
  }

  private void extremes(
      ValueNumber low,
      ValueProto lowValue,
      RankSet lowRanks,
      ValueNumber high,
      ValueProto highValue,
      RankSet highRanks) {
    if (least == null) {
      least = new Extreme(low, lowValue, lowRanks);
      greatest = new Extreme(high, highValue, highRanks);
      return;
    }
    int c = low.compareTo(least.number);
    if (c < 0) {
      least = new Extreme(low, lowValue, lowRanks);
    } else if (c == 0) {
      tie(least, lowValue, lowRanks);
    }
    c = high.compareTo(greatest.number);
    if (c > 0) {
      greatest = new Extreme(high, highValue, highRanks);
    } else if (c == 0) {
      tie(greatest, highValue, highRanks);
    }
  }

  private static void tie(Extreme e, ValueProto value, RankSet ranks) {
    if (ranks.first() < e.ranks.first()) {
      e.value = value;
    }
    e.ranks = e.ranks.union(ranks);
  }

  private static RankSet ranks(ValueExtreme e) {
    return Protos.fromProto(e.getRanks());
  }

  private static Reply.Extreme extreme(Extreme e) {
    return new Reply.Extreme(Protos.fromProto(e.value), e.ranks);
  }
}
