package io.sdmfabric.server;

import io.sdmfabric.wire.proto.EventBody;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Shares the replies of the ranks of one JVM that answer with equal results: ranks stopped at the
 * same place report equal frame lists, and building and serializing the same 30-frame reply for
 * each of them was most of the cost of a merged backtrace. Keys are the debugger's results (records
 * and lists of records, compared by value), so equal results share one {@link ReplyBody}. Bounded:
 * when full, it starts over.
 */
public final class ReplyCache {
  private static final int DEFAULT_CAPACITY = 4096;

  private final int capacity;
  private final Map<Key, ReplyBody> bodies = new ConcurrentHashMap<>();

  /** Results of different commands may be equal (a type and a text are both strings). */
  private record Key(String kind, Object result) {}

  /** A cache of at most {@code capacity} distinct replies. */
  public ReplyCache(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive: " + capacity);
    }
    this.capacity = capacity;
  }

  /** A cache of 4096 distinct replies. */
  public ReplyCache() {
    this(DEFAULT_CAPACITY);
  }

  /**
   * The shared reply for the result of a kind of command ({@code "frames"}, {@code "type"} ...),
   * made by {@code convert} the first time.
   */
  public <T> ReplyBody reply(String kind, T result, Function<T, EventBody> convert) {
    Key key = new Key(kind, result);
    ReplyBody known = bodies.get(key);
    if (known != null) {
      return known;
    }
    ReplyBody made = ReplyBody.of(convert.apply(result));
    if (bodies.size() >= capacity) {
      bodies.clear();
    }
    ReplyBody raced = bodies.putIfAbsent(key, made);
    return raced != null ? raced : made;
  }
}
