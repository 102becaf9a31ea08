package io.sdmfabric.gdbmi;

import java.util.Objects;

/**
 * gdb's answer to one MI command that did not fail: the result record's class and results, and the
 * console text gdb printed while it ran the command (what a CLI command prints, through {@code
 * -interpreter-exec console}).
 */
public record MiReply(MiResultClass resultClass, MiTuple results, String console) {
  public MiReply {
    Objects.requireNonNull(resultClass, "resultClass");
    Objects.requireNonNull(results, "results");
    Objects.requireNonNull(console, "console");
  }
}
