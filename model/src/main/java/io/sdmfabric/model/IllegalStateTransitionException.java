package io.sdmfabric.model;

import java.util.Objects;

/**
 * Thrown when a runtime model element is asked to make a transition its state does not allow (see
 * {@link ElementState}). The element keeps its state. Unchecked: a caller that follows the
 * documented life cycle never sees it, so it signals a bug or a protocol violation by a backend.
 */
public final class IllegalStateTransitionException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String element;
  private final Enum<?> from;
  private final Enum<?> to;

  /**
   * @param element what refused the transition, for example an element id or "job j1 ranks 3-5"
   */
  public IllegalStateTransitionException(String element, Enum<?> from, Enum<?> to) {
    super(
        Objects.requireNonNull(element, "element")
            + ": illegal state transition from "
            + Objects.requireNonNull(from, "from")
            + " to "
            + Objects.requireNonNull(to, "to"));
    this.element = element;
    this.from = from;
    this.to = to;
  }

  /** What refused the transition, as given to the constructor. */
  public String element() {
    return element;
  }

  public Enum<?> from() {
    return from;
  }

  public Enum<?> to() {
    return to;
  }
}
