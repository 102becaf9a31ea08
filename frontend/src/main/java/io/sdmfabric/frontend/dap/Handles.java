package io.sdmfabric.frontend.dap;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The numbers a DAP client holds in place of what the adapter keeps (frames, scopes, values with
 * parts), as vscode-debugadapter's {@code Handles} gives them out: the client gets a reference and
 * sends it back, and the adapter looks up what it stands for instead of decoding it. An equal value
 * keeps its reference while it is held; a reference forgotten is never given out again, so a stale
 * one is known to be stale. Thread-safe.
 */
final class Handles<T> {
  private final Map<Integer, T> values = new HashMap<>();
  private final Map<T, Integer> references = new HashMap<>();
  private int next = 1; // never reused: a reference forgotten stays unknown

  /** The reference of {@code value}, the same while it holds. */
  synchronized int reference(T value) {
    return references.computeIfAbsent(
        value,
        v -> {
          values.put(next, v);
          return next++;
        });
  }

  /** What {@code reference} stands for, unless it no longer holds. */
  synchronized Optional<T> value(int reference) {
    return Optional.ofNullable(values.get(reference));
  }

  /** Forgets the references of the values {@code which} accepts. */
  synchronized void forget(Predicate<? super T> which) {
    values.values().removeIf(which);
    references.keySet().removeIf(which);
  }
}
