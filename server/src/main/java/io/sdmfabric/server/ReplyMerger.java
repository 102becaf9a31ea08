package io.sdmfabric.server;

import io.sdmfabric.model.RankSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Merges replies with equal bodies into one group with the union of their ranks. Bodies are
 * compared by a hash first and then byte by byte inside a bucket, so that a hash collision never
 * merges different bodies (the C SDM compared only a 32-bit hash).
 *
 * <p>Most merges see a handful of distinct bodies, so the groups live in a list scanned by hash;
 * past {@value #INDEX_THRESHOLD} groups a hash index (open addressing, at most half full) takes
 * over, so that N distinct replies cost O(N), not O(N^2). A merger for a command's replies may cap
 * the classes of values it gives back ({@link ValueClasses}): past the cap, {@link #drain} folds
 * the rest into one summary. Not thread-safe: one actor owns it.
 */
public final class ReplyMerger {
  static final int INDEX_THRESHOLD = 8;

  private final ToIntFunction<byte[]> hasher;
  private final int valueClasses;
  private final List<Entry> entries = new ArrayList<>(2);
  private Entry[] index; // open addressing by hash, linear probing; null up to the threshold
  private int rankCount;

  /**
   * A class of equal bodies and its ranks. Most classes of a distinct reply hold the one set they
   * came with (a rank, or a child's group), so a builder is made only when a second set joins: a
   * million classes of one rank each then cost a million small sets, not a million builders and
   * their copies.
   */
  private static final class Entry {
    final byte[] body;
    final int hash;
    RankSet first;
    RankSet.Builder more; // null while the class holds only {@code first}

    Entry(byte[] body, int hash, RankSet first) {
      this.body = body;
      this.hash = hash;
      this.first = first;
    }

    void add(RankSet ranks) {
      if (more == null) {
        more = RankSet.builder().addAll(first);
      }
      more.addAll(ranks);
    }

    void add(int rank) {
      if (more == null) {
        more = RankSet.builder().addAll(first);
      }
      more.add(rank);
    }

    RankSet ranks() {
      return more == null ? first : more.build();
    }
  }

  /**
   * A merger hashing bodies with {@code hasher}: the tree's nodes pass {@link
   * FabricConfig#hasher()}, which is {@link FabricConfig#sampledHash} unless a test forces
   * collisions.
   */
  public ReplyMerger(ToIntFunction<byte[]> hasher) {
    this(hasher, Integer.MAX_VALUE);
  }

  /**
   * A merger hashing bodies with {@code hasher} whose {@link #drain} gives back at most {@code
   * valueClasses} classes of values and folds the others into one summary ({@link ValueClasses}).
   */
  public ReplyMerger(ToIntFunction<byte[]> hasher, int valueClasses) {
    this.hasher = hasher;
    this.valueClasses = valueClasses;
  }

  /** A merger with the fabric's default hash, {@link FabricConfig#sampledHash}. */
  public ReplyMerger() {
    this(FabricConfig::sampledHash);
  }

  /** Adds one rank's reply. */
  public void add(int rank, byte[] body) {
    int hash = hasher.applyAsInt(body);
    Entry e = find(body, hash);
    if (e == null) {
      insert(new Entry(body, hash, RankSet.of(rank)));
    } else {
      e.add(rank);
    }
    rankCount++;
  }

  /** Adds a group of ranks with the same reply. */
  public void add(RankSet ranks, byte[] body) {
    int hash = hasher.applyAsInt(body);
    Entry e = find(body, hash);
    if (e == null) {
      insert(new Entry(body, hash, ranks));
    } else {
      e.add(ranks);
    }
    rankCount += ranks.size();
  }

  /** Adds every group. */
  public void addAll(List<ReplyGroup> groups) {
    for (ReplyGroup g : groups) {
      add(g.ranks(), g.body());
    }
  }

  /** How many ranks were added since the last drain (ranks are assumed not to repeat). */
  public int rankCount() {
    return rankCount;
  }

  /** Whether nothing was added since the last drain. */
  public boolean isEmpty() {
    return entries.isEmpty();
  }

  /** The ranks added since the last drain. */
  public RankSet ranks() {
    RankSet.Builder all = RankSet.builder();
    for (Entry e : entries) {
      all.addAll(e.ranks());
    }
    return all.build();
  }

  /**
   * The merged groups, in order of first arrival, and a fresh start. Past the cap on value classes,
   * the groups that are not values in order of arrival, then the value classes kept and their
   * summary ({@link ValueClasses#capped}).
   */
  public List<ReplyGroup> drain() {
    List<ReplyGroup> groups = new ArrayList<>(entries.size());
    for (Entry e : entries) {
      groups.add(new ReplyGroup(e.ranks(), e.body));
    }
    entries.clear();
    index = null;
    rankCount = 0;
    return valueClasses == Integer.MAX_VALUE ? groups : ValueClasses.capped(groups, valueClasses);
  }

  private Entry find(byte[] body, int hash) {
    if (index == null) {
      for (Entry e : entries) {
        if (e.hash == hash && Arrays.equals(e.body, body)) {
          return e;
        }
      }
      return null;
    }
    int mask = index.length - 1;
    for (int i = spread(hash) & mask; index[i] != null; i = (i + 1) & mask) {
      Entry e = index[i];
      if (e.hash == hash && Arrays.equals(e.body, body)) {
        return e;
      }
    }
    return null;
  }

  private void insert(Entry e) {
    entries.add(e);
    if (index != null) {
      if (entries.size() * 2 > index.length) {
        buildIndex(index.length * 2);
      } else {
        place(e);
      }
    } else if (entries.size() > INDEX_THRESHOLD) {
      buildIndex(64);
    }
  }

  private void buildIndex(int slots) {
    index = new Entry[slots];
    for (Entry e : entries) {
      place(e);
    }
  }

  private void place(Entry e) {
    int mask = index.length - 1;
    int i = spread(e.hash) & mask;
    while (index[i] != null) {
      i = (i + 1) & mask;
    }
    index[i] = e;
  }

  // The hash's high bits into the low ones that pick a slot, as HashMap does.
  private static int spread(int hash) {
    return hash ^ (hash >>> 16);
  }
}
