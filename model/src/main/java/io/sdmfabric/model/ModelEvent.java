package io.sdmfabric.model;

import java.util.Map;
import java.util.Objects;

/**
 * A change in the runtime model, delivered to {@link ModelListener}s after it happened.
 *
 * <p>Element listeners receive {@link StateChanged} and {@link AttributeChanged} for their element.
 * A job's child listeners receive {@link ChildAdded} and {@link ProcessesAdded} when processes or
 * nodes join, {@link StateChanged} when one child changes state, and a single {@link
 * ProcessesMoved} for a change of many processes at once (see {@link DebugJob#move}), so that a
 * million ranks stopping at a breakpoint is one event, not a million; likewise one {@link
 * ProcessesLocated} for the processes found on a node ({@link DebugJob#locate}).
 */
public sealed interface ModelEvent {

  /**
   * {@code element} moved from {@code from} to {@code to}; never fired when both are equal.
   *
   * @param <S> the element's state type
   */
  record StateChanged<S extends Enum<S> & ElementState<S>>(ModelElement<S> element, S from, S to)
      implements ModelEvent {
    public StateChanged {
      Objects.requireNonNull(element, "element");
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(to, "to");
    }
  }

  /**
   * Attribute {@code definition} of {@code element} changed from {@code oldValue} (its default if
   * it was unset) to {@code newValue}; never fired when the value stays equal.
   *
   * @param <T> the attribute's value type
   */
  record AttributeChanged<T>(
      ModelElement<?> element, AttributeDefinition<T> definition, T oldValue, T newValue)
      implements ModelEvent {
    public AttributeChanged {
      Objects.requireNonNull(element, "element");
      Objects.requireNonNull(definition, "definition");
      Objects.requireNonNull(oldValue, "oldValue");
      Objects.requireNonNull(newValue, "newValue");
    }
  }

  /** One process or node was added to {@code job}. */
  record ChildAdded(DebugJob job, ModelElement<?> child) implements ModelEvent {
    public ChildAdded {
      Objects.requireNonNull(job, "job");
      Objects.requireNonNull(child, "child");
    }
  }

  /** The processes of {@code ranks}, all on node {@code nodeName}, were added to {@code job}. */
  record ProcessesAdded(DebugJob job, String nodeName, RankSet ranks) implements ModelEvent {
    public ProcessesAdded {
      Objects.requireNonNull(job, "job");
      Objects.requireNonNull(nodeName, "nodeName");
      Objects.requireNonNull(ranks, "ranks");
    }
  }

  /**
   * The processes of {@code ranks} of {@code job} were found on node {@code nodeName}, or their
   * process ids changed ({@link DebugJob#locate}).
   */
  record ProcessesLocated(DebugJob job, String nodeName, RankSet ranks) implements ModelEvent {
    public ProcessesLocated {
      Objects.requireNonNull(job, "job");
      Objects.requireNonNull(nodeName, "nodeName");
      Objects.requireNonNull(ranks, "ranks");
    }
  }

  /**
   * Processes of {@code job} moved to {@code to} at {@code place}, many at once. {@code from} maps
   * each previous state to the ranks that were in it; ranks that were in {@code to} already are
   * there when their place changed.
   */
  record ProcessesMoved(
      DebugJob job, Map<ProcessState, RankSet> from, ProcessState to, String place)
      implements ModelEvent {
    public ProcessesMoved {
      Objects.requireNonNull(job, "job");
      from = Map.copyOf(from);
      Objects.requireNonNull(to, "to");
      Objects.requireNonNull(place, "place");
    }

    /** Every rank that moved. */
    public RankSet ranks() {
      RankSet.Builder all = RankSet.builder();
      from.values().forEach(all::addAll);
      return all.build();
    }
  }
}
