package io.sdmfabric.launch;

import com.typesafe.config.Config;
import io.sdmfabric.master.Rendezvous;
import io.sdmfabric.master.Session;
import io.sdmfabric.master.SessionSecret;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.DebuggerBackend;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.RankBackend;
import io.sdmfabric.server.ReplyCache;
import io.sdmfabric.server.ServerNode;
import io.sdmfabric.server.SimulatedDebugger;
import io.sdmfabric.server.SimulatedProgram;
import java.io.IOException;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.AddressFromURIString;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.cluster.typed.SelfUp;
import org.apache.pekko.cluster.typed.Subscribe;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sdm agent}: the servers of one node's ranks, in one JVM that joins the master's cluster
 * and registers its ranks with the master's rendezvous. It runs until the master goes away. Today
 * it serves simulated ranks; real gdb ranks under mpirun and srun come next.
 */
@Command(
    name = "agent",
    description = "Serve ranks of a distributed session (started by sdm, not by hand).",
    mixinStandardHelpOptions = true)
final class AgentCommand implements Callable<Integer> {
  @Option(
      names = "--master",
      required = true,
      paramLabel = "HOST:PORT",
      description = "the master's cluster address")
  String master;

  @Option(
      names = "--ranks",
      required = true,
      paramLabel = "SET",
      description = "this agent's ranks")
  String ranks;

  @Option(names = "--size", required = true, paramLabel = "N", description = "ranks in the job")
  int size;

  @Option(names = "--host", description = "the address to listen on (default: ${DEFAULT-VALUE})")
  String host = "127.0.0.1";

  @Option(
      names = "--transport",
      description = "tcp, aeron-udp or tls-tcp, as the master uses (default: ${DEFAULT-VALUE})")
  String transport = "tcp";

  private final PrintStream err;
  private SessionSecret secret;

  AgentCommand(PrintStream err) {
    this.err = err;
  }

  @Override
  public Integer call() throws Exception {
    RankSet mine;
    try {
      mine = RankSet.parse(ranks);
    } catch (IllegalArgumentException e) {
      err.println("sdm agent: " + e.getMessage());
      return 2;
    }
    String hex = System.getenv(SessionSecret.ENV);
    if (hex == null || hex.isBlank()) {
      err.println("sdm agent: no session secret: the master passes it in $" + SessionSecret.ENV);
      return 2;
    }
    try {
      secret = SessionSecret.fromHex(hex);
    } catch (IllegalArgumentException e) {
      err.println("sdm agent: " + e.getMessage());
      return 2;
    }
    ClusterSettings.Transport artery;
    switch (transport) {
      case "tcp" -> artery = ClusterSettings.Transport.TCP;
      case "aeron-udp" -> artery = ClusterSettings.Transport.AERON_UDP;
      case "tls-tcp" -> artery = ClusterSettings.Transport.TLS_TCP;
      default -> {
        err.println(
            "sdm agent: unknown transport " + transport + ": use tcp, aeron-udp or tls-tcp");
        return 2;
      }
    }
    Config settings;
    try {
      settings = clusterSettings(artery, secret);
    } catch (IllegalArgumentException e) {
      err.println("sdm agent: " + e.getMessage());
      return 2;
    }
    Address masterAddress =
        AddressFromURIString.parse("pekko://" + ClusterSettings.SYSTEM + "@" + master);
    ActorSystem<SelfUp> system =
        ActorSystem.create(agent(mine, masterAddress), ClusterSettings.SYSTEM, settings);
    // The agent lives as long as its cluster membership: it ends when the master does.
    system.getWhenTerminated().toCompletableFuture().get();
    return 0;
  }

  /**
   * This agent's Artery settings. Over tls-tcp it needs the session's keystore, which the master
   * passes in {@code $SDM_KEYSTORE}; the agent writes it to a file of its own (mode 0600, deleted
   * when the JVM ends), since it may run on a node that shares no file system with the master.
   *
   * @throws IllegalArgumentException when the keystore is missing or not the session's
   */
  private Config clusterSettings(ClusterSettings.Transport artery, SessionSecret secret)
      throws IOException {
    if (artery != ClusterSettings.Transport.TLS_TCP) {
      return ClusterSettings.at(host, 0, artery);
    }
    String base64 = System.getenv(SessionKeystore.ENV);
    if (base64 == null || base64.isBlank()) {
      throw new IllegalArgumentException(
          "tls-tcp needs the session's keystore: the master passes it in $" + SessionKeystore.ENV);
    }
    return ClusterSettings.at(host, 0, SessionKeystore.fromBase64(base64, secret));
  }

  /** Joins the master's cluster; once up, serves this agent's ranks and registers them. */
  private Behavior<SelfUp> agent(RankSet mine, Address masterAddress) {
    return Behaviors.setup(
        context -> {
          Cluster cluster = Cluster.get(context.getSystem());
          cluster.manager().tell(Join.create(masterAddress));
          cluster.subscriptions().tell(Subscribe.create(context.getSelf(), SelfUp.class));
          return Behaviors.receive(SelfUp.class)
              .onMessage(SelfUp.class, up -> serve(context, cluster, mine, masterAddress))
              .build();
        });
  }

  private Behavior<SelfUp> serve(
      ActorContext<SelfUp> context, Cluster cluster, RankSet mine, Address masterAddress) {
    FabricConfig config = FabricConfig.defaults();
    ReplyCache cache = new ReplyCache();
    SimulatedProgram program = SimulatedProgram.defaults();
    Map<Integer, ActorRef<ServerNode.Command>> nodes = new HashMap<>();
    mine.forEach(
        rank -> {
          RankBackend backend =
              new DebuggerBackend(SimulatedDebugger.direct(program, rank, size), cache);
          nodes.put(
              rank,
              context.spawn(
                  ServerNode.detached(config, rank + 1, backend),
                  "rank-" + rank,
                  ServerNode.DISPATCHER));
        });
    ActorRef<Rendezvous.Command> rendezvous =
        ActorRefResolver.get(context.getSystem())
            .resolveActorRef(masterAddress + "/user/" + Session.RENDEZVOUS);
    String name = cluster.selfMember().address().toString();
    rendezvous.tell(new Rendezvous.Register(name, nodes, secret.proof(name)));
    return Behaviors.same();
  }
}
