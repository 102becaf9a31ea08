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
import java.util.Map;
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
 * exec, each attached by a gdb of its own. Or they are running processes of a job sdm did not start
 * ({@code sdm attach}): given by pid ({@code --attach}), or the node's tasks of a Slurm job step
 * ({@code --slurm-step}). Simulated ranks ({@code --ranks}) serve to measure and test the fabric.
 * It runs until the master goes away or it is told to end; the gdbs end with it, and the programs
 * too, except those it attached to running, which it leaves running.
 *
 * <p>The session's secret (and keystore) come in the environment, or, with {@code --secrets-stdin},
 * as {@code NAME=VALUE} lines on standard input up to an empty line: a remote shell such as ssh
 * passes no environment on, and a command line is visible to every user in {@code ps}.
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
      names = "--attach",
      paramLabel = "PID[=RANK],...",
      description =
          "attach gdb to these running processes of this node; a RANK given must be the one in the"
              + " process's environment")
  String attach;

  @Option(
      names = "--slurm-step",
      paramLabel = "JOBID.STEP",
      description = "attach gdb to this node's processes of the Slurm job step (scontrol listpids)")
  String slurmStep;

  @Option(
      names = "--secrets-stdin",
      description =
          "read $SDM_SECRET (and $SDM_KEYSTORE) as NAME=VALUE lines from standard input, up to an"
              + " empty line, not from the environment")
  boolean secretsOnStdin;

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
    long modes =
        java.util.stream.Stream.of(ranks, spool, attach, slurmStep).filter(m -> m != null).count();
    if (modes != 1) {
      err.println(
          "sdm agent: give one of --spool DIR (a launched job), --attach PIDS or --slurm-step"
              + " JOBID.STEP (running processes), or --ranks SET (simulated)");
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
    Map<String, String> secrets;
    try {
      secrets = secretsOnStdin ? readSecrets(System.in) : System.getenv();
    } catch (IOException e) {
      err.println("sdm agent: cannot read the secrets from standard input: " + e.getMessage());
      return 2;
    }
    String hex = secrets.get(SessionSecret.ENV);
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
      settings = clusterSettings(artery, secret, secrets.get(SessionKeystore.ENV));
    } catch (IllegalArgumentException | IOException e) {
      err.println("sdm agent: " + e.getMessage());
      return 2;
    }
    List<PidAttacher.Target> targets = List.of();
    if (attach != null || slurmStep != null) {
      try {
        targets = attach != null ? targets(attach) : slurmTargets(SlurmStep.parse(slurmStep));
      } catch (IllegalArgumentException | IOException e) {
        err.println("sdm agent: " + e.getMessage());
        return 2;
      }
    }
    PidAttacher running = targets.isEmpty() ? null : new PidAttacher(GdbOptions.defaults());
    List<PidAttacher.Target> toAttach = targets;
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
                  } else if (running != null) {
                    running.start(toAttach, listener(agent, cache));
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
    if (running != null) {
      running.stop();
    }
    // Each ends its program, or detaches from one it attached to running.
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
  private Config clusterSettings(
      ClusterSettings.Transport artery, SessionSecret secret, String base64) throws IOException {
    if (artery != ClusterSettings.Transport.TLS_TCP) {
      return ClusterSettings.at(host, 0, artery);
    }
    if (base64 == null || base64.isBlank()) {
      throw new IllegalArgumentException(
          "tls-tcp needs the session's keystore: the master passes it in $" + SessionKeystore.ENV);
    }
    return ClusterSettings.at(host, 0, SessionKeystore.fromBase64(base64, secret));
  }

  /**
   * The secrets on standard input: {@code NAME=VALUE} lines up to an empty line or the end, read
   * byte by byte so that nothing past them is taken from the stream.
   */
  static Map<String, String> readSecrets(java.io.InputStream in) throws IOException {
    Map<String, String> secrets = new java.util.HashMap<>();
    java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
    int total = 0;
    while (true) {
      int b = in.read();
      if (b >= 0 && b != '\n') {
        if (++total > 1 << 20) {
          throw new IOException("more than 1 MiB without an empty line");
        }
        line.write(b);
        continue;
      }
      String text = line.toString(java.nio.charset.StandardCharsets.UTF_8).strip();
      line.reset();
      if (text.isEmpty()) {
        return secrets;
      }
      int eq = text.indexOf('=');
      if (eq <= 0) {
        throw new IOException("a line that is not NAME=VALUE");
      }
      secrets.put(text.substring(0, eq), text.substring(eq + 1));
      if (b < 0) {
        return secrets;
      }
    }
  }

  /** {@code PID[=RANK],...}: a pid without a rank takes the one in its environment. */
  static List<PidAttacher.Target> targets(String list) throws IOException {
    List<PidAttacher.Target> targets = new java.util.ArrayList<>();
    for (String item : list.split(",")) {
      int eq = item.indexOf('=');
      long pid;
      try {
        pid = Long.parseLong(eq < 0 ? item : item.substring(0, eq));
        targets.add(
            new PidAttacher.Target(
                pid,
                eq < 0
                    ? RankEnvironment.ofProcess(pid).rank()
                    : Integer.parseInt(item.substring(eq + 1))));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--attach needs PID[=RANK],..., not " + list);
      }
    }
    return targets;
  }

  /** This node's tasks of the step, each with Slurm's task id as its rank. */
  private static List<PidAttacher.Target> slurmTargets(SlurmStep step) throws IOException {
    List<PidAttacher.Target> targets = new java.util.ArrayList<>();
    for (SlurmStep.Task t : step.localTasks()) {
      targets.add(new PidAttacher.Target(t.pid(), t.globalId()));
    }
    if (targets.isEmpty()) {
      throw new IOException("this node has no processes of Slurm job step " + step.id());
    }
    return targets;
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
