package io.sdmfabric.runtime;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/** Silences warnings when a session ends on purpose: its links and nodes go away as they should. */
final class Quiet {
  private Quiet() {}

  /** Lets only errors through from now on. */
  static void loggers() {
    if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof Logger root) {
      root.setLevel(Level.ERROR);
    }
  }
}
