package io.sdmfabric.gdbmi;

import java.util.Objects;

/**
 * An async (out-of-band) record, e.g. {@code *stopped,reason="breakpoint-hit",frame={...}}.
 *
 * <p>The async class is kept as a string because the GDB manual leaves the set open ("stopped |
 * others") and new gdb versions add classes; interpreting it belongs to the typed layer above.
 *
 * @param token the token of the command that caused the record, or {@link MiResultRecord#NO_TOKEN}
 *     (the usual case)
 * @param kind the channel, from the prefix character
 * @param asyncClass the class name as gdb spelled it, never empty, e.g. {@code
 *     "thread-group-started"}
 * @param results the {@code name=value} pairs after the class, in order
 */
public record MiAsyncRecord(long token, MiAsyncKind kind, String asyncClass, MiTuple results)
    implements MiRecord {

  /** Validates the token, rejects an empty class and nulls. */
  public MiAsyncRecord {
    if (token < MiResultRecord.NO_TOKEN) {
      throw new IllegalArgumentException("token must be NO_TOKEN or >= 0, got " + token);
    }
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(asyncClass, "asyncClass");
    if (asyncClass.isEmpty()) {
      throw new IllegalArgumentException("asyncClass must not be empty");
    }
    Objects.requireNonNull(results, "results");
  }

  /** Whether gdb echoed the token of the command that caused this record. */
  public boolean hasToken() {
    return token != MiResultRecord.NO_TOKEN;
  }
}
