package io.sdmfabric.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.PrimitiveIterator;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.roaringbitmap.RoaringBitmap;

class RankSetTest {

  // ---- text form ----

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "0-3,7,10-12 | 0-3,7,10-12",
        "3,2,1,0 | 0-3",
        "4,5 | 4,5",
        "4-5 | 4,5",
        "4-6 | 4-6",
        "7-7 | 7",
        "0-3,2-5,5 | 0-5",
        "' 1 , 3 - 5 ,\t9 ' | 1,3-5,9",
        "1,2,4,5,6,8 | 1,2,4-6,8",
        "2147483647 | 2147483647",
        "2147483645-2147483647 | 2147483645-2147483647",
      })
  void parsesAndFormatsCanonically(String text, String canonical) {
    assertEquals(canonical, RankSet.parse(text).toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "\t\n"})
  void parsesBlankAsEmpty(String text) {
    assertTrue(RankSet.parse(text).isEmpty());
  }

  @Test
  void countsTheRanksInARangeWithoutBuildingIt() {
    RankSet set = RankSet.parse("0-9,20,1000-1999");
    assertEquals(10, set.countInRange(0, 10));
    assertEquals(3, set.countInRange(8, 21));
    assertEquals(0, set.countInRange(21, 1000));
    assertEquals(1011, set.countInRange(0, Integer.MAX_VALUE));
    assertThrows(IllegalArgumentException.class, () -> set.countInRange(5, 4));
  }

  @Test
  void countsTheRanksTwoSetsShareWithoutBuildingTheIntersection() {
    RankSet set = RankSet.parse("0-9,20,1000-1999");
    assertEquals(3, set.intersectionSize(RankSet.parse("8-21")));
    assertEquals(501, set.intersectionSize(RankSet.parse("3,1500-2500")));
    assertEquals(0, set.intersectionSize(RankSet.empty()));
    assertEquals(set.size(), set.intersectionSize(set));
  }

  @Test
  void smallSetsAreBuiltRankByRankAndLargeOnesSorted() {
    int[] many = new int[200];
    for (int i = 0; i < many.length; i++) {
      many[i] = 199 - i;
    }
    assertEquals(RankSet.range(0, 200), RankSet.of(many));
    assertEquals(RankSet.parse("3,5"), RankSet.of(5, 3, 5));
  }

  @Test
  void formatsEmptySetAsEmptyString() {
    assertEquals("", RankSet.empty().toString());
    assertEquals("", RankSet.of().toString());
  }

  @Test
  void formatsRunsOfTwoAsSingleRanksAndLongerRunsAsRanges() {
    assertEquals("0,1", RankSet.of(0, 1).toString());
    assertEquals("0-2", RankSet.of(0, 1, 2).toString());
    assertEquals("0,1,3-5,7", RankSet.of(0, 1, 3, 4, 5, 7).toString());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "1,,2 | empty item in item 2",
        "1, ,2 | empty item in item 2",
        "1, | empty item in item 2",
        ",1 | empty item in item 1",
        "-3 | negative rank in item 1 \"-3\"",
        "0,-3-5 | negative rank in item 2 \"-3-5\"",
        "0, - 3 | negative rank in item 2 \"- 3\"",
        "3--5 | negative rank in item 1 \"3--5\"",
        "5-3 | reversed range (5 > 3) in item 1 \"5-3\"",
        "1,a | not a rank or a range in item 2 \"a\"",
        "1-2-3 | not a rank or a range in item 1 \"1-2-3\"",
        "3- | range without an end in item 1 \"3-\"",
        "-x | not a rank or a range in item 1 \"-x\"",
        "- | not a rank or a range in item 1 \"-\"",
        "+3 | not a rank or a range in item 1 \"+3\"",
        "1 2 | not a rank or a range in item 1 \"1 2\"",
        "0x10 | not a rank or a range in item 1 \"0x10\"",
        "1.5 | not a rank or a range in item 1 \"1.5\"",
        "2147483648 | rank above 2147483647 in item 1 \"2147483648\"",
        "0-99999999999999999999 | rank above 2147483647 in item 1",
        "[0-3] | not a rank or a range in item 1 \"[0-3]\"",
        "\u0661 | not a rank or a range in item 1",
      })
  void rejectsMalformedTextNamingTheBadItem(String text, String expectedMessagePart) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RankSet.parse(text));
    assertTrue(
        e.getMessage().contains(expectedMessagePart),
        () -> "message <" + e.getMessage() + "> lacks <" + expectedMessagePart + ">");
  }

  @Test
  void abbreviatesHugeInputInParseErrors() {
    String text = "1,".repeat(10_000) + "x";
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RankSet.parse(text));
    assertTrue(e.getMessage().length() < 300, e.getMessage());
    assertTrue(e.getMessage().contains("item 10001 \"x\""), e.getMessage());
  }

  @Test
  void randomSetsSurviveFormatThenParse() {
    Random random = new Random(20240611L);
    for (int i = 0; i < 500; i++) {
      RankSet set = randomSet(random);
      String text = set.toString();
      assertTrue(set.equals(RankSet.parse(text)), () -> "text round trip of " + describe(set));
      assertEquals(text, RankSet.parse(text).toString());
    }
  }

  @Test
  void randomSetsFormatLikeANaiveFormatter() {
    Random random = new Random(7L);
    for (int i = 0; i < 300; i++) {
      RankSet set = randomSet(random);
      assertTrue(
          naiveFormat(set.stream().toArray()).equals(set.toString()),
          () -> "formatting of " + describe(set));
    }
  }

  @Test
  void formatsAMillionRanksWithGapsAsAFewRanges() {
    RankSet set =
        RankSet.all(1 << 20).minus(RankSet.of(5, 1000, 1001, 70_000, 500_000, (1 << 20) - 1));
    assertEquals("0-4,6-999,1002-69999,70001-499999,500001-1048574", set.toString());
    assertEquals((1 << 20) - 6, set.size());
  }

  // ---- binary form ----

  @Test
  void randomSetsSurviveToBytesThenFromBytes() {
    Random random = new Random(42L);
    for (int i = 0; i < 500; i++) {
      RankSet set = randomSet(random);
      assertTrue(
          set.equals(RankSet.fromBytes(set.toBytes())),
          () -> "bytes round trip of " + describe(set));
    }
  }

  @Test
  void equalSetsBuiltDifferentlyHaveEqualBytesAndHashes() {
    Random random = new Random(99L);
    for (int i = 0; i < 300; i++) {
      RankSet set = randomSet(random);
      RankSet singly = RankSet.of(set.stream().toArray());
      RankSet.Builder byRuns = RankSet.builder();
      set.forEach(byRuns::add);
      RankSet viaAlgebra =
          set.union(RankSet.range(0, 5000))
              .minus(RankSet.range(0, 5000))
              .union(set.intersect(RankSet.range(0, 5000)));
      for (RankSet other : List.of(singly, byRuns.build(), viaAlgebra)) {
        assertTrue(set.equals(other), () -> "equality of " + describe(set));
        assertEquals(set.hashCode(), other.hashCode());
        assertArrayEquals(set.toBytes(), other.toBytes(), () -> "bytes of " + describe(set));
      }
    }
  }

  @Test
  void arrayAndRunContainersOfEqualContentAreEqual() {
    // {0,1,2} is an array container when added one by one and a run container as a range; Roaring
    // keeps both after runOptimize because their sizes tie.
    RankSet asArray = RankSet.of(0, 1, 2);
    RankSet asRange = RankSet.range(0, 3);
    assertEquals(asArray, asRange);
    assertEquals(asArray.hashCode(), asRange.hashCode());
    assertArrayEquals(asArray.toBytes(), asRange.toBytes());
  }

  @Test
  void writesRoaringPortableFormat() throws IOException {
    RankSet set = RankSet.parse("0-99,1000,70000-70010");
    RoaringBitmap expected = RoaringBitmap.bitmapOf();
    expected.add(0L, 100L);
    expected.add(1000);
    expected.add(70_000L, 70_011L);
    RoaringBitmap decoded = new RoaringBitmap();
    decoded.deserialize(java.nio.ByteBuffer.wrap(set.toBytes()));
    assertEquals(expected, decoded);
  }

  @Test
  void readsBitmapsWrittenWithoutRunOptimization() throws IOException {
    RoaringBitmap plain = RoaringBitmap.bitmapOf(1, 2, 3, 100_000);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    plain.serialize(new DataOutputStream(bytes));
    assertEquals(RankSet.of(1, 2, 3, 100_000), RankSet.fromBytes(bytes.toByteArray()));
  }

  @Test
  void emptySetSurvivesBytes() {
    assertEquals(RankSet.empty(), RankSet.fromBytes(RankSet.empty().toBytes()));
  }

  @Test
  void rejectsEmptyAndGarbageBytes() {
    assertThrows(IllegalArgumentException.class, () -> RankSet.fromBytes(new byte[0]));
    assertThrows(IllegalArgumentException.class, () -> RankSet.fromBytes(new byte[] {1, 2, 3}));
    assertThrows(
        IllegalArgumentException.class, () -> RankSet.fromBytes("hello world!".getBytes()));
  }

  @Test
  void rejectsTruncatedBytes() {
    byte[] bytes = RankSet.parse("0-3,7,100000-200000,300001").toBytes();
    for (int length = 0; length < bytes.length; length++) {
      byte[] truncated = Arrays.copyOf(bytes, length);
      assertThrows(
          IllegalArgumentException.class,
          () -> RankSet.fromBytes(truncated),
          "truncated to " + length);
    }
  }

  @Test
  void rejectsTrailingBytes() {
    byte[] bytes = RankSet.of(1, 2, 3).toBytes();
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RankSet.fromBytes(longer));
    assertTrue(e.getMessage().contains("trailing"), e.getMessage());
  }

  @Test
  void rejectsValuesAboveIntegerMaxValue() throws IOException {
    RoaringBitmap unsigned = RoaringBitmap.bitmapOf(1, -5); // -5 is 4294967291 unsigned
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    unsigned.serialize(new DataOutputStream(bytes));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RankSet.fromBytes(bytes.toByteArray()));
    assertTrue(e.getMessage().contains("4294967291"), e.getMessage());
  }

  @Test
  void corruptBytesNeverEscapeAsAnythingButIllegalArgument() {
    // Flips random bytes of valid serializations: each result is either a valid set or rejected
    // with IllegalArgumentException, never another exception.
    Random random = new Random(1234L);
    for (int i = 0; i < 3000; i++) {
      byte[] bytes = randomSet(random).toBytes();
      int flips = 1 + random.nextInt(3);
      for (int f = 0; f < flips; f++) {
        bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
      }
      try {
        RankSet decoded = RankSet.fromBytes(bytes);
        assertTrue(decoded.equals(RankSet.parse(decoded.toString())), () -> describe(decoded));
        assertTrue(decoded.equals(RankSet.fromBytes(decoded.toBytes())), () -> describe(decoded));
      } catch (IllegalArgumentException expected) {
        // rejected: fine
      }
    }
  }

  // ---- factories ----

  @Test
  void factoriesBuildTheExpectedRanks() {
    assertEquals("0-4", RankSet.all(5).toString());
    assertEquals("", RankSet.all(0).toString());
    assertEquals("3-5", RankSet.range(3, 6).toString());
    assertEquals("", RankSet.range(3, 3).toString());
    assertEquals("1,5,9", RankSet.of(9, 1, 5, 1).toString());
    assertTrue(RankSet.empty().isEmpty());
  }

  @Test
  void factoriesRejectNegativeRanksAndBadRanges() {
    assertThrows(IllegalArgumentException.class, () -> RankSet.of(1, -1));
    assertThrows(IllegalArgumentException.class, () -> RankSet.range(-1, 3));
    assertThrows(IllegalArgumentException.class, () -> RankSet.range(5, 3));
    assertThrows(IllegalArgumentException.class, () -> RankSet.all(-1));
  }

  // ---- algebra and queries ----

  @Test
  void computesUnionIntersectionAndDifference() {
    RankSet a = RankSet.parse("0-9");
    RankSet b = RankSet.parse("5-14");
    assertEquals("0-14", a.union(b).toString());
    assertEquals("5-9", a.intersect(b).toString());
    assertEquals("0-4", a.minus(b).toString());
    assertEquals("10-14", b.minus(a).toString());
    assertSame(a, a.union(RankSet.empty()));
    assertSame(a, a.minus(RankSet.empty()));
    assertTrue(a.intersect(RankSet.empty()).isEmpty());
  }

  @Test
  void algebraAgreesWithTreeSetOnRandomSets() {
    Random random = new Random(5L);
    for (int i = 0; i < 200; i++) {
      RankSet a = randomNearSet(random);
      RankSet b = randomNearSet(random);
      TreeSet<Integer> ta = toTreeSet(a);
      TreeSet<Integer> tb = toTreeSet(b);
      TreeSet<Integer> union = new TreeSet<>(ta);
      union.addAll(tb);
      TreeSet<Integer> both = new TreeSet<>(ta);
      both.retainAll(tb);
      TreeSet<Integer> diff = new TreeSet<>(ta);
      diff.removeAll(tb);
      assertEquals(union, toTreeSet(a.union(b)));
      assertEquals(both, toTreeSet(a.intersect(b)));
      assertEquals(diff, toTreeSet(a.minus(b)));
      assertEquals(!both.isEmpty(), a.intersects(b));
      assertEquals(ta.containsAll(tb), a.containsAll(b));
      assertEquals(ta.size(), a.size());
    }
  }

  @Test
  void answersMembershipQueries() {
    RankSet set = RankSet.parse("2-4,8");
    assertTrue(set.contains(3));
    assertFalse(set.contains(5));
    assertFalse(set.contains(-3));
    assertTrue(set.containsAll(RankSet.of(2, 8)));
    assertFalse(set.containsAll(RankSet.of(2, 9)));
    assertTrue(set.containsAll(RankSet.empty()));
    assertTrue(set.intersects(RankSet.of(8, 100)));
    assertFalse(set.intersects(RankSet.of(5, 100)));
    assertEquals(4, set.size());
    assertEquals(2, set.first());
    assertEquals(8, set.last());
  }

  @Test
  void firstAndLastOfEmptySetThrow() {
    assertThrows(NoSuchElementException.class, () -> RankSet.empty().first());
    assertThrows(NoSuchElementException.class, () -> RankSet.empty().last());
  }

  @Test
  void reportsSizeOfTheWholeRankRangeSaturated() {
    RankSet everything = RankSet.parse("0-2147483647");
    assertEquals(Integer.MAX_VALUE, everything.size());
    assertEquals(1L << 31, everything.longSize());
    assertEquals(Integer.MAX_VALUE, everything.last());
  }

  @Test
  void iteratesStreamsAndVisitsInAscendingOrder() {
    RankSet set = RankSet.of(70_000, 3, 1, 2);
    assertArrayEquals(new int[] {1, 2, 3, 70_000}, set.stream().toArray());
    List<Integer> visited = new ArrayList<>();
    set.forEach((int rank) -> visited.add(rank));
    assertEquals(List.of(1, 2, 3, 70_000), visited);
    PrimitiveIterator.OfInt it = set.iterator();
    List<Integer> iterated = new ArrayList<>();
    while (it.hasNext()) {
      iterated.add(it.nextInt());
    }
    assertEquals(visited, iterated);
    assertThrows(NoSuchElementException.class, it::nextInt);
    assertEquals(4, set.stream().count());
  }

  @Test
  void equalityIsByContent() {
    assertEquals(RankSet.parse("1-3"), RankSet.of(3, 2, 1));
    assertNotEquals(RankSet.parse("1-3"), RankSet.parse("1-4"));
    assertNotEquals(RankSet.parse("1-3"), "1-3");
    assertEquals(RankSet.empty(), RankSet.parse(""));
  }

  @Test
  void outOfRangeNamesTheLargestRankBeyondTheJob() {
    assertEquals(
        Optional.of("rank 9 is out of range: the job has ranks 0-3"),
        RankSet.of(2, 5, 9).outOfRange(4));
    assertEquals(
        Optional.of("rank 1 is out of range: the job has ranks 0-0"), RankSet.of(1).outOfRange(1));
    assertEquals(Optional.empty(), RankSet.all(4).outOfRange(4));
    assertEquals(Optional.empty(), RankSet.empty().outOfRange(1));
    assertThrows(IllegalArgumentException.class, () -> RankSet.of(0).outOfRange(0));
  }

  // ---- builder ----

  @Test
  void builderAccumulatesAndStaysUsableAfterBuild() {
    RankSet.Builder builder = RankSet.builder();
    assertTrue(builder.isEmpty());
    builder.add(5).addRange(10, 13).addAll(RankSet.of(1));
    RankSet first = builder.build();
    builder.add(20).removeAll(RankSet.of(11));
    assertEquals("1,5,10-12", first.toString());
    assertEquals("1,5,10,12,20", builder.build().toString());
  }

  @Test
  void builderRejectsNegativeRanksAndBadRanges() {
    RankSet.Builder builder = RankSet.builder();
    assertThrows(IllegalArgumentException.class, () -> builder.add(-1));
    assertThrows(IllegalArgumentException.class, () -> builder.addRange(-1, 2));
    assertThrows(IllegalArgumentException.class, () -> builder.addRange(3, 2));
    assertTrue(builder.build().isEmpty());
  }

  // ---- helpers ----

  /** Mixes sparse ranks, dense runs and bitmap-sized chunks, so all container kinds show up. */
  private static RankSet randomSet(Random random) {
    return randomSet(random, true, 100_000);
  }

  /** Small sets near 0, cheap enough to mirror in a TreeSet. */
  private static RankSet randomNearSet(Random random) {
    return randomSet(random, false, 2_000);
  }

  private static RankSet randomSet(Random random, boolean far, int maxRun) {
    RankSet.Builder builder = RankSet.builder();
    int items = random.nextInt(12);
    for (int i = 0; i < items; i++) {
      int base = far && random.nextInt(4) == 0 ? random.nextInt(Integer.MAX_VALUE - 200_000) : 0;
      switch (random.nextInt(4)) {
        case 0 -> builder.add(base + random.nextInt(300_000));
        case 1 -> {
          int from = base + random.nextInt(300_000);
          builder.addRange(from, from + random.nextInt(maxRun));
        }
        case 2 -> {
          int from = base + random.nextInt(300_000);
          for (int k = 0; k < Math.min(5000, maxRun); k++) {
            if (random.nextInt(3) == 0) {
              builder.add(from + k);
            }
          }
        }
        default -> {
          for (int k = 0; k < 50; k++) {
            builder.add(base + random.nextInt(100));
          }
        }
      }
    }
    return builder.build();
  }

  /** Random sets can be megabytes of text; failure messages get a summary. */
  private static String describe(RankSet set) {
    String text = set.toString();
    return set.longSize()
        + " ranks "
        + (text.length() <= 200 ? text : text.substring(0, 200) + "...");
  }

  private static String naiveFormat(int[] sorted) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < sorted.length) {
      int j = i;
      while (j + 1 < sorted.length && sorted[j + 1] == sorted[j] + 1) {
        j++;
      }
      if (out.length() > 0) {
        out.append(',');
      }
      if (j - i >= 2) {
        out.append(sorted[i]).append('-').append(sorted[j]);
      } else {
        out.append(sorted[i]);
        if (j > i) {
          out.append(',').append(sorted[j]);
        }
      }
      i = j + 1;
    }
    return out.toString();
  }

  private static TreeSet<Integer> toTreeSet(RankSet set) {
    TreeSet<Integer> out = new TreeSet<>();
    set.forEach((int rank) -> out.add(rank));
    return out;
  }
}
