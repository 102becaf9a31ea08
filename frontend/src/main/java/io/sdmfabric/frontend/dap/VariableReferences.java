package io.sdmfabric.frontend.dap;

import java.util.Optional;
import java.util.Set;

/**
 * The variable references a DAP client holds while ranks are stopped: each names what it expands, a
 * scope of a group's frame or a value with fields or elements. They hold until the ranks move
 * ({@link #forget}); the client asks again after the next stop, as DAP has it. Thread-safe.
 */
final class VariableReferences {
  /** What a reference expands, in a frame of a thread's ranks. */
  sealed interface Container {
    GroupFrame frame();
  }

  /** The arguments or the locals of a frame. */
  record Scope(GroupFrame frame, boolean arguments) implements Container {}

  /** The value of {@code expression}: its fields, elements, or what it points to. */
  record Expression(GroupFrame frame, String expression) implements Container {}

  private final Handles<Container> handles = new Handles<>();

  /** The reference of {@code container}, the same while it holds. */
  int reference(Container container) {
    return handles.reference(container);
  }

  /** What {@code reference} expands, unless it no longer holds. */
  Optional<Container> container(int reference) {
    return handles.value(reference);
  }

  /** Forgets the references into the groups of {@code threadIds}, whose ranks moved. */
  void forget(Set<Integer> threadIds) {
    handles.forget(c -> threadIds.contains(c.frame().threadId()));
  }
}
