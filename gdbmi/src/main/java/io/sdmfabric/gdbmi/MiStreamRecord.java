package io.sdmfabric.gdbmi;

import java.util.Objects;

/**
 * A stream record, e.g. {@code ~"Reading symbols from ./a.out...\n"}.
 *
 * <p>The text is already decoded (escapes resolved, bytes read as UTF-8), and carries its own
 * newlines: gdb splits console output into records at arbitrary points, so consumers concatenate
 * the texts rather than treating each record as a line.
 *
 * @param kind the stream
 * @param text the decoded c-string, possibly empty
 */
public record MiStreamRecord(MiStreamKind kind, String text) implements MiRecord {

  /** Rejects nulls. */
  public MiStreamRecord {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(text, "text");
  }
}
