package io.sdmfabric.gdbmi;

import java.util.Objects;

/**
 * A result record: gdb's one answer to a command, e.g. {@code 12^done,bkpt={number="1",...}}.
 *
 * <p>The token is the numeric prefix the front end put on the command, echoed back so that the
 * answer can be matched to its request; it is {@link #NO_TOKEN} when the command had none (gdb also
 * answers CLI commands and some internal events without one).
 *
 * @param token the non-negative token, or {@link #NO_TOKEN}
 * @param resultClass the outcome of the command
 * @param results the {@code name=value} pairs that followed the class, in order; {@link
 *     MiTuple#EMPTY} when there were none
 */
public record MiResultRecord(long token, MiResultClass resultClass, MiTuple results)
    implements MiRecord {

  /** The token of a record that gdb printed without one. */
  public static final long NO_TOKEN = -1;

  /** Validates that the token is {@link #NO_TOKEN} or non-negative and that nothing is null. */
  public MiResultRecord {
    if (token < NO_TOKEN) {
      throw new IllegalArgumentException("token must be NO_TOKEN or >= 0, got " + token);
    }
    Objects.requireNonNull(resultClass, "resultClass");
    Objects.requireNonNull(results, "results");
  }

  /** Whether gdb echoed a token, i.e. whether this answers a command the front end numbered. */
  public boolean hasToken() {
    return token != NO_TOKEN;
  }
}
