package io.sdmfabric.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.sdmfabric.gdbmi.GdbOptions;
import io.sdmfabric.master.Session;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.runtime.agent.AgentCommand;
import io.sdmfabric.runtime.agent.EarlyAttachments;
import io.sdmfabric.runtime.agent.LocalAgent;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.SessionSecret;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;

/**
 * The master of a distributed session, in this JVM, and what its agents need to join it: the
 * session's secret (and, over tls-tcp, its keystore) in a private directory of the user's shared
 * sdm home ({@link SessionKeys}), and an agent's java command line, which names that directory and
 * holds no secret. Launched sessions ({@link LaunchedSession}) and attached ones ({@link
 * AttachedSession}) both start theirs this way; when every rank is this host's, theirs is a master
 * that no agent joins ({@link Reach#HOST}), and listens nowhere.
 */
public final class DistributedMaster {

  /**
   * What the master serves and how its JVMs talk.
   *
   * @param size the job's number of ranks
   * @param expected the ranks agents will serve (all of them for a launched job)
   * @param address the master's address, which every node must reach
   * @param wireUp how long to wait for every expected rank
   * @param ownShutdown whether the session ends the master itself when the JVM exits (it then has
   *     to do something first, such as detach), rather than Pekko's own shutdown hook
   * @param keys how the agents get the session's secrets
   * @param reach whether agent JVMs join it; {@code transport}, {@code address} and {@code keys}
   *     only matter when they do
   */
  public record Spec(
      int size,
      RankSet expected,
      ClusterSettings.Transport transport,
      String address,
      Duration wireUp,
      FabricConfig config,
      boolean ownShutdown,
      KeyPassing keys,
      Reach reach) {
    public Spec {
      Objects.requireNonNull(reach, "reach");
      Objects.requireNonNull(expected, "expected");
      Objects.requireNonNull(transport, "transport");
      Objects.requireNonNull(address, "address");
      Objects.requireNonNull(wireUp, "wireUp");
      Objects.requireNonNull(config, "config");
      Objects.requireNonNull(keys, "keys");
    }
  }

  /** Where the master's ranks are served from: this JVM alone, or agent JVMs too. */
  public enum Reach {
    /**
     * Only this JVM: every rank is this host's and served here ({@link #serveHere}). The master's
     * actor system is a local one: it listens on no port, and it makes no keystore and writes no
     * keys to sdm's home, since no other JVM ever has to prove the secret or reach it. Without
     * Pekko's cluster, Artery and TLS it also starts sooner, and loads a quarter fewer classes.
     */
    HOST,
    /**
     * Agent JVMs too, over the session's transport: the master is a cluster of one until they join.
     */
    NETWORK
  }

  /** How the agents get the session's secret and keystore. */
  public enum KeyPassing {
    /**
     * They read them from the session's {@link SessionKeys} in the user's sdm home, which every
     * node must share; only the directory's path is on their command line. The default.
     */
    SHARED_HOME,
    /**
     * In their environment ({@code SDM_SECRET}, {@code SDM_KEYSTORE}), which the launchers send to
     * other nodes in clear; on standard input through a remote shell. Only when the user asks
     * ({@code --secrets-in-clear}).
     */
    ENVIRONMENT_IN_CLEAR
  }

  private final Spec spec;
  private final SessionSecret secret;
  private final SessionKeys keys;
  private final SessionKeystore keystore;
  private final MasterClient client;

  private DistributedMaster(Spec spec, SessionSecret secret, SessionKeys keys) throws IOException {
    this.spec = spec;
    this.secret = secret;
    this.keys = keys;
    Config settings;
    if (spec.reach() == Reach.HOST) {
      keystore = null;
      settings = ClusterSettings.hostOnly();
    } else if (spec.transport() == ClusterSettings.Transport.TLS_TCP) {
      keystore = SessionKeystore.generate(secret, keys);
      settings = ClusterSettings.at(spec.address(), 0, keystore);
    } else {
      keystore = null;
      settings = ClusterSettings.at(spec.address(), 0, spec.transport(), secret);
    }
    if (spec.ownShutdown()) {
      // Neither coordinated shutdown nor Artery may go down on their own at SIGTERM: the
      // session's own hook still needs the tree to detach the ranks, then ends the master.
      settings =
          ConfigFactory.parseString(
                  "pekko.jvm-shutdown-hooks = off\n"
                      + "pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off")
              .withFallback(settings);
    }
    ActorSystem<Session.Command> system =
        ActorSystem.create(
            Session.distributed(spec.size(), spec.expected(), spec.config(), spec.wireUp(), secret),
            ClusterSettings.SYSTEM,
            settings);
    if (spec.reach() == Reach.NETWORK) {
      Cluster cluster = Cluster.get(system);
      cluster.manager().tell(Join.create(cluster.selfMember().address()));
    }
    this.client = new MasterClient(system);
  }

