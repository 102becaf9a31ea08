package io.sdmfabric.model.internal;

import io.sdmfabric.model.ModelEvent;
import io.sdmfabric.model.ModelListener;
import java.lang.System.Logger.Level;
import java.util.Arrays;
import java.util.Objects;

/**
 * The listeners of one model element, implementing the contract documented on {@link
 * ModelListener}: registration order, changes during delivery take effect from the next event, and
 * a failing listener is logged without stopping the others. Copy-on-write, because listeners change
 * rarely and events are delivered often; not thread-safe, like the model itself.
 */
public final class ListenerList {

  private static final System.Logger LOG = System.getLogger("io.sdmfabric.model");
  private static final ModelListener[] NONE = {};

  private ModelListener[] listeners = NONE;

  /** Adds {@code listener} at the end; a listener already present is not added twice. */
  public void add(ModelListener listener) {
    Objects.requireNonNull(listener, "listener");
    if (indexOf(listener) >= 0) {
      return;
    }
    ModelListener[] grown = Arrays.copyOf(listeners, listeners.length + 1);
    grown[listeners.length] = listener;
    listeners = grown;
  }

  /** Removes {@code listener}; returns whether it was present. */
  public boolean remove(ModelListener listener) {
    Objects.requireNonNull(listener, "listener");
    int index = indexOf(listener);
    if (index < 0) {
      return false;
    }
    ModelListener[] shrunk = new ModelListener[listeners.length - 1];
    System.arraycopy(listeners, 0, shrunk, 0, index);
    System.arraycopy(listeners, index + 1, shrunk, index, shrunk.length - index);
    listeners = shrunk;
    return true;
  }

  public boolean isEmpty() {
    return listeners.length == 0;
  }

  /** Delivers {@code event} to every listener registered now. */
  public void fire(ModelEvent event) {
    // Iterating the array captured here makes add/remove during delivery safe.
    for (ModelListener listener : listeners) {
      try {
        listener.onEvent(event);
      } catch (RuntimeException e) {
        // The change already happened and the other listeners must still hear of it; the failure
        // is a bug in that listener, so it goes to the log with its stack trace.
        LOG.log(Level.WARNING, "model listener " + listener + " failed on " + event, e);
      }
    }
  }

  private int indexOf(ModelListener listener) {
    for (int i = 0; i < listeners.length; i++) {
      if (listeners[i].equals(listener)) {
        return i;
      }
    }
    return -1;
  }
}
