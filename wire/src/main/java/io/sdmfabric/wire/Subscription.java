package io.sdmfabric.wire;

/**
 * A listener's hold on a session's events ({@link SessionClient#subscribe}): closing it stops them
 * reaching the listener. Closing twice does nothing more.
 */
@FunctionalInterface
public interface Subscription extends AutoCloseable {
  /** Stops the events; the listener may still be hearing the one being delivered. */
  @Override
  void close();
}
