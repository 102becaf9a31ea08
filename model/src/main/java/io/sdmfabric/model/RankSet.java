package io.sdmfabric.model;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.PrimitiveIterator;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;
import org.roaringbitmap.PeekableIntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * An immutable set of MPI ranks (non-negative {@code int}s), backed by a compressed RoaringBitmap
 * so that "all 2^20 ranks but three" costs a few bytes, not 2^20 bits.
 *
 * <p>Text form ({@link #parse}, {@link #toString}): comma-separated items in ascending order, each
 * a single rank or an inclusive range {@code a-b}. The canonical form writes a run of three or more
 * consecutive ranks as a range and shorter runs as single ranks: {@code {0,1,2,3,7,8,10}} is {@code
 * "0-3,7,8,10"}. The empty set is {@code ""}. {@code parse(s.toString()).equals(s)} holds for every
 * set.
 *
 * <p>Binary form ({@link #toBytes}, {@link #fromBytes}): Roaring's portable serialization, which
 * other Roaring implementations (C, Go, Rust) read as well. Equal sets always produce equal bytes,
 * so serialized bodies that contain rank sets can be compared and hashed byte-wise.
 *
 * <p>Instances are immutable and safe to share between threads. Use {@link Builder} to accumulate
 * ranks on hot paths without creating a set per step.
 */
public final class RankSet {

  private static final RankSet EMPTY = new RankSet(new RoaringBitmap());

  /** Never mutated after construction; never contains a negative value. */
  private final RoaringBitmap bits;

  /**
   * Lazily computed from the runs (see {@link #hashCode()} for why not Roaring's own); 0 means not
   * yet computed. A racy single-field cache like {@link String#hashCode()}: every thread computes
   * the same value.
   */
  private int hash;

  private RankSet(RoaringBitmap bits) {
    this.bits = bits;
  }

  /** Wraps a bitmap that the caller hands over and never touches again. */
  static RankSet adopt(RoaringBitmap bits) {
    if (bits.isEmpty()) {
      return EMPTY;
    }
    bits.runOptimize();
    return new RankSet(bits);
  }

  /** A set of the ranks in {@code bits}, which must hold no value above Integer.MAX_VALUE. */
  static RankSet copyOf(RoaringBitmap bits) {
    return adopt(bits.clone());
  }

  /** The backing bitmap, for read-only use by the model's own bookkeeping. Never mutate it. */
  RoaringBitmap bitmap() {
    return bits;
  }

  /** Up to this many ranks, {@link #of} adds them one by one. */
  private static final int SMALL = 64;

  /** The empty set. */
  public static RankSet empty() {
    return EMPTY;
  }

  /**
   * The given ranks, in any order, duplicates allowed.
   *
   * @throws IllegalArgumentException if a rank is negative
   */
  public static RankSet of(int... ranks) {
    Objects.requireNonNull(ranks, "ranks");
    for (int rank : ranks) {
      requireRank(rank);
    }
    if (ranks.length <= SMALL) {
      // bitmapOfUnordered sets up a whole 8 KB container to sort through: a hot spot when every
      // rank's reply makes a set of one.
      RoaringBitmap bits = new RoaringBitmap();
      for (int rank : ranks) {
        bits.add(rank);
      }
      return adopt(bits);
    }
    return adopt(RoaringBitmap.bitmapOfUnordered(ranks));
  }

  /**
   * The ranks {@code fromInclusive .. toExclusive - 1}; empty when both bounds are equal.
   *
   * @throws IllegalArgumentException if {@code fromInclusive} is negative or greater than {@code
   *     toExclusive}
   */
  public static RankSet range(int fromInclusive, int toExclusive) {
    requireRange(fromInclusive, toExclusive);
    return adopt(RoaringBitmap.bitmapOfRange(fromInclusive, toExclusive));
  }

  /** The ranks of a job of {@code size} processes: {@code 0 .. size - 1}. */
  public static RankSet all(int size) {
    if (size < 0) {
      throw new IllegalArgumentException("job size must not be negative: " + size);
    }
    return range(0, size);
  }

  /**
   * Parses the text form, for example {@code "0-3,7,10-12"}. Whitespace around items and around the
   * {@code -} of a range is ignored; items may overlap or repeat and need not be sorted. A blank
   * string is the empty set.
   *
   * @throws IllegalArgumentException naming the offending item for an empty item ({@code "1,,2"}),
   *     a negative rank, a reversed range ({@code "5-3"}), a rank above {@link Integer#MAX_VALUE},
   *     or anything else that is not a rank or a range
   */
  public static RankSet parse(String text) {
    Objects.requireNonNull(text, "text");
    if (text.isBlank()) {
      return EMPTY;
    }
    RoaringBitmap bits = new RoaringBitmap();
    int itemStart = 0;
    int itemNumber = 1;
    while (true) {
      int comma = text.indexOf(',', itemStart);
      int itemEnd = comma < 0 ? text.length() : comma;
      parseItem(text, text.substring(itemStart, itemEnd), itemNumber, bits);
      if (comma < 0) {
        break;
      }
      itemStart = comma + 1;
      itemNumber++;
    }
    return adopt(bits);
  }

  private static void parseItem(String text, String rawItem, int itemNumber, RoaringBitmap into) {
    String item = rawItem.strip();
    if (item.isEmpty()) {
      throw parseError(text, itemNumber, rawItem, "empty item");
    }
    if (item.charAt(0) == '-') {
      throw parseError(text, itemNumber, item, negativeOrGarbage(item));
    }
    int dash = item.indexOf('-');
    if (dash < 0) {
      long rank = parseRank(text, itemNumber, item, item);
      into.add((int) rank);
      return;
    }
    String low = item.substring(0, dash).strip();
    String high = item.substring(dash + 1).strip();
    if (high.isEmpty()) {
      throw parseError(text, itemNumber, item, "range without an end");
    }
    if (high.charAt(0) == '-') {
      throw parseError(text, itemNumber, item, negativeOrGarbage(high));
    }
    long from = parseRank(text, itemNumber, item, low);
    long to = parseRank(text, itemNumber, item, high);
    if (from > to) {
      throw parseError(text, itemNumber, item, "reversed range (" + from + " > " + to + ")");
    }
    into.add(from, to + 1);
  }

  private static String negativeOrGarbage(String minusSomething) {
    String rest = minusSomething.substring(1).strip();
    return !rest.isEmpty() && rest.charAt(0) >= '0' && rest.charAt(0) <= '9'
        ? "negative rank"
        : "not a rank or a range";
  }

  private static long parseRank(String text, int itemNumber, String item, String digits) {
    if (digits.isEmpty()) {
      throw parseError(text, itemNumber, item, "not a rank or a range");
    }
    long value = 0;
    for (int i = 0; i < digits.length(); i++) {
      char c = digits.charAt(i);
      // ASCII only: Character.isDigit would accept e.g. Arabic-Indic digits.
      if (c < '0' || c > '9') {
        throw parseError(text, itemNumber, item, "not a rank or a range");
      }
      value = value * 10 + (c - '0');
      if (value > Integer.MAX_VALUE) {
        throw parseError(text, itemNumber, item, "rank above " + Integer.MAX_VALUE);
      }
    }
    return value;
  }

  private static IllegalArgumentException parseError(
      String text, int itemNumber, String item, String reason) {
    return new IllegalArgumentException(
        "bad rank set "
            + abbreviate(text)
            + ": "
            + reason
            + " in item "
            + itemNumber
            + " "
            + abbreviate(item));
  }

  /** Keeps error messages readable when a front-end sends a megabyte of ranks. */
  private static String abbreviate(String s) {
    return "\"" + (s.length() <= 80 ? s : s.substring(0, 77) + "...") + "\"";
  }

  /**
   * Reads the portable Roaring serialization written by {@link #toBytes} (or by any other Roaring
   * implementation). The bytes are checked completely: truncated input, trailing bytes, a corrupt
   * container and values above {@link Integer#MAX_VALUE} are rejected. Checking walks every rank
   * once, which costs about a millisecond per million ranks.
   *
   * @throws IllegalArgumentException if the bytes are not exactly one valid bitmap of ranks
   */
  public static RankSet fromBytes(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    RoaringBitmap bits = new RoaringBitmap();
    try {
      bits.deserialize(buffer);
    } catch (IOException | RuntimeException e) {
      // The decoder trusts its input: corrupt bytes surface as whatever runtime exception the
      // first bad read produces (InvalidRoaringFormat, BufferUnderflow, IndexOutOfBounds,
      // NegativeArraySize...). Callers get one documented type with the cause attached.
      throw new IllegalArgumentException(
          "malformed rank set bytes (" + bytes.length + " bytes): " + e, e);
    }
    // Deserialization keeps container types, so the size it reports is the number of bytes read.
    int used = bits.serializedSizeInBytes();
    if (used != bytes.length) {
      throw new IllegalArgumentException(
          "malformed rank set bytes: "
              + (bytes.length - used)
              + " trailing bytes after a bitmap of "
              + used
              + " bytes");
    }
    return adopt(checkedCanonicalCopy(bits));
  }

  /**
   * The decoder does not check container contents, so a corrupt container could yield a set that
   * answers queries inconsistently, or that holds equal ranks in a layout that {@link
   * RoaringBitmap#equals} considers different (unmerged adjacent runs, say). So the decoded bitmap
   * is only trusted to iterate: values must come strictly increasing, non-negative and as many as
   * the stored cardinalities say, and the result is rebuilt from the runs seen.
   */
  private static RoaringBitmap checkedCanonicalCopy(RoaringBitmap decoded) {
    long expected = decoded.getLongCardinality();
    RoaringBitmap canonical = new RoaringBitmap();
    long seen = 0;
    long runStart = -1;
    long previous = -1;
    PeekableIntIterator it = decoded.getIntIterator();
    while (it.hasNext()) {
      int value = it.next();
      if (value < 0) {
        throw new IllegalArgumentException(
            "malformed rank set bytes: value "
                + Integer.toUnsignedString(value)
                + " is not a rank");
      }
      if (value <= previous) {
        throw new IllegalArgumentException(
            "malformed rank set bytes: values not strictly increasing at " + value);
      }
      if (runStart < 0 || value != previous + 1) {
        if (runStart >= 0) {
          canonical.add(runStart, previous + 1);
        }
        runStart = value;
      }
      previous = value;
      seen++;
    }
    if (runStart >= 0) {
      canonical.add(runStart, previous + 1);
    }
    if (seen != expected) {
      throw new IllegalArgumentException(
          "malformed rank set bytes: cardinality " + expected + " but " + seen + " values");
    }
    return canonical;
  }

  /**
   * Roaring's portable serialization of this set. The bitmap is rebuilt from its runs and
   * run-optimized first, so that the container layout, and with it the bytes, depend only on the
   * content: two equal sets built in different ways serialize identically.
   */
  public byte[] toBytes() {
    RoaringBitmap canonical = new RoaringBitmap();
    forEachRun((from, toExclusive) -> canonical.add(from, toExclusive));
    canonical.runOptimize();
    ByteBuffer buffer =
        ByteBuffer.allocate(canonical.serializedSizeInBytes()).order(ByteOrder.LITTLE_ENDIAN);
    canonical.serialize(buffer);
    return buffer.array();
  }

  /** Receives maximal runs of consecutive ranks as {@code [from, toExclusive)}. */
  @FunctionalInterface
  private interface RunConsumer {
    void accept(long from, long toExclusive);
  }

  /**
   * Visits maximal runs in ascending order. Asks Roaring for the next present and next absent
   * value, which skips whole run and bitmap containers instead of visiting every rank.
   */
  private void forEachRun(RunConsumer consumer) {
    long start = bits.nextValue(0);
    while (start >= 0) {
      long end = bits.nextAbsentValue((int) start);
      consumer.accept(start, end);
      if (end > Integer.MAX_VALUE) {
        return;
      }
      start = bits.nextValue((int) end);
    }
  }

  /** Union: ranks in this set or in {@code other}. */
  public RankSet union(RankSet other) {
    Objects.requireNonNull(other, "other");
    if (other.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return other;
    }
    return adopt(RoaringBitmap.or(bits, other.bits));
  }

  /** Intersection: ranks in both this set and {@code other}. */
  public RankSet intersect(RankSet other) {
    Objects.requireNonNull(other, "other");
    return adopt(RoaringBitmap.and(bits, other.bits));
  }

  /** Difference: ranks in this set that are not in {@code other}. */
  public RankSet minus(RankSet other) {
    Objects.requireNonNull(other, "other");
    if (other.isEmpty()) {
      return this;
    }
    return adopt(RoaringBitmap.andNot(bits, other.bits));
  }

  /** Whether the two sets share at least one rank, without computing the intersection. */
  public boolean intersects(RankSet other) {
    Objects.requireNonNull(other, "other");
    return RoaringBitmap.intersects(bits, other.bits);
  }

  /** The number of ranks in both sets, without building the intersection. */
  public int intersectionSize(RankSet other) {
    Objects.requireNonNull(other, "other");
    return RoaringBitmap.andCardinality(bits, other.bits);
  }

  /** The number of ranks in {@code [fromInclusive, toExclusive)}, without building that range. */
  public int countInRange(int fromInclusive, int toExclusive) {
    requireRange(fromInclusive, toExclusive);
    return (int) bits.rangeCardinality(fromInclusive, toExclusive);
  }

  /** Whether {@code rank} is in the set; always false for a negative argument. */
  public boolean contains(int rank) {
    return rank >= 0 && bits.contains(rank);
  }

  /** Whether every rank of {@code other} is in this set; true for an empty {@code other}. */
  public boolean containsAll(RankSet other) {
    Objects.requireNonNull(other, "other");
    return bits.contains(other.bits);
  }

  /**
   * Why this set does not fit a job of {@code size} ranks ({@code 0 .. size - 1}), in the words
   * users see: {@code "rank 9 is out of range: the job has ranks 0-3"}, naming the largest rank;
   * empty when every rank is in the job (the empty set fits any job).
   *
   * @throws IllegalArgumentException if {@code size} is below 1
   */
  public Optional<String> outOfRange(int size) {
    if (size < 1) {
      throw new IllegalArgumentException("a job has at least one rank: " + size);
    }
    if (isEmpty() || last() < size) {
      return Optional.empty();
    }
    return Optional.of("rank " + last() + " is out of range: the job has ranks 0-" + (size - 1));
  }

  public boolean isEmpty() {
    return bits.isEmpty();
  }

  /**
   * The number of ranks. Only a set that includes every rank from 0 to {@link Integer#MAX_VALUE}
   * has more elements than an {@code int} holds; its size is reported as {@link Integer#MAX_VALUE}.
   * {@link #longSize()} is exact.
   */
  public int size() {
    return (int) Math.min(bits.getLongCardinality(), Integer.MAX_VALUE);
  }

  /** The exact number of ranks. */
  public long longSize() {
    return bits.getLongCardinality();
  }

  /**
   * The smallest rank.
   *
   * @throws NoSuchElementException if the set is empty
   */
  public int first() {
    if (isEmpty()) {
      throw new NoSuchElementException("empty rank set has no first rank");
    }
    return bits.first();
  }

  /**
   * The largest rank.
   *
   * @throws NoSuchElementException if the set is empty
   */
  public int last() {
    if (isEmpty()) {
      throw new NoSuchElementException("empty rank set has no last rank");
    }
    return bits.last();
  }

  /** The ranks in ascending order. */
  public IntStream stream() {
    return StreamSupport.intStream(
        Spliterators.spliterator(
            iterator(),
            longSize(),
            Spliterator.ORDERED
                | Spliterator.SORTED
                | Spliterator.DISTINCT
                | Spliterator.NONNULL
                | Spliterator.IMMUTABLE),
        false);
  }

  /** The ranks in ascending order; {@code remove} is not supported. */
  public PrimitiveIterator.OfInt iterator() {
    PeekableIntIterator it = bits.getIntIterator();
    return new PrimitiveIterator.OfInt() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public int nextInt() {
        if (!it.hasNext()) {
          throw new NoSuchElementException();
        }
        return it.next();
      }
    };
  }

  /** Passes every rank in ascending order to {@code action}, without boxing. */
  public void forEach(IntConsumer action) {
    Objects.requireNonNull(action, "action");
    bits.forEach((org.roaringbitmap.IntConsumer) action::accept);
  }

  /** Equal when both sets hold the same ranks, however they were built. */
  @Override
  public boolean equals(Object o) {
    return o == this || (o instanceof RankSet other && bits.equals(other.bits));
  }

  /**
   * Computed from the runs, not from {@link RoaringBitmap#hashCode()}: Roaring's hash depends on
   * the container types, so equal sets held as an array and as a run container would hash
   * differently.
   */
  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      int[] acc = {1};
      forEachRun(
          (from, toExclusive) ->
              acc[0] = 31 * (31 * acc[0] + (int) from) + (int) (toExclusive - from));
      // 0 marks "not computed"; moving it to 1 keeps the cache effective for every set.
      h = acc[0] == 0 ? 1 : acc[0];
      hash = h;
    }
    return h;
  }

  /**
   * The canonical text form described in the class comment: ascending, ranges for runs of three or
   * more, {@code ""} for the empty set. Linear in the number of runs, not of ranks.
   */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    forEachRun(
        (from, toExclusive) -> {
          long last = toExclusive - 1;
          appendItem(out, from);
          if (last - from >= 2) {
            out.append('-').append(last);
          } else if (last > from) {
            appendItem(out, last);
          }
        });
    return out.toString();
  }

  private static void appendItem(StringBuilder out, long rank) {
    if (out.length() > 0) {
      out.append(',');
    }
    out.append(rank);
  }

  private static void requireRank(int rank) {
    if (rank < 0) {
      throw new IllegalArgumentException("rank must not be negative: " + rank);
    }
  }

  private static void requireRange(int fromInclusive, int toExclusive) {
    if (fromInclusive < 0 || toExclusive < fromInclusive) {
      throw new IllegalArgumentException(
          "bad rank range [" + fromInclusive + ", " + toExclusive + ")");
    }
  }

  /** A fresh builder, empty. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Accumulates ranks into one mutable bitmap, for aggregation paths that add ranks one reply at a
   * time. Not thread-safe. {@link #build()} copies, so the builder may keep growing afterwards
   * without affecting sets already built.
   */
  public static final class Builder {
    private final RoaringBitmap bits = new RoaringBitmap();

    private Builder() {}

    /**
     * Adds one rank.
     *
     * @throws IllegalArgumentException if the rank is negative
     */
    public Builder add(int rank) {
      requireRank(rank);
      bits.add(rank);
      return this;
    }

    /**
     * Adds {@code fromInclusive .. toExclusive - 1}.
     *
     * @throws IllegalArgumentException if {@code fromInclusive} is negative or greater than {@code
     *     toExclusive}
     */
    public Builder addRange(int fromInclusive, int toExclusive) {
      requireRange(fromInclusive, toExclusive);
      bits.add((long) fromInclusive, (long) toExclusive);
      return this;
    }

    /** Adds every rank of {@code ranks}. */
    public Builder addAll(RankSet ranks) {
      Objects.requireNonNull(ranks, "ranks");
      bits.or(ranks.bits);
      return this;
    }

    /** Removes every rank of {@code ranks}. */
    public Builder removeAll(RankSet ranks) {
      Objects.requireNonNull(ranks, "ranks");
      bits.andNot(ranks.bits);
      return this;
    }

    public boolean isEmpty() {
      return bits.isEmpty();
    }

    /** A set of the ranks added so far. */
    public RankSet build() {
      return adopt(bits.clone());
    }
  }
}
