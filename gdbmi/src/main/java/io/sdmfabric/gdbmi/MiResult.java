package io.sdmfabric.gdbmi;

import java.util.Objects;

/**
 * One {@code name=value} pair of a record, tuple or list.
 *
 * @param name the variable name as gdb spelled it, e.g. {@code "thread-id"}; never empty
 * @param value its value
 */
public record MiResult(String name, MiValue value) {

  /** Rejects nulls and an empty name (the grammar has no nameless results). */
  public MiResult {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("result name must not be empty");
    }
    Objects.requireNonNull(value, "value");
  }
}
