package io.sdmfabric.model;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The life cycle of one application process (one MPI rank) under the debugger, as in Eclipse PTP
 * 2.x. Legal transitions, besides staying put (see {@link ElementState}):
 *
 * <ul>
 *   <li>{@code UNKNOWN} to any other state;
 *   <li>{@code STARTING} to {@code RUNNING}, {@code SUSPENDED} (stopped at the entry point or right
 *       after attach), {@code EXITED}, {@code EXITED_SIGNALLED} or {@code ERROR};
 *   <li>{@code RUNNING} and {@code SUSPENDED} to each other, and to {@code EXITED}, {@code
 *       EXITED_SIGNALLED} or {@code ERROR};
 *   <li>{@code EXITED}, {@code EXITED_SIGNALLED} and {@code ERROR} are final: a process does not
 *       come back, and a lost rank (its debugger died) stays lost.
 * </ul>
 */
public enum ProcessState implements ElementState<ProcessState> {
  /** Launched, not yet under control of the debugger. */
  STARTING,
  /** Executing application code. */
  RUNNING,
  /** Exited normally; the exit code is in {@link Attributes#EXIT_CODE}. */
  EXITED,
  /** Killed by a signal; its name is in {@link Attributes#SIGNAL_NAME}. */
  EXITED_SIGNALLED,
  /** Stopped by the debugger (breakpoint, step, signal, interrupt). */
  SUSPENDED,
  /** The debugger lost or failed to control the process. */
  ERROR,
  /** Not yet reported. */
  UNKNOWN;

  private static final Map<ProcessState, Set<ProcessState>> SUCCESSORS =
      new EnumMap<>(ProcessState.class);

  static {
    Set<ProcessState> ends = EnumSet.of(EXITED, EXITED_SIGNALLED, ERROR);
    SUCCESSORS.put(STARTING, with(ends, RUNNING, SUSPENDED));
    SUCCESSORS.put(RUNNING, with(ends, SUSPENDED));
    SUCCESSORS.put(SUSPENDED, with(ends, RUNNING));
    SUCCESSORS.put(EXITED, Set.of());
    SUCCESSORS.put(EXITED_SIGNALLED, Set.of());
    SUCCESSORS.put(ERROR, Set.of());
    SUCCESSORS.put(UNKNOWN, Collections.unmodifiableSet(EnumSet.complementOf(EnumSet.of(UNKNOWN))));
  }

  private static Set<ProcessState> with(Set<ProcessState> base, ProcessState... more) {
    EnumSet<ProcessState> all = EnumSet.copyOf(base);
    Collections.addAll(all, more);
    return Collections.unmodifiableSet(all);
  }

  @Override
  public Set<ProcessState> successors() {
    return SUCCESSORS.get(this);
  }
}
