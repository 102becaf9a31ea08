package io.sdmfabric.model;

import java.util.Objects;

/**
 * A breakpoint to insert.
 *
 * @param location where it goes
 * @param condition an expression in the program's language; empty for none
 * @param ignoreCount how many hits to pass over before stopping
 * @param temporary deleted after its first stop
 * @param enabled inserted enabled, or disabled
 */
public record BreakpointSpec(
    Location location, String condition, int ignoreCount, boolean temporary, boolean enabled) {

  public BreakpointSpec {
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(condition, "condition");
    if (ignoreCount < 0) {
      throw new IllegalArgumentException("ignoreCount must be >= 0: " + ignoreCount);
    }
  }

  /** An enabled, permanent, unconditional breakpoint. */
  public static BreakpointSpec at(Location location) {
    return new BreakpointSpec(location, "", 0, false, true);
  }

  /** An enabled, permanent, unconditional breakpoint at a location in console form. */
  public static BreakpointSpec at(String location) {
    return at(Location.parse(location));
  }

  /** This breakpoint with a condition. */
  public BreakpointSpec withCondition(String expression) {
    return new BreakpointSpec(location, expression, ignoreCount, temporary, enabled);
  }

  /** This breakpoint passing over its first {@code count} hits. */
  public BreakpointSpec withIgnoreCount(int count) {
    return new BreakpointSpec(location, condition, count, temporary, enabled);
  }

  /** This breakpoint, deleted after its first stop. */
  public BreakpointSpec asTemporary() {
    return new BreakpointSpec(location, condition, ignoreCount, true, enabled);
  }

  /** This breakpoint, inserted disabled. */
  public BreakpointSpec asDisabled() {
    return new BreakpointSpec(location, condition, ignoreCount, temporary, false);
  }
}
