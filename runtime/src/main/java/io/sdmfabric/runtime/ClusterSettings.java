package io.sdmfabric.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigUtil;
import io.sdmfabric.server.SealingSerializer;
import io.sdmfabric.wire.MessageSeal;
import io.sdmfabric.wire.SessionSecret;

/**
 * The Pekko settings of a distributed session's JVMs: Artery over TLS (the default), Aeron UDP with
 * sealed messages, or plain TCP for trusted test networks, on a loopback or given host, cluster
 * membership with sdm's own downing ({@link DowningRule}: the master downs what it cannot reach, an
 * agent itself when it cannot reach the master), and failure detection quick enough that a dead
 * agent's ranks are reported lost in seconds.
 */
public final class ClusterSettings {
  /** The actor system name every JVM of a session uses. */
  public static final String SYSTEM = "sdm";

  private ClusterSettings() {}

  /** How the JVMs of a session talk: each is one of Artery's transports, secured or not. */
  public enum Transport {
    /**
     * TCP inside TLS 1.3 with mutual authentication, the session's own key pair the only trusted
     * certificate: outsiders can neither join the cluster nor read, send or alter a message. The
     * default. Needs the session's {@link SessionKeystore}: {@link #at(String, int,
     * SessionKeystore)}.
     */
    TLS_TCP("tls-tcp", "tls-tcp"),
    /**
     * Aeron over UDP, which cannot carry TLS: every message is sealed instead, the session's own
     * ({@code SealingSerializer}) and Pekko's (cluster membership, Artery's handshake, PoisonPill,
     * Identify, actor selections: {@link SealedPekkoSerializer}), encrypted, authenticated and
     * replays refused, so an outsider's message is refused before it is decoded. Aeron's threads
     * spin while idle; at the lowest idle CPU level they back off soonest, which a small machine
     * whose cores also run gdbs needs (FACTS.md: 4.3 ms p50 at level 1, 6.7 ms at the default 5).
     * Needs {@code --add-opens java.base/sun.nio.ch}.
     */
    AERON_UDP("aeron-udp", "aeron-udp"),
    /**
     * Plain TCP: nothing is encrypted or authenticated, so anyone who reaches a port of the session
     * can run commands as its user on every rank. Only for a test network where every host and user
     * is trusted, and named so that nobody chooses it by accident.
     */
    INSECURE_TCP("insecure-tcp", "tcp");

    private final String option;
    private final String artery;

    Transport(String option, String artery) {
      this.option = option;
      this.artery = artery;
    }

    /** The name users give it, e.g. {@code aeron-udp}. */
    public String option() {
      return option;
    }

    /** The name Artery's configuration uses. */
    public String artery() {
      return artery;
    }

    /** Whether outsiders on the network can run commands and read the session's traffic. */
    public boolean insecure() {
      return this == INSECURE_TCP;
    }

