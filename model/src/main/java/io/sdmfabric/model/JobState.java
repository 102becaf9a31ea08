package io.sdmfabric.model;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The life cycle of a debug job as a whole, as in Eclipse PTP 2.x. The job's state is set by the
 * session, not derived from its processes. Legal transitions, besides staying put (see {@link
 * ElementState}):
 *
 * <ul>
 *   <li>{@code UNKNOWN} to any other state;
 *   <li>{@code PENDING} (submitted, waiting for resources) to {@code STARTED}, {@code RUNNING},
 *       {@code TERMINATED} (cancelled before it ran) or {@code ERROR};
 *   <li>{@code STARTED} (launched, processes registering) to {@code RUNNING}, {@code SUSPENDED},
 *       {@code TERMINATED} or {@code ERROR};
 *   <li>{@code RUNNING} and {@code SUSPENDED} to each other, and to {@code TERMINATED} or {@code
 *       ERROR};
 *   <li>{@code TERMINATED} and {@code ERROR} are final.
 * </ul>
 */
public enum JobState implements ElementState<JobState> {
  /** Submitted, waiting for resources or for the launcher. */
  PENDING,
  /** Launched; processes are registering with the debugger. */
  STARTED,
  /** At least one process runs. */
  RUNNING,
  /** Finished: every process exited or the job was cancelled. */
  TERMINATED,
  /** Every live process is stopped by the debugger. */
  SUSPENDED,
  /** The launch or the session failed. */
  ERROR,
  /** Not yet reported. */
  UNKNOWN;

  private static final Map<JobState, Set<JobState>> SUCCESSORS = new EnumMap<>(JobState.class);

  static {
    SUCCESSORS.put(PENDING, of(STARTED, RUNNING, TERMINATED, ERROR));
    SUCCESSORS.put(STARTED, of(RUNNING, SUSPENDED, TERMINATED, ERROR));
    SUCCESSORS.put(RUNNING, of(SUSPENDED, TERMINATED, ERROR));
    SUCCESSORS.put(SUSPENDED, of(RUNNING, TERMINATED, ERROR));
    SUCCESSORS.put(TERMINATED, Set.of());
    SUCCESSORS.put(ERROR, Set.of());
    SUCCESSORS.put(UNKNOWN, Collections.unmodifiableSet(EnumSet.complementOf(EnumSet.of(UNKNOWN))));
  }

  private static Set<JobState> of(JobState first, JobState... rest) {
    return Collections.unmodifiableSet(EnumSet.of(first, rest));
  }

  @Override
  public Set<JobState> successors() {
    return SUCCESSORS.get(this);
  }
}
