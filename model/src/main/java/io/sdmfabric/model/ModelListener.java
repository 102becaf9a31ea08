package io.sdmfabric.model;

/**
 * Receives {@link ModelEvent}s from runtime model elements. Registered either on an element (for
 * its own state and attribute changes, {@link ModelElement#addListener}) or on a job for changes to
 * its children ({@link DebugJob#addChildListener}).
 *
 * <p>Called synchronously, on the thread that made the change, after the change is complete, in
 * registration order. A listener may add or remove listeners while being called; that takes effect
 * from the next event. A {@link RuntimeException} thrown by a listener is logged and does not stop
 * the remaining listeners nor undo the change.
 */
@FunctionalInterface
public interface ModelListener {

  void onEvent(ModelEvent event);
}
