package io.sdmfabric.model;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The reachability of a compute node (its debugger agent), as in Eclipse PTP 2.x. Unlike jobs and
 * processes, nodes have no final state: a node reports what is observed now, and an agent that
 * failed may reconnect. Legal transitions, besides staying put (see {@link ElementState}): {@code
 * UNKNOWN} to any other state, and any two of {@code UP}, {@code DOWN} and {@code ERROR} in either
 * direction. Nothing moves back to {@code UNKNOWN}.
 */
public enum NodeState implements ElementState<NodeState> {
  /** The node's agent is connected. */
  UP,
  /** The node's agent disconnected or was shut down. */
  DOWN,
  /** The node's agent reported a failure or could not be started. */
  ERROR,
  /** Not yet reported. */
  UNKNOWN;

  private static final Map<NodeState, Set<NodeState>> SUCCESSORS = new EnumMap<>(NodeState.class);

  static {
    for (NodeState state : values()) {
      EnumSet<NodeState> others = EnumSet.complementOf(EnumSet.of(state, UNKNOWN));
      SUCCESSORS.put(state, Collections.unmodifiableSet(others));
    }
  }

  @Override
  public Set<NodeState> successors() {
    return SUCCESSORS.get(this);
  }
}
