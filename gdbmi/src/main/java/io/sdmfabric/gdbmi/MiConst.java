package io.sdmfabric.gdbmi;

import java.util.Objects;

/**
 * A constant: a c-string from gdb's output, decoded.
 *
 * <p>MI has no numbers or booleans: {@code line="12"} and {@code enabled="y"} are strings, and the
 * typed layer converts them.
 *
 * @param value the decoded text (escapes resolved, bytes read as UTF-8), possibly empty
 */
public record MiConst(String value) implements MiValue {

  /** Rejects null. */
  public MiConst {
    Objects.requireNonNull(value, "value");
  }
}
