package io.sdmfabric.runtime;

import io.sdmfabric.model.StartProgress;
import java.util.function.Consumer;

/**
 * Who hears the progress of the session this thread is starting ({@link SessionFactory} sets it
 * around a start). The distributed sessions start in one thread, from a static {@code start} down
 * to {@link DistributedSession#startMaster}, through their own specs; the listener reaches the
 * master that way instead of through each variant's spec and constructor. No one listening is the
 * default.
 */
final class StartListener {
  private static final Consumer<StartProgress> NONE = p -> {};
  private static final ThreadLocal<Consumer<StartProgress>> CURRENT =
      ThreadLocal.withInitial(() -> NONE);

  private StartListener() {}

  /** What a start on this thread reports to. */
  static Consumer<StartProgress> current() {
    return CURRENT.get();
  }

  /** A start that may fail as a session's start does. */
  interface Start<T> {
    T run() throws java.io.IOException;
  }

  /** Runs {@code start} on this thread with {@code listener} hearing its progress. */
  static <T> T during(Consumer<StartProgress> listener, Start<T> start) throws java.io.IOException {
    Consumer<StartProgress> before = CURRENT.get();
    CURRENT.set(listener);
    try {
      return start.run();
    } finally {
      CURRENT.set(before);
    }
  }
}
