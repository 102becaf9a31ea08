package io.sdmfabric.model;

import java.util.Objects;
import java.util.Set;

/**
 * The state of a runtime model element, with the transitions it may make. Implemented by the enums
 * {@link JobState}, {@link ProcessState} and {@link NodeState}.
 *
 * <p>Rules shared by all three: staying in the same state is always legal and is a no-op (no event
 * is fired), so that duplicate reports from the tree (a straggler repeating "exited") are harmless;
 * the first state ({@code UNKNOWN} of jobs and nodes, "not yet reported"; a process's {@code
 * NOT_STARTED}) may move to any state; nothing moves back to {@code UNKNOWN}; a final state moves
 * nowhere else.
 *
 * @param <S> the enum implementing this interface
 */
public sealed interface ElementState<S extends Enum<S> & ElementState<S>>
    permits JobState, ProcessState, NodeState {

  /** Whether an element in this state may move to {@code next}; true for {@code next == this}. */
  default boolean canMoveTo(S next) {
    Objects.requireNonNull(next, "next");
    return next == this || successors().contains(next);
  }

  /** The other states this one may move to, excluding itself; empty for a final state. */
  Set<S> successors();

  /** Whether no transition leads out of this state. */
  default boolean isFinal() {
    return successors().isEmpty();
  }
}
