package io.sdmfabric.model;

import java.util.Objects;

/**
 * A breakpoint or watchpoint as the debugger holds it.
 *
 * @param id the debugger's number for it
 * @param kind breakpoint or watchpoint
 * @param location where it is, as the debugger describes it (e.g. {@code main at demo.c:12}, or the
 *     watched expression)
 * @param file source file, empty when unknown (no debug info, pending, or a watchpoint)
 * @param line source line, 0 when unknown
 * @param enabled whether it stops the program
 * @param temporary deleted after its first stop
 * @param condition the condition, empty for none
 * @param ignoreCount hits still to pass over
 * @param hits how many times it was hit
 */
public record Breakpoint(
    int id,
    Kind kind,
    String location,
    String file,
    int line,
    boolean enabled,
    boolean temporary,
    String condition,
    int ignoreCount,
    int hits) {

  /** The kinds of breakpoint. */
  public enum Kind {
    BREAKPOINT,
    WATCHPOINT,
    READ_WATCHPOINT,
    ACCESS_WATCHPOINT,
    OTHER
  }

  public Breakpoint {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(condition, "condition");
  }
}