    /**
     * The transport users call {@code name}.
     *
     * @throws IllegalArgumentException for another name; plain {@code tcp} says why it is not one
     */
    public static Transport named(String name) {
      for (Transport t : values()) {
        if (t.option.equals(name)) {
          return t;
        }
      }
      if (name.equals("tcp")) {
        throw new IllegalArgumentException(
            "plain tcp is neither encrypted nor authenticated: anyone who reaches the session's"
                + " ports could run commands as you. The default, tls-tcp, is both; on a test"
                + " network where every host and user is trusted, say insecure-tcp");
      }
      throw new IllegalArgumentException(
          "unknown transport "
              + name
              + ": use one of "
              + java.util.Arrays.stream(values())
                  .map(Transport::option)
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

  /**
   * The user's private directory ({@code /dev/shm/sdm-USER}, mode 0700) inside which each actor
   * system over aeron-udp gets a directory for its embedded Aeron media driver, {@code
   * aeron-PID-RANDOM}, made exclusively when its settings are made and removed when it stops or its
   * JVM ends (one killed with SIGKILL leaves it there).
   */
  public static java.nio.file.Path aeronParent() {
    return AeronDirectories.parent(AeronDirectories.base());
  }

  /**
   * Removes what the Aeron media drivers of process {@code pid} left in {@link #aeronParent}, never
   * following a link: for a JVM that was killed with SIGKILL, which could not remove its own.
   */
  public static void removeAeronDirectoriesOf(long pid) throws java.io.IOException {
    java.nio.file.Path parent = aeronParent();
    if (!java.nio.file.Files.isDirectory(parent, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (var dirs = java.nio.file.Files.newDirectoryStream(parent, "aeron-" + pid + "-*")) {
      for (java.nio.file.Path dir : dirs) {
        AeronDirectories.remove(dir);
      }
    }
  }

  /**
   * Settings for a JVM of the session of {@code secret} listening on {@code host:port} (port 0: any
   * free port) over {@code transport}: over aeron-udp the session's messages are sealed with a key
   * derived from the secret.
   *
   * @throws IllegalArgumentException for {@link Transport#TLS_TCP}, which needs the session's
   *     keystore: {@link #at(String, int, SessionKeystore)}; over aeron-udp, when the media
   *     driver's directory cannot be made in the user's private directory ({@link #aeronParent}),
   *     saying why in one line
   */
  public static Config at(String host, int port, Transport transport, SessionSecret secret) {
    if (transport == Transport.TLS_TCP) {
      throw new IllegalArgumentException("tls-tcp needs the session's keystore");
    }
    Config settings = settings(host, port, transport);
    if (transport == Transport.AERON_UDP) {
      return ConfigFactory.parseString(
              SealingSerializer.KEY_SETTING
                  + " = "
                  + ConfigUtil.quoteString(MessageSeal.sessionKey(secret)))
          .withFallback(SealedPekkoSerializer.everyPekkoSerializer(settings))
          .withFallback(settings);
    }
    return settings;
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

  /**
   * Settings for a master that no other JVM joins, whose ranks are all this host's: a local actor
   * system, with no cluster and no Artery, listening on no port.
   */
  public static Config hostOnly() {
    return ConfigFactory.parseString(
            String.join(
                "\n",
                "pekko.actor.provider = local",
                "pekko.loglevel = WARNING",
                "pekko.stdout-loglevel = " + LibraryLog.pekkoStandardOutLevel(),
                "pekko.coordinated-shutdown.exit-jvm = off"))
        .withFallback(ConfigFactory.load());
  }

  /**
   * A new directory for an embedded media driver, inside {@link #aeronParent}. Pekko tells Aeron to
   * use it and to delete it when the driver stops ({@code delete-aeron-dir}, on by default); Aeron
   * deletes it at the start too (it exists), which is safe because it is this JVM's, just made, in
   * a directory nobody else can write.
   */
  private static java.nio.file.Path aeronDirectory() {
    try {
      return AeronDirectories.create(AeronDirectories.base());
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(
          "aeron-udp cannot be used: its media driver needs a directory of yours alone, and "
              + e.getMessage(),
          e);
    }
  }

  private static Config settings(String host, int port, Transport transport) {
    // The benchmarks' count of messages between nodes, only when asked for.
    String counting =
        System.getenv(MessageCounter.ENV) == null
            ? ""
            : "pekko.remote.artery.advanced.instruments = [\""
                + MessageCounter.class.getName()
                + "\"]";
    return ConfigFactory.parseString(
            String.join(
                "\n",
                "pekko.actor.provider = cluster",
                "pekko.remote.artery.transport = " + transport.artery(),
                "pekko.remote.artery.advanced.aeron.idle-cpu-level = 1",
                // A message Aeron does not take (its peer is gone) is retried this long, and an
                // actor system's shutdown waits for it: Pekko's 60 s held the master's shutdown
                // past a minute once a peer had left. The cluster declares a peer lost sooner.
                "pekko.remote.artery.advanced.aeron.give-up-message-after = 10 s",
                // The same for the control stream, whose Aeron sink waits as long as system
                // messages are redelivered (Pekko's 6 hours) when one is not taken at shutdown:
                // a master whose outsider or agent had gone then never stopped (the actor
                // system's terminate phase timed out, its stream to the peer still open). A
                // peer unreachable for seconds is downed long before 20 s.
                transport == Transport.AERON_UDP
                    ? "pekko.remote.artery.advanced.give-up-system-message-after = 20 s"
                    : "",
                transport == Transport.AERON_UDP
                    ? "pekko.remote.artery.advanced.aeron.aeron-dir = "
                        + ConfigUtil.quoteString(aeronDirectory().toString())
                    : "",
                "pekko.remote.artery.canonical.hostname = \"" + host + "\"",
                "pekko.remote.artery.canonical.port = " + port,
                "pekko.cluster.downing-provider-class = \""
                    + SessionDowningProvider.class.getName()
                    + "\"",
                "sdm.downing.stable-after = 3s",
                "sdm.downing.master-lost-after = 10s",
                "pekko.cluster.failure-detector.acceptable-heartbeat-pause = 3s",
                // The leader moves joining members up, and leaving ones out, at its ticks
                // (1 s by default): an agent waited up to a second to be up, and a master ending
                // alone waited about 0.65 s to leave its cluster of one (issue #30).
                "pekko.cluster.leader-actions-interval = 200ms",
                // A joining agent is up once every member has seen it join, and learns so by
                // gossip: at Pekko's 1 s per round, and 1 s before a new member's first round,
                // four agents joining at once waited 2-4 s for it (issue #30).
                "pekko.cluster.gossip-interval = 200ms",
                "pekko.cluster.periodic-tasks-initial-delay = 100ms",
                "pekko.cluster.jmx.enabled = off",
                "pekko.cluster.log-info = off",
                "pekko.loglevel = WARNING",
                "pekko.stdout-loglevel = " + LibraryLog.pekkoStandardOutLevel(),
                "pekko.coordinated-shutdown.exit-jvm = off",
                counting))
        .withFallback(ConfigFactory.load());
  }
}
