package io.sdmfabric.model;

import io.sdmfabric.model.internal.ListenerList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An element of the runtime model of a debug job: a {@link DebugJob}, one of its {@link
 * DebugProcess}es or one of its {@link ComputeNode}s. Each has an id that is unique within its job,
 * a state that follows the transition rules of its state type, and typed attributes.
 *
 * <p><b>Threading.</b> The model is not thread-safe and takes no locks: a job and all its elements
 * are confined to one owner at a time, normally the master's session actor, which applies every
 * change and runs every listener on its own thread. Hand a snapshot (a {@link RankSet}, an
 * attribute value) to other threads, never an element.
 *
 * <p><b>Memory.</b> A job may hold a million processes, so attribute maps and listener lists are
 * created only when first used.
 *
 * @param <S> the state type
 */
public abstract sealed class ModelElement<S extends Enum<S> & ElementState<S>>
    permits DebugJob, DebugProcess, ComputeNode {

  /** Package-private so that {@link DebugJob} can move processes in bulk without events. */
  S state;

  private Map<AttributeDefinition<?>, Object> attributes;
  private ListenerList listeners;

  ModelElement(S initialState) {
    this.state = Objects.requireNonNull(initialState, "initialState");
  }

  /** Unique within the element's job, stable for the element's life. */
  public abstract String id();

  public final S state() {
    return state;
  }

  /**
   * Moves to {@code next} and notifies listeners: first this element's, then (for a process or a
   * node) its job's child listeners. Staying in the current state changes nothing and notifies
   * nobody.
   *
   * @return whether the state changed
   * @throws IllegalStateTransitionException if the current state cannot move to {@code next}; the
   *     state is then unchanged
   */
  public final boolean moveTo(S next) {
    Objects.requireNonNull(next, "next");
    S from = state;
    if (from == next) {
      return false;
    }
    if (!from.canMoveTo(next)) {
      throw new IllegalStateTransitionException(id(), from, next);
    }
    state = next;
    stateChanged(from, next);
    ModelEvent.StateChanged<S> event = new ModelEvent.StateChanged<>(this, from, next);
    fire(event);
    notifyParent(event);
    return true;
  }

  /** Hook for bookkeeping that must be complete before any listener runs. */
  void stateChanged(S from, S to) {}

  /** Hook to tell the parent's child listeners; a job has no parent. */
  void notifyParent(ModelEvent.StateChanged<S> event) {}

  /** The value of {@code definition}, or its default value while unset. */
  public final <T> T attribute(AttributeDefinition<T> definition) {
    Objects.requireNonNull(definition, "definition");
    Object value = attributes == null ? null : attributes.get(definition);
    return value == null ? definition.defaultValue() : definition.type().cast(value);
  }

  /** Whether {@code definition} was set on this element (to any value, even the default). */
  public final boolean hasAttribute(AttributeDefinition<?> definition) {
    Objects.requireNonNull(definition, "definition");
    return attributes != null && attributes.containsKey(definition);
  }

  /**
   * Sets {@code definition} to {@code value} and, if the value differs from the previous one (or
   * the default), notifies this element's listeners with {@link ModelEvent.AttributeChanged}.
   *
   * @throws IllegalArgumentException if {@code value} is not of the definition's type, which only
   *     unchecked or raw-typed callers can cause
   */
  public final <T> void setAttribute(AttributeDefinition<T> definition, T value) {
    Objects.requireNonNull(definition, "definition");
    T checked = definition.cast(value);
    T old = attribute(definition);
    if (attributes == null) {
      attributes = new LinkedHashMap<>();
    }
    attributes.put(definition, checked);
    if (!old.equals(checked)) {
      fire(new ModelEvent.AttributeChanged<>(this, definition, old, checked));
    }
  }

  /**
   * Unsets {@code definition}, so that it reads its default again, and notifies this element's
   * listeners with {@link ModelEvent.AttributeChanged} if the value it had differs from the
   * default.
   */
  public final <T> void removeAttribute(AttributeDefinition<T> definition) {
    Objects.requireNonNull(definition, "definition");
    if (attributes == null || !attributes.containsKey(definition)) {
      return;
    }
    T old = attribute(definition);
    attributes.remove(definition);
    if (!old.equals(definition.defaultValue())) {
      fire(new ModelEvent.AttributeChanged<>(this, definition, old, definition.defaultValue()));
    }
  }

  /** The attributes set on this element, in the order they were first set; a read-only snapshot. */
  public final Map<AttributeDefinition<?>, Object> attributes() {
    return attributes == null
        ? Map.of()
        : Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
  }

  /**
   * Registers {@code listener} for this element's state and attribute changes; registering the same
   * listener twice has no further effect. See {@link ModelListener} for the delivery contract.
   */
  public final void addListener(ModelListener listener) {
    Objects.requireNonNull(listener, "listener");
    if (listeners == null) {
      listeners = new ListenerList();
    }
    listeners.add(listener);
  }

  /** Unregisters {@code listener}; returns whether it was registered. */
  public final boolean removeListener(ModelListener listener) {
    Objects.requireNonNull(listener, "listener");
    return listeners != null && listeners.remove(listener);
  }

  final boolean hasListeners() {
    return listeners != null && !listeners.isEmpty();
  }

  final void fire(ModelEvent event) {
    if (listeners != null) {
      listeners.fire(event);
    }
  }

  /** The id and state; elements are identities, so this is for logs only. */
  @Override
  public String toString() {
    return id() + "[" + state + "]";
  }
}
