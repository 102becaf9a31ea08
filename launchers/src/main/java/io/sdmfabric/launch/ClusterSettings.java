package io.sdmfabric.launch;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

/**
 * The Pekko settings of a distributed session's JVMs: Artery over TCP on a loopback or given host,
 * cluster membership with the split-brain resolver (the oldest node, the master, stays), and
 * failure detection quick enough that a dead agent's ranks are reported lost in seconds.
 */
public final class ClusterSettings {
  /** The actor system name every JVM of a session uses. */
  public static final String SYSTEM = "sdm";

  private ClusterSettings() {}

  /** Settings for a JVM listening on {@code host:port} (port 0: any free port). */
  public static Config at(String host, int port) {
    return ConfigFactory.parseString(
            String.join(
                "\n",
                "pekko.actor.provider = cluster",
                "pekko.remote.artery.transport = tcp",
                "pekko.remote.artery.canonical.hostname = \"" + host + "\"",
                "pekko.remote.artery.canonical.port = " + port,
                "pekko.cluster.downing-provider-class ="
                    + " \"org.apache.pekko.cluster.sbr.SplitBrainResolverProvider\"",
                "pekko.cluster.split-brain-resolver.active-strategy = keep-oldest",
                "pekko.cluster.split-brain-resolver.stable-after = 3s",
                "pekko.cluster.failure-detector.acceptable-heartbeat-pause = 3s",
                "pekko.cluster.jmx.enabled = off",
                "pekko.cluster.log-info = off",
                "pekko.loglevel = WARNING",
                "pekko.coordinated-shutdown.exit-jvm = off"))
        .withFallback(ConfigFactory.load());
  }
}
