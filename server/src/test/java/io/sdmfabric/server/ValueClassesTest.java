package io.sdmfabric.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.CanonicalBytes;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.Reply;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The cap on value classes a node passes up, and the summary of the others. */
class ValueClassesTest {

  private static ReplyGroup value(RankSet ranks, Value.Kind kind, String text) {
    Value v = Value.scalar("x", kind == Value.Kind.POINTER ? "int *" : "int", kind, 8, text);
    return new ReplyGroup(ranks, CanonicalBytes.of(EventBodies.value(v)));
  }

  private static ReplyGroup integer(int rank, long value) {
    return value(RankSet.of(rank), Value.Kind.INTEGER, Long.toString(value));
  }

  private static Reply reply(ReplyGroup g) {
    return Reply.decode(CanonicalBytes.eventBody(g.body()));
  }

  private static Reply.ValuesSummarized summary(List<ReplyGroup> groups) {
    return assertInstanceOf(Reply.ValuesSummarized.class, reply(groups.get(groups.size() - 1)));
  }

  private static String text(ReplyGroup g) {
    return ((Reply.Evaluated) reply(g)).value().text();
  }

  /** Every rank of {@code ranks} with its own value, {@code rank * 7 + 1}. */
  private static List<ReplyGroup> distinct(int from, int to) {
    List<ReplyGroup> groups = new ArrayList<>();
    for (int rank = from; rank < to; rank++) {
      groups.add(integer(rank, rank * 7L + 1));
    }
    return groups;
  }

  @Test
  void underTheCapTheGroupsPassAsTheyCame() {
    List<ReplyGroup> groups = distinct(0, 64);
    assertSame(groups, ValueClasses.capped(groups, 64));
    List<ReplyGroup> one = List.of(value(RankSet.all(1 << 20), Value.Kind.INTEGER, "3"));
    assertSame(one, ValueClasses.capped(one, 64));
  }

  @Test
  void pastTheCapTheLowestRanksKeepTheirValuesAndTheRestIsOneSummaryWithItsRange() {
    List<ReplyGroup> out = ValueClasses.capped(distinct(0, 1000), 64);

    assertEquals(65, out.size());
    for (int rank = 0; rank < 64; rank++) {
      assertEquals(RankSet.of(rank), out.get(rank).ranks());
      assertEquals(Integer.toString(rank * 7 + 1), text(out.get(rank)));
    }
    ReplyGroup last = out.get(64);
    assertEquals(RankSet.range(64, 1000), last.ranks());
    Reply.ValuesSummarized s = summary(out);
    assertEquals(936, s.classes());
    assertEquals("449", s.least().orElseThrow().value().text());
    assertEquals(RankSet.of(64), s.least().orElseThrow().ranks());
    assertEquals("6994", s.greatest().orElseThrow().value().text());
    assertEquals(RankSet.of(999), s.greatest().orElseThrow().ranks());
  }

  @Test
  void theLargestClassesAreKeptWhateverTheirRanks() {
    List<ReplyGroup> groups = distinct(0, 10);
    groups.add(value(RankSet.range(500, 600), Value.Kind.INTEGER, "-5"));
    groups.add(value(RankSet.range(700, 750), Value.Kind.INTEGER, "12"));

    List<ReplyGroup> out = ValueClasses.capped(groups, 3);

    // The two large classes and the lowest rank's, by lowest rank; then the summary.
    assertEquals(
        List.of(RankSet.of(0), RankSet.range(500, 600), RankSet.range(700, 750)),
        out.subList(0, 3).stream().map(ReplyGroup::ranks).toList());
    assertEquals(RankSet.range(1, 10), out.get(3).ranks());
    assertEquals(9, summary(out).classes());
  }