  /**
   * Starts the master: one that agents reach is a cluster of one until they join, with the
   * session's keys in sdm's home; one of this host alone listens nowhere and writes no keys.
   */
  public static DistributedMaster start(Spec spec) throws IOException {
    SessionSecret secret = SessionSecret.random();
    SessionKeys keys = spec.reach() == Reach.NETWORK ? SessionKeys.create(secret) : null;
    try {
      return new DistributedMaster(spec, secret, keys);
    } catch (IOException | RuntimeException e) {
      if (keys != null) {
        keys.close();
      }
      throw e;
    }
  }

  /** The front-end's hold on the master. */
  MasterClient client() {
    return client;
  }

  /** What this master was started with. */
  public Spec spec() {
    return spec;
  }

  /**
   * An agent's java command line: the JVM options, this JVM's class path, and {@code sdm agent}
   * with the master's address, the job's size, the transport, the wire-up time and, unless the
   * secrets go in clear, the directory of the session's keys, and the directory of separate debug
   * files this JVM's gdbs read (which a launcher need not pass on in the environment), then {@code
   * mode} (what the agent serves: {@code --spool DIR}, {@code --attach PIDS} ...). No secret.
   *
   * @throws IllegalStateException for a master of this host alone, which no agent could reach
   */
  public List<String> agentCommand(List<String> mode) {
    if (spec.reach() == Reach.HOST) {
      throw new IllegalStateException("the master of a session of this host alone has no agents");
    }
    List<String> options = new ArrayList<>();
    options.addAll(List.of("--wire-up", Long.toString(spec.wireUp().toSeconds())));
    String debugFiles = GdbOptions.defaults().debugFileDirectory();
    if (!debugFiles.isEmpty()) {
      options.addAll(List.of("--debug-file-directory", debugFiles));
    }
    if (spec.keys() == KeyPassing.SHARED_HOME) {
      options.addAll(List.of("--keys", keys.directory().toString()));
    }
    options.addAll(mode);
    return agentCommand(
        List.of(),
        spec.address() + ":" + Cluster.get(client.system()).selfMember().address().getPort().get(),
        spec.size(),
        spec.transport(),
        options);
  }

  /**
   * The one place an agent's java command line is written, for this master's agents and for those
   * that benchmarks and tests start themselves: this JVM's java, the agent's JVM options and then
   * {@code jvmOptions}, this JVM's class path, and {@code sdm agent} with the master's address
   * ({@code HOST:PORT}), the job's size and the transport, then {@code options} (the wire-up time,
   * where the keys are, what the agent serves ...).
   */
  public static List<String> agentCommand(
      List<String> jvmOptions,
      String master,
      int size,
      ClusterSettings.Transport transport,
      List<String> options) {
    List<String> c = new ArrayList<>();
    c.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    c.addAll(JvmOptions.AGENT);
    // The class-data archive sdm itself starts with (see ./sdm), where the node has it too.
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("-XX:SharedArchiveFile=") || arg.startsWith("-Xlog:cds")) {
        c.add(arg);
      }
    }
    if (transport == ClusterSettings.Transport.AERON_UDP) {
      c.add("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED");
    }
    c.addAll(jvmOptions);
    c.add("-cp");
    List<String> path = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      path.add(Path.of(entry).toAbsolutePath().toString());
    }
    c.add(String.join(File.pathSeparator, path));
    c.add(AgentCommand.class.getName());
    c.addAll(
        List.of(
            "--master",
            master,
            "--size",
            Integer.toString(size),
            "--transport",
            transport.option()));
    c.addAll(options);
    return c;
  }

  /**
   * The environment variables that carry the session's secrets to an agent with {@link
   * KeyPassing#ENVIRONMENT_IN_CLEAR}: {@code SDM_SECRET}, and {@code SDM_KEYSTORE} over tls-tcp. An
   * agent reached through a remote shell, which passes no environment on, gets the same as {@code
   * NAME=VALUE} lines on its standard input. None by default: the agents read the shared home; none
   * for a master of this host alone, which has no agents.
   */
  public Map<String, String> agentSecrets() throws IOException {
    Map<String, String> env = new LinkedHashMap<>();
    if (spec.keys() == KeyPassing.SHARED_HOME || spec.reach() == Reach.HOST) {
      return env;
    }
    env.put(SessionSecret.ENV, secret.hex());
    if (keystore != null) {
      env.put(SessionKeystore.ENV, keystore.base64());
    }
    return env;
  }

  /**
   * Serves this host's ranks that {@code attachments} attach from this JVM ({@link LocalAgent}):
   * they register with the rendezvous as an agent's do.
   *
   * @param err where a rank that cannot be attached says why
   */
  public LocalAgent serveHere(EarlyAttachments attachments, PrintStream err) {
    return LocalAgent.serving(client.system(), secret, spec.config(), attachments, err);
  }

  /** Ends the master, waiting a while for it, and deletes the session's keys. */
  public void close() {
    client.terminate();
    if (keystore != null) {
      keystore.close();
    }
    if (keys != null) {
      keys.close();
    }
  }
}
