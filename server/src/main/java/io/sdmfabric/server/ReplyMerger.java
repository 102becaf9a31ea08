package io.sdmfabric.server;

import io.sdmfabric.model.RankSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Merges replies with equal bodies into one group with the union of their ranks. Bodies are
 * compared by a hash first and then byte by byte inside a bucket, so that a hash collision never
 * merges different bodies (the C SDM compared only a 32-bit hash).
 *
 * <p>Most merges see a handful of distinct bodies, so the groups live in a list scanned by hash;
 * past {@value #INDEX_THRESHOLD} groups a hash index takes over, so that N distinct replies cost
 * O(N), not O(N^2). A merger for a command's replies may cap the classes of values it gives back
 * ({@link ValueClasses}): past the cap, {@link #drain} folds the rest into one summary. Not
 * thread-safe: one actor owns it.
 */
public final class ReplyMerger {
  static final int INDEX_THRESHOLD = 8;

  private final ToIntFunction<byte[]> hasher;
  private final int valueClasses;
  private final List<Entry> entries = new ArrayList<>(2);
  private Map<Integer, Object> index; // hash -> Entry, or List<Entry> for a collision
  private int rankCount;

  private static final class Entry {
    final byte[] body;
    final int hash;
    final RankSet.Builder ranks = RankSet.builder();

    Entry(byte[] body, int hash) {
      this.body = body;
      this.hash = hash;
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
    entry(body).ranks.add(rank);
    rankCount++;
  }

  /** Adds a group of ranks with the same reply. */
  public void add(RankSet ranks, byte[] body) {
    entry(body).ranks.addAll(ranks);
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
      all.addAll(e.ranks.build());
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
      groups.add(new ReplyGroup(e.ranks.build(), e.body));
    }
    entries.clear();
    index = null;
    rankCount = 0;
    return valueClasses == Integer.MAX_VALUE ? groups : ValueClasses.capped(groups, valueClasses);
  }

  private Entry entry(byte[] body) {
    int hash = hasher.applyAsInt(body);
    if (index == null) {
      for (Entry e : entries) {
        if (e.hash == hash && Arrays.equals(e.body, body)) {
          return e;
        }
      }
      Entry e = new Entry(body, hash);
      entries.add(e);
      if (entries.size() > INDEX_THRESHOLD) {
        buildIndex();
      }
      return e;
    }
    return indexed(body, hash);
  }

  @SuppressWarnings("unchecked")
  private Entry indexed(byte[] body, int hash) {
    Object bucket = index.get(hash);
    if (bucket instanceof Entry e && Arrays.equals(e.body, body)) {
      return e;
    }
    if (bucket instanceof List<?> list) {
      for (Entry e : (List<Entry>) list) {
        if (Arrays.equals(e.body, body)) {
          return e;
        }
      }
    }
    Entry e = new Entry(body, hash);
    entries.add(e);
    place(e);
    return e;
  }

  @SuppressWarnings("unchecked")
  private void place(Entry e) {
    Object bucket = index.get(e.hash);
    if (bucket == null) {
      index.put(e.hash, e);
    } else if (bucket instanceof Entry other) {
      List<Entry> list = new ArrayList<>(2);
      list.add(other);
      list.add(e);
      index.put(e.hash, list);
    } else {
      ((List<Entry>) bucket).add(e);
    }
  }

  private void buildIndex() {
    index = new HashMap<>();
    for (Entry e : entries) {
      place(e);
    }
  }
}