  @Test
  void whatIsKeptAndTheSummaryDoNotDependOnTheOrderTheGroupsCameIn() {
    List<ReplyGroup> groups = distinct(0, 300);
    groups.add(value(RankSet.of(300, 301), Value.Kind.INTEGER, "449")); // equals rank 64's
    List<ReplyGroup> first = ValueClasses.capped(groups, 64);
    Random random = new Random(30);
    for (int i = 0; i < 5; i++) {
      List<ReplyGroup> shuffled = new ArrayList<>(groups);
      Collections.shuffle(shuffled, random);
      assertEquals(first, ValueClasses.capped(shuffled, 64));
    }
  }

  @Test
  void summariesFoldIntoSummariesUpTheTreeCountsAddingAndExtremesCombining() {
    // Two children of 200 ranks each, capped, then their parent.
    List<ReplyGroup> left = ValueClasses.capped(distinct(0, 200), 64);
    List<ReplyGroup> right = ValueClasses.capped(distinct(200, 400), 64);
    List<ReplyGroup> both = new ArrayList<>(right);
    both.addAll(left);

    List<ReplyGroup> out = ValueClasses.capped(both, 64);

    assertEquals(65, out.size());
    assertEquals(
        RankSet.range(0, 64),
        out.subList(0, 64).stream().map(ReplyGroup::ranks).reduce(RankSet.empty(), RankSet::union));
    assertEquals(RankSet.range(64, 400), out.get(64).ranks());
    Reply.ValuesSummarized s = summary(out);
    assertEquals(336, s.classes());
    assertEquals(new Reply.Extreme(intValue("449"), RankSet.of(64)), s.least().orElseThrow());
    assertEquals(new Reply.Extreme(intValue("2794"), RankSet.of(399)), s.greatest().orElseThrow());
    // Capping what is capped changes nothing.
    assertEquals(out, ValueClasses.capped(out, 64));
  }

  private static Value intValue(String text) {
    return Value.scalar("x", "int", Value.Kind.INTEGER, 8, text);
  }

  @Test
  void equalExtremesUniteTheirRanks() {
    List<ReplyGroup> groups = new ArrayList<>(distinct(0, 4));
    groups.add(value(RankSet.of(10), Value.Kind.INTEGER, "-3"));
    groups.add(value(RankSet.of(11), Value.Kind.INTEGER, "100"));
    groups.add(value(RankSet.of(12), Value.Kind.INTEGER, "7"));
    List<ReplyGroup> left = ValueClasses.capped(groups, 1);
    // The right child keeps its largest class, ranks 20 and 24, and folds -3 and 100.
    List<ReplyGroup> right =
        ValueClasses.capped(
            List.of(
                value(RankSet.of(20, 24), Value.Kind.INTEGER, "0"),
                integer(21, -3),
                integer(23, 100)),
            1);
    List<ReplyGroup> both = new ArrayList<>(left);
    both.addAll(right);

    Reply.ValuesSummarized s = summary(ValueClasses.capped(both, 1));

    assertEquals(RankSet.of(10, 21), s.least().orElseThrow().ranks());
    assertEquals("-3", s.least().orElseThrow().value().text());
    assertEquals(RankSet.of(11, 23), s.greatest().orElseThrow().ranks());
  }

  @Test
  void floatsCompareAsNumbersWithInfinitiesAndWithoutNan() {
    List<ReplyGroup> groups = new ArrayList<>();
    String[] texts = {"0.5", "-inf", "1e+300", "-nan(0x8000000000000)", "-2.25", "3"};
    for (int i = 0; i < texts.length; i++) {
      groups.add(value(RankSet.of(i), Value.Kind.FLOAT, texts[i]));
    }
    groups.add(0, value(RankSet.range(100, 200), Value.Kind.FLOAT, "2.5"));

    Reply.ValuesSummarized s = summary(ValueClasses.capped(groups, 1));

    assertEquals(6, s.classes());
    assertEquals("-inf", s.least().orElseThrow().value().text());
    assertEquals("1e+300", s.greatest().orElseThrow().value().text());
  }

