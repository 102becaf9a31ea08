package io.sdmfabric.connect;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Tells the user why the listener refused connections, without letting a flood of them flood the
 * terminal: the first refusal of each kind is said in full, then a count at the 10th, 100th, 1000th
 * ... of that kind, with the last one's words. So a stranger who opens a million connections costs
 * the user a handful of lines, and a real master refused for a reason (a wrong secret, a request
 * reached already) is still said when it is the first of its kind.
 */
final class Refusals {
  /** Why a connection was refused before it was authenticated. */
  enum Kind {
    /** Closed still in its handshake, the oldest, to make room for a newer connection. */
    CROWDED("closed before the end of their handshake to make room for newer connections"),
    /** Its handshake, TLS included, did not end by the deadline. */
    LATE("did not end their handshake in time"),
    /** What came was not a TLS client's handshake. */
    NOT_TLS("were not TLS"),
    /** TLS was fine; the front-end protocol's handshake refused it. */
    HANDSHAKE("were refused in the handshake");

    private final String plural;

    Kind(String plural) {
      this.plural = plural;
    }
  }

  private final Consumer<String> warnings;
  private final Map<Kind, Long> counts = new EnumMap<>(Kind.class);

  Refusals(Consumer<String> warnings) {
    this.warnings = warnings;
  }

  /** One more refusal of {@code kind}; {@code what} says which connection and why. */
  void refused(Kind kind, String what) {
    long n;
    synchronized (counts) {
      n = counts.merge(kind, 1L, Long::sum);
    }
    if (n == 1) {
      warnings.accept(what);
    } else if (isPowerOfTen(n)) {
      warnings.accept(n + " connections " + kind.plural + " so far; the last: " + what);
    }
  }

  /** How many refusals of {@code kind} there were. */
  long count(Kind kind) {
    synchronized (counts) {
      return counts.getOrDefault(kind, 0L);
    }
  }

  private static boolean isPowerOfTen(long n) {
    while (n % 10 == 0) {
      n /= 10;
    }
    return n == 1;
  }
}
