package io.sdmfabric.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigUtil;

/**
 * The Pekko settings of a distributed session's JVMs: Artery over TCP (plain or TLS) or Aeron UDP
 * on a loopback or given host, cluster membership with the split-brain resolver (the oldest node,
 * the master, stays), and failure detection quick enough that a dead agent's ranks are reported
 * lost in seconds.
 */
public final class ClusterSettings {
  /** The actor system name every JVM of a session uses. */
  public static final String SYSTEM = "sdm";

  private ClusterSettings() {}

  /** Artery's transports. */
  public enum Transport {
    /** TCP: the default, and the fastest one-at-a-time round trip here (FACTS.md: 0.5 ms). */
    TCP("tcp"),
    /**
     * Aeron over UDP. Aeron's threads spin while idle; at the lowest idle CPU level they back off
     * soonest, which a small machine whose cores also run gdbs needs (FACTS.md: 4.3 ms p50 at level
     * 1, 6.7 ms at the default 5). Needs {@code --add-opens java.base/sun.nio.ch}.
     */
    AERON_UDP("aeron-udp"),
    /**
     * TCP inside TLS (1.3, mutual authentication) with the session's own key pair as the only
     * trusted certificate: outsiders can neither read the tree's traffic nor join the cluster.
     * Needs the session's {@link SessionKeystore}: {@link #at(String, int, SessionKeystore)}.
     */
    TLS_TCP("tls-tcp");

    private final String artery;

    Transport(String artery) {
      this.artery = artery;
    }

    /** The name Artery's configuration uses. */
    public String artery() {
      return artery;
    }

    /** The transport Artery calls {@code name}, e.g. {@code aeron-udp}. */
    public static Transport named(String name) {
      for (Transport t : values()) {
        if (t.artery.equals(name)) {
          return t;
        }
      }
      throw new IllegalArgumentException(
          "unknown transport "
              + name
              + ": use one of "
              + java.util.Arrays.stream(values())
                  .map(Transport::artery)
                  .collect(java.util.stream.Collectors.joining(", ")));
    }
  }

  /**
   * This host's address as its name resolves, which other nodes can reach when the name resolves
   * there too; loopback where it does not resolve.
   */
  public static String localAddress() {
    try {
      return java.net.InetAddress.getLocalHost().getHostAddress();
    } catch (java.net.UnknownHostException e) {
      return "127.0.0.1";
    }
  }

  /** Settings for a JVM listening on {@code host:port} (port 0: any free port) over TCP. */
  public static Config at(String host, int port) {
    return at(host, port, Transport.TCP);
  }

  /**
   * The directory of a JVM's embedded Aeron media driver. Aeron deletes it when the JVM ends
   * normally; one killed with SIGKILL leaves it behind in /dev/shm, named for the process.
   */
  public static String aeronDirectory(long pid) {
    return "/dev/shm/sdm-aeron-" + pid;
  }

  /**
   * Settings for a JVM listening on {@code host:port} over {@code transport}.
   *
   * @throws IllegalArgumentException for {@link Transport#TLS_TCP}, which needs the session's
   *     keystore: {@link #at(String, int, SessionKeystore)}
   */
  public static Config at(String host, int port, Transport transport) {
    if (transport == Transport.TLS_TCP) {
      throw new IllegalArgumentException("tls-tcp needs the session's keystore");
    }
    return settings(host, port, transport);
  }

  /**
   * Settings for a JVM listening on {@code host:port} over {@code tls-tcp}: the session's keystore
   * is both the key store and the trust store, so a peer must present the session's certificate
   * (mutual authentication), and the host name is not checked since the certificate belongs to the
   * session, not to a host.
   */
  public static Config at(String host, int port, SessionKeystore keystore) {
    String prefix = "pekko.remote.artery.ssl.config-ssl-engine.";
    String store = ConfigUtil.quoteString(keystore.path().toString());
    String password = ConfigUtil.quoteString(keystore.password());
    return ConfigFactory.parseString(
            String.join(
                "\n",
                "pekko.remote.artery.ssl.ssl-engine-provider ="
                    + " org.apache.pekko.remote.artery.tcp.ConfigSSLEngineProvider",
                prefix + "key-store = " + store,
                prefix + "trust-store = " + store,
                prefix + "key-store-password = " + password,
                prefix + "key-password = " + password,
                prefix + "trust-store-password = " + password,
                prefix + "protocol = TLSv1.3",
                prefix + "enabled-algorithms = [TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384]",
                prefix + "require-mutual-authentication = on",
                prefix + "hostname-verification = off"))
        .withFallback(settings(host, port, Transport.TLS_TCP));
  }

  private static Config settings(String host, int port, Transport transport) {
    return ConfigFactory.parseString(
            String.join(
                "\n",
                "pekko.actor.provider = cluster",
                "pekko.remote.artery.transport = " + transport.artery(),
                "pekko.remote.artery.advanced.aeron.idle-cpu-level = 1",
                "pekko.remote.artery.advanced.aeron.aeron-dir = \""
                    + aeronDirectory(ProcessHandle.current().pid())
                    + "\"",
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