  @Test
  void integersAndPointersCompareExactlyBeyondADoublesPrecision() {
    List<ReplyGroup> ints =
        List.of(
            value(RankSet.of(0), Value.Kind.INTEGER, "9007199254740993"),
            value(RankSet.of(1), Value.Kind.INTEGER, "9007199254740992"),
            value(RankSet.of(2), Value.Kind.INTEGER, "18446744073709551615"),
            value(RankSet.of(3), Value.Kind.INTEGER, "-9223372036854775808"));
    Reply.ValuesSummarized s = summary(ValueClasses.capped(ints, 0));
    assertEquals("-9223372036854775808", s.least().orElseThrow().value().text());
    assertEquals("18446744073709551615", s.greatest().orElseThrow().value().text());

    List<ReplyGroup> pointers =
        List.of(
            value(RankSet.of(0), Value.Kind.POINTER, "(int *) 0x7ffd5a3c0010"),
            value(RankSet.of(1), Value.Kind.POINTER, "0x601040 <global>"),
            value(RankSet.of(2), Value.Kind.POINTER, "0xffffffffffffff00"),
            value(RankSet.of(3), Value.Kind.POINTER, "0x0"));
    // Rank 0 keeps its pointer; 0x0, 0x601040 and 0xffffffffffffff00 are folded.
    s = summary(ValueClasses.capped(pointers, 1));
    assertEquals(3, s.classes());
    assertEquals(RankSet.of(3), s.least().orElseThrow().ranks());
    assertEquals(RankSet.of(2), s.greatest().orElseThrow().ranks());
  }

  @Test
  void valuesThatAreNoNumbersAreCountedWithoutARange() {
    List<ReplyGroup> groups = new ArrayList<>();
    for (int rank = 0; rank < 5; rank++) {
      groups.add(value(RankSet.of(rank), Value.Kind.STRING, "\"rank " + rank + "\""));
    }
    groups.add(value(RankSet.of(5), Value.Kind.CHAR, "65 'A'"));
    groups.add(value(RankSet.of(6), Value.Kind.ENUM, "RED"));

    Reply.ValuesSummarized s = summary(ValueClasses.capped(groups, 2));

    assertEquals(5, s.classes());
    assertTrue(s.least().isEmpty() && s.greatest().isEmpty());
  }

  @Test
  void repliesThatAreNotValuesAreNeverFoldedNorCounted() {
    List<ReplyGroup> groups = new ArrayList<>(distinct(0, 5));
    ReplyGroup error = new ReplyGroup(RankSet.of(7), CanonicalBytes.of(EventBodies.error("no x")));
    ReplyGroup lost = new ReplyGroup(RankSet.of(8), CanonicalBytes.of(EventBodies.rankLost()));
    groups.add(2, error);
    groups.add(lost);

    List<ReplyGroup> out = ValueClasses.capped(groups, 2);

    assertEquals(List.of(error, lost), out.subList(0, 2));
    assertEquals(
        List.of(RankSet.of(0), RankSet.of(1)),
        out.subList(2, 4).stream().map(ReplyGroup::ranks).toList());
    assertEquals(RankSet.range(2, 5), out.get(4).ranks());
    assertEquals(5, out.size());
  }

  @Test
  void aBrokenSummaryFromAPeerIsPassedUpAsItCameNotFolded() {
    ReplyGroup broken = new ReplyGroup(RankSet.of(50), new byte[] {(byte) 0xe2, 0x01, 0x05, 1});
    List<ReplyGroup> groups = new ArrayList<>(distinct(0, 5));
    groups.add(broken);
    groups.add(ValueClasses.capped(distinct(10, 13), 1).get(1));

    List<ReplyGroup> out = ValueClasses.capped(groups, 2);

    assertTrue(out.contains(broken));
    assertEquals(RankSet.of(2, 3, 4, 11, 12), out.get(out.size() - 1).ranks());
    assertEquals(5, summary(out).classes());
  }
}
