package io.sdmfabric.wire;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The listeners a {@link SessionClient} delivers its events to, for its implementations: each
 * listener hears every event published after it subscribed until its {@link Subscription} is
 * closed, listeners in the order they subscribed. Safe for any number of threads; events are
 * delivered on the thread that publishes them, and one a listener throws goes to that thread (the
 * listeners after it do not hear that event).
 */
public final class EventSubscribers {
  // One object per subscription, compared by identity: a listener subscribed twice hears events
  // twice, and closing one of its subscriptions leaves the other.
  private record Entry(Consumer<RankReply> listener) {
    @Override
    public boolean equals(Object o) {
      return this == o;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(this);
    }
  }

  private final List<Entry> entries = new CopyOnWriteArrayList<>();

  /** Adds {@code listener}; closing what it returns removes it. */
  public Subscription subscribe(Consumer<RankReply> listener) {
    Entry e = new Entry(Objects.requireNonNull(listener, "listener"));
    entries.add(e);
    return () -> entries.remove(e);
  }

  /** Gives {@code event} to every listener. */
  public void publish(RankReply event) {
    for (Entry e : entries) {
      e.listener().accept(event);
    }
  }

  /** Removes every listener: what is published from now on reaches no one. */
  public void clear() {
    entries.clear();
  }
}
