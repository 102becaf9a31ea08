package io.sdmfabric.model;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The life cycle of one application process (one MPI rank) under the debugger, as the front-ends
 * show it ({@code procs}, the debug adapter's threads). Legal transitions, besides staying put (see
 * {@link ElementState}):
 *
 * <ul>
 *   <li>{@code NOT_STARTED} to any other state;
 *   <li>{@code RUNNING} and {@code STOPPED} to each other, and to {@code EXITED}, {@code DETACHED},
 *       {@code LOST} or {@code ERROR};
 *   <li>{@code RUNNING} back to {@code NOT_STARTED}: the run that was to start it failed;
 *   <li>{@code DETACHED} and {@code ERROR} to {@code LOST}: the process is gone or out of reach,
 *       and then its server goes too;
 *   <li>{@code EXITED} and {@code LOST} are final: a process does not come back, and a lost rank
 *       (its server is gone) stays lost.
 * </ul>
 */
public enum ProcessState implements ElementState<ProcessState> {
  /** Its program is loaded, or it waits to be attached; it has not run under the debugger yet. */
  NOT_STARTED,
  /** Executing application code. */
  RUNNING,
  /** Stopped by the debugger: a breakpoint, a step, a signal, an interrupt, an attach. */
  STOPPED,
  /** Its program ended, with an exit code or by a signal; its place says which. */
  EXITED,
  /** Its process runs on without a debugger. */
  DETACHED,
  /** Its server is gone: nothing more is known of it. */
  LOST,
  /** Its debugger ended on its own or could not control it; its place says why. */
  ERROR;

  private static final Map<ProcessState, Set<ProcessState>> SUCCESSORS =
      new EnumMap<>(ProcessState.class);

  static {
    Set<ProcessState> ends = EnumSet.of(EXITED, DETACHED, LOST, ERROR);
    SUCCESSORS.put(
        NOT_STARTED, Collections.unmodifiableSet(EnumSet.complementOf(EnumSet.of(NOT_STARTED))));
    SUCCESSORS.put(RUNNING, with(ends, STOPPED, NOT_STARTED));
    SUCCESSORS.put(STOPPED, with(ends, RUNNING));
    SUCCESSORS.put(EXITED, Set.of());
    SUCCESSORS.put(DETACHED, Set.of(LOST));
    SUCCESSORS.put(LOST, Set.of());
    SUCCESSORS.put(ERROR, Set.of(LOST));
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

  /** Whether the process is still there to debug: not started, running or stopped. */
  public boolean live() {
    return this == NOT_STARTED || this == RUNNING || this == STOPPED;
  }
}
