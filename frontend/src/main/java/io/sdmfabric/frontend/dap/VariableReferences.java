package io.sdmfabric.frontend.dap;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The variable references a DAP client holds while ranks are stopped: each names what it expands, a
 * scope of a group's frame or a value with fields or elements. They hold until the ranks move
 * ({@link #clear}); the client asks again after the next stop, as DAP has it. Thread-safe.
 */
final class VariableReferences {
  /** What a reference expands, in the frame {@code level} of thread {@code threadId}'s ranks. */
  sealed interface Container {
    int threadId();

    int level();
  }

  /** The arguments or the locals of a frame. */
  record Scope(int threadId, int level, boolean arguments) implements Container {}

  /** The value of {@code expression}: its fields, elements, or what it points to. */
  record Expression(int threadId, int level, String expression) implements Container {}

  private final Map<Integer, Container> containers = new HashMap<>();
  private final Map<Container, Integer> references = new HashMap<>();
  private int next = 1; // never reused: a reference forgotten stays unknown

  /** The reference of {@code container}, the same while it holds. */
  synchronized int reference(Container container) {
    return references.computeIfAbsent(
        container,
        c -> {
          containers.put(next, c);
          return next++;
        });
  }

  /** What {@code reference} expands, unless it no longer holds. */
  synchronized Optional<Container> container(int reference) {
    return Optional.ofNullable(containers.get(reference));
  }

  /** Forgets the references into the groups of {@code threadIds}, whose ranks moved. */
  synchronized void forget(java.util.Set<Integer> threadIds) {
    containers.values().removeIf(c -> threadIds.contains(c.threadId()));
    references.keySet().removeIf(c -> threadIds.contains(c.threadId()));
  }
}
