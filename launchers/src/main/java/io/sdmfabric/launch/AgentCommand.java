package io.sdmfabric.launch;

import com.typesafe.config.Config;
import io.sdmfabric.gdbmi.GdbDebugger;
import io.sdmfabric.gdbmi.GdbOptions;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.DebuggerBackend;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.ReplyCache;
import io.sdmfabric.server.SimulatedDebugger;
import io.sdmfabric.server.SimulatedProgram;
import io.sdmfabric.server.UnavailableRank;
import io.sdmfabric.wire.SessionSecret;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.AddressFromURIString;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sdm agent}: the servers of one node's ranks, in one JVM that joins the master's cluster
 * and registers its ranks with the master's rendezvous. Real ranks come from the node's spool
 * ({@code --spool}): processes the job's launcher started under the rank shim, stopped before their
 * exec, each attached by a gdb of its own. Simulated ranks ({@code --ranks}) serve to measure and
 * test the fabric. It runs until the master goes away or it is told to end, and its gdbs and their
 * programs end with it.
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
      paramLabel = "SET",
      description = "serve these ranks, simulated (for tests and benchmarks)")
  String ranks;

  @Option(
      names = "--spool",
      paramLabel = "DIR",
      description = "serve the ranks that the rank shim records in DIR, with gdb")
  Path spool;

  @Option(
      names = "--program",
      paramLabel = "PATH",
      description = "the program the ranks exec (with --spool)")
  Path program = Path.of("");

  @Option(names = "--size", required = true, paramLabel = "N", description = "ranks in the job")
  int size;

  @Option(
      names = "--wire-up",
      paramLabel = "SECONDS",
      description = "how long to look for ranks in the spool (default: ${DEFAULT-VALUE})")
  int wireUpSeconds = 120;

  @Option(names = "--host", description = "the address to listen on (default: this host's address)")
  String host = ClusterSettings.localAddress();

  @Option(
      names = "--transport",
      description = "tcp, aeron-udp or tls-tcp, as the master uses (default: ${DEFAULT-VALUE})")
  String transport = "tcp";

  private final PrintStream err;
  private final List<GdbDebugger> gdbs = new CopyOnWriteArrayList<>();

  AgentCommand(PrintStream err) {
    this.err = err;
  }

  @Override
  public Integer call() throws Exception {
    if ((ranks == null) == (spool == null)) {
      err.println("sdm agent: give either --spool DIR (real ranks) or --ranks SET (simulated)");
      return 2;
    }
    RankSet simulated = RankSet.empty();
    if (ranks != null) {
      try {
        simulated = RankSet.parse(ranks);
      } catch (IllegalArgumentException e) {
        err.println("sdm agent: " + e.getMessage());
        return 2;
      }
    }
    String hex = System.getenv(SessionSecret.ENV);
    if (hex == null || hex.isBlank()) {
      err.println("sdm agent: no session secret: the master passes it in $" + SessionSecret.ENV);
      return 2;
    }
    SessionSecret secret;
    try {
      secret = SessionSecret.fromHex(hex);
    } catch (IllegalArgumentException e) {
      err.println("sdm agent: " + e.getMessage());
      return 2;
    }
    ClusterSettings.Transport artery;
    try {
      artery = ClusterSettings.Transport.named(transport);
    } catch (IllegalArgumentException e) {
      err.println("sdm agent: " + e.getMessage());
      return 2;
    }
    Config settings;
    try {
      settings = clusterSettings(artery, secret);
    } catch (IllegalArgumentException | IOException e) {
      err.println("sdm agent: " + e.getMessage());
      return 2;
    }
    Address masterAddress =
        AddressFromURIString.parse("pekko://" + ClusterSettings.SYSTEM + "@" + master);
    FabricConfig config = FabricConfig.defaults();
    ReplyCache cache = new ReplyCache();
    RankSet mine = simulated;
    SpoolAttacher attacher = spool == null ? null : attacher();
    ActorSystem<NodeAgent.Message> system =
        ActorSystem.create(
            NodeAgent.create(
                masterAddress,
                secret,
                config,
                agent -> {
                  if (attacher != null) {
                    attacher.start(listener(agent, cache));
                  } else {
                    serveSimulated(mine, cache, agent);
                  }
                }),
            ClusterSettings.SYSTEM,
            settings);
    // The agent lives as long as its cluster membership: it ends when the master does.
    system.getWhenTerminated().toCompletableFuture().get();
    if (attacher != null) {
      attacher.stop();
    }
    gdbs.parallelStream().forEach(GdbDebugger::close);
    if (spool != null) {
      new RankSpool(spool).delete();
    }
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

  private void serveSimulated(RankSet mine, ReplyCache cache, ActorRef<NodeAgent.Message> agent) {
    SimulatedProgram program = SimulatedProgram.defaults();
    mine.forEach(
        rank ->
            agent.tell(
                new NodeAgent.RankReady(
                    rank,
                    new DebuggerBackend(SimulatedDebugger.direct(program, rank, size), cache))));
  }

  private SpoolAttacher attacher() {
    return new SpoolAttacher(
        new RankSpool(spool),
        size,
        Duration.ofSeconds(wireUpSeconds),
        GdbOptions.defaults(),
        program);
  }

  /** Serves each attached rank with its gdb, and each rank gdb could not attach with the error. */
  private SpoolAttacher.Listener listener(ActorRef<NodeAgent.Message> agent, ReplyCache cache) {
    return new SpoolAttacher.Listener() {
      @Override
      public void attached(int rank, GdbDebugger gdb) {
        gdbs.add(gdb);
        agent.tell(new NodeAgent.RankReady(rank, new DebuggerBackend(gdb, cache)));
      }

      @Override
      public void failed(int rank, String why) {
        err.println("sdm agent: rank " + rank + ": " + why);
        agent.tell(new NodeAgent.RankReady(rank, new UnavailableRank("rank " + rank + ": " + why)));
      }
    };
  }
}
