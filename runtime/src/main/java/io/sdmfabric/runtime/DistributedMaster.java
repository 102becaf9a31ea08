package io.sdmfabric.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.sdmfabric.master.Session;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.runtime.agent.AgentCommand;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.SessionSecret;
import java.io.File;
import java.io.IOException;
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
 * session's secret (and, over tls-tcp, its keystore), an agent's java command line, and the
 * environment that carries the secrets to it (never the command line). Launched sessions ({@link
 * LaunchedSession}) and attached ones ({@link AttachedSession}) both start theirs this way.
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
   */
  public record Spec(
      int size,
      RankSet expected,
      ClusterSettings.Transport transport,
      String address,
      Duration wireUp,
      FabricConfig config,
      boolean ownShutdown) {
    public Spec {
      Objects.requireNonNull(expected, "expected");
      Objects.requireNonNull(transport, "transport");
      Objects.requireNonNull(address, "address");
      Objects.requireNonNull(wireUp, "wireUp");
      Objects.requireNonNull(config, "config");
    }
  }

  private final Spec spec;
  private final SessionSecret secret = SessionSecret.random();
  private final SessionKeystore keystore;
  private final MasterClient client;

  private DistributedMaster(Spec spec) throws IOException {
    this.spec = spec;
    Config settings;
    if (spec.transport() == ClusterSettings.Transport.TLS_TCP) {
      keystore = SessionKeystore.generate(secret);
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
    Cluster cluster = Cluster.get(system);
    cluster.manager().tell(Join.create(cluster.selfMember().address()));
    this.client = new MasterClient(system);
  }

  /** Starts the master, a cluster of one until the agents join. */
  public static DistributedMaster start(Spec spec) throws IOException {
    return new DistributedMaster(spec);
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
   * with the master's address, the job's size, the transport and the wire-up time, then {@code
   * mode} (what the agent serves: {@code --spool DIR}, {@code --attach PIDS} ...). No secret.
   */
  public List<String> agentCommand(List<String> mode) {
    List<String> c = new ArrayList<>();
    c.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // An agent mostly waits on gdb: the client compiler alone starts it sooner on few cores.
    c.add("-XX:+UseSerialGC");
    c.add("-XX:TieredStopAtLevel=1");
    // The class-data archive sdm itself starts with (see ./sdm), where the node has it too.
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("-XX:SharedArchiveFile=") || arg.startsWith("-Xlog:cds")) {
        c.add(arg);
      }
    }
    if (spec.transport() == ClusterSettings.Transport.AERON_UDP) {
      c.add("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED");
    }
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
            spec.address()
                + ":"
                + Cluster.get(client.system()).selfMember().address().getPort().get(),
            "--size",
            Integer.toString(spec.size()),
            "--transport",
            spec.transport().option(),
            "--wire-up",
            Long.toString(spec.wireUp().toSeconds())));
    c.addAll(mode);
    return c;
  }

  /**
   * The environment variables that carry the session's secrets to an agent: {@code SDM_SECRET}, and
   * {@code SDM_KEYSTORE} over tls-tcp. An agent reached through a remote shell, which passes no
   * environment on, gets the same as {@code NAME=VALUE} lines on its standard input.
   */
  public Map<String, String> agentSecrets() throws IOException {
    Map<String, String> env = new LinkedHashMap<>();
    env.put(SessionSecret.ENV, secret.hex());
    if (keystore != null) {
      env.put(SessionKeystore.ENV, keystore.base64());
    }
    return env;
  }

  /** Ends the master, waiting a while for it, and deletes the keystore. */
  public void close() {
    client.terminate();
    if (keystore != null) {
      keystore.close();
    }
  }
}
