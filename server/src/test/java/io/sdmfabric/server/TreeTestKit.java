package io.sdmfabric.server;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

/** The actor system settings of the tree's tests: every message is serialized, as between JVMs. */
public final class TreeTestKit {
  private TreeTestKit() {}

  /** {@code pekko.actor.serialize-messages = on} over the defaults. */
  public static Config serializing() {
    return ConfigFactory.parseString(
            "pekko.actor.serialize-messages = on\n"
                + "pekko.actor.serialize-creators = off\n"
                + "pekko.loglevel = WARNING\n")
        .withFallback(ConfigFactory.load());
  }
}
