package io.sdmfabric.runtime.agent;

import com.typesafe.config.Config;
import io.sdmfabric.gdbmi.FrozenProcesses;
import io.sdmfabric.gdbmi.GdbDebugger;
import io.sdmfabric.gdbmi.GdbOptions;
import io.sdmfabric.gdbmi.GdbPool;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.runtime.GdbFleet;
import io.sdmfabric.runtime.LibraryLog;
import io.sdmfabric.runtime.LocalAddress;
import io.sdmfabric.runtime.SessionKeystore;
import io.sdmfabric.runtime.attach.RankEnvironment;
import io.sdmfabric.runtime.attach.SlurmStep;
import io.sdmfabric.runtime.launch.RankSpool;
import io.sdmfabric.server.DebuggerBackend;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.ReplyCache;
import io.sdmfabric.sim.SimulatedDebugger;
import io.sdmfabric.sim.SimulatedProgram;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import org.apache.pekko.Done;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.AddressFromURIString;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sdm agent}: the servers of one node's ranks, in one JVM that joins the master's cluster
 * and registers its ranks with the master's rendezvous. Real ranks come from the node's spool
 * ({@code --spool}): processes the job's launcher started under the rank shim, stopped before their
 * exec, each attached by a gdb of its own. Or they are running processes of a job sdm did not start
 * ({@code sdm attach}): given by pid ({@code --attach}), or the node's tasks of a Slurm job step
 * ({@code --slurm-step}). Simulated ranks ({@code --simulated}) serve to measure and test the
 * fabric. It runs until the master goes away or it is told to end; the gdbs end with it, and the
 * programs too, except those it attached to running, which it leaves running.
 *
 * <p>The session's secret (and keystore) are read from the session's key directory ({@code --keys},
 * in the user's shared sdm home). Only when the user chose to send them in clear do they come in
 * the environment, or, with {@code --secrets-stdin}, as {@code NAME=VALUE} lines on standard input
 * up to an empty line: a remote shell such as ssh passes no environment on, and a command line is
 * visible to every user in {@code ps}.
 */
@Command(
    name = "agent",
    description = "Serve ranks of a distributed session (started by sdm, not by hand).",
    mixinStandardHelpOptions = true)
public final class AgentCommand implements Callable<Integer> {
  @Option(
      names = "--master",
      required = true,
      paramLabel = "HOST:PORT",
      description = "the master's cluster address")
  String master;

  /** What the agent serves: exactly one of these. */
  static final class Mode {
    @Option(
        names = "--spool",
        paramLabel = "DIR",
        description =
            "serve the ranks that the rank shim records in DIR, with gdb (a launched job)")
    Path spool;

    @Option(
        names = "--attach",
        paramLabel = "PID[=RANK],...",
        description =
            "attach gdb to these running processes of this node; a RANK given must be the one in"
                + " the process's environment")
    String attach;

    @Option(
        names = "--slurm-step",
        paramLabel = "JOBID.STEP",
        description =
            "attach gdb to this node's processes of the Slurm job step (scontrol listpids)")
    String slurmStep;

    @Option(
        names = "--simulated",
        paramLabel = "SET",
        description = "serve these ranks of a simulated program (for tests and benchmarks)")
    String simulated;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Mode mode;

  @Option(
      names = "--held",
      description =
          "the processes given by --attach are a job's that its launcher started for this session"
              + " and holds for the debugger (the PMIx tool interface): end them with the session,"
              + " and let run continue them")
  boolean held;

  @Option(
      names = "--keys",
      paramLabel = "DIR",
      description =
          "read the session's secret and keystore from DIR, the session's private directory in"
              + " sdm's home, which this node must share with the master's")
  Path keys;

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
      names = "--ranks-per-gdb",
      paramLabel = "N",
      description = "how many of this node's ranks one gdb debugs (default: ${DEFAULT-VALUE})")
  int ranksPerGdb = GdbFleet.DEFAULT_RANKS_PER_GDB;

  @Option(
      names = "--debug-file-directory",
      paramLabel = "DIR",
      description =
          "where gdb looks for system libraries' separate debug files (default: the master's"
              + " $SDM_DEBUG_FILE_DIRECTORY, else nowhere)")
  String debugFileDirectory;

  @Option(
      names = "--wire-up",
      paramLabel = "SECONDS",
      description = "how long to look for ranks in the spool (default: ${DEFAULT-VALUE})")
  int wireUpSeconds = 120;

  @Option(
      names = "--host",
      description =
          "the address to listen on and advertise (default: the address this host sends from to"
              + " the master)")
  String host;

  @Option(
      names = "--transport",
      description =
          "tls-tcp, aeron-udp or insecure-tcp, as the master uses (default: ${DEFAULT-VALUE})")
  String transport = "tls-tcp";

  /** How long an ending actor system may take before the agent ends without it. */
  private static final Duration ENDING_LIMIT = Duration.ofSeconds(30);

  private final PrintStream err;
  private final List<GdbDebugger> gdbs = new CopyOnWriteArrayList<>();

  public AgentCommand(PrintStream err) {
    this.err = err;
  }

  /** Runs an agent, as the master starts it: {@code java -cp ... AgentCommand OPTIONS}. */
  public static void main(String[] args) {
    // Logging set up now, on one thread, before the actor system's threads race to it.
    org.slf4j.LoggerFactory.getILoggerFactory();
    System.exit(new CommandLine(new AgentCommand(System.err)).execute(args));
  }

  /** The address given, else the one this node sends from to the master. */
  private String ownAddress() {
    if (host != null) {
      return host;
    }
    String masterHost = master.substring(0, Math.max(0, master.lastIndexOf(':')));
    return LocalAddress.reaching(masterHost.replaceAll("^\\[|\\]$", ""))
        .orElseGet(LocalAddress::guess);
  }

  @Override
  public Integer call() throws Exception {
    // What Pekko and Aeron log here reaches the master marked, for the session's log file.
    LibraryLog.marked(err);
    Config settings;
    AgentSecrets secrets;
    RankSource ranks;
    try {
      secrets =
          keys != null
              ? AgentSecrets.in(keys)
              : AgentSecrets.from(
                  secretsOnStdin ? AgentSecrets.readSecrets(System.in) : System.getenv());
      settings = clusterSettings(ClusterSettings.Transport.named(transport), secrets);
      ranks = rankSource();
    } catch (IllegalArgumentException | IOException e) {
      err.println("sdm agent on " + nodeName() + ": " + e.getMessage());
      return 2;
    }
    Address masterAddress =
        AddressFromURIString.parse("pekko://" + ClusterSettings.SYSTEM + "@" + master);
    ReplyCache cache = new ReplyCache();
    ActorSystem<NodeAgent.Message> system =
        ActorSystem.create(
            NodeAgent.create(
                masterAddress,
                secrets.secret(),
                FabricConfig.defaults(),
                agent -> ranks.start().accept(agent, cache)),
            ClusterSettings.SYSTEM,
            settings);
    // The agent lives as long as its cluster membership: it ends when the master does.
    awaitEnd(system);
    ranks.stop().run();
    if (downed(system)) {
      // The master downed this node (it could not reach it), or this node could not reach the
      // master (its network failed, or the master is gone): the job may go on elsewhere, and
      // killing the ranks would make their launcher end all of it. They are left to it, running.
      err.println(
          "sdm agent: out of the session (the master and this node lost each other);"
              + " this node's ranks are left running");
      gdbs.parallelStream().forEach(GdbDebugger::closeLeavingProgram);
    } else {
      // Each ends its program, or detaches from one it attached to running.
      gdbs.parallelStream().forEach(GdbDebugger::close);
    }
    if (mode.spool != null) {
      new RankSpool(mode.spool).delete();
    }
    return 0;
  }

  /**
   * Waits until {@code system} has ended, or, once it has begun to end, {@link #ENDING_LIMIT} at
   * most: this agent's gdbs and ranks must be seen to even when the actor system cannot stop (its
   * remoting waiting on a peer that dropped this node).
   */
  private void awaitEnd(ActorSystem<?> system) throws InterruptedException, ExecutionException {
    CompletableFuture<?> terminated = system.getWhenTerminated().toCompletableFuture();
    CompletableFuture<Done> ending = new CompletableFuture<>();
    CoordinatedShutdown.get(system)
        .addTask(
            CoordinatedShutdown.PhaseBeforeServiceUnbind(),
            "sdm-agent-ending",
            () -> {
              ending.complete(Done.getInstance());
              return CompletableFuture.completedFuture(Done.getInstance());
            });
    CompletableFuture.anyOf(terminated, ending).get();
    try {
      terminated.get(ENDING_LIMIT.toSeconds(), TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      err.println(
          "sdm agent: its actor system did not stop within "
              + ENDING_LIMIT.toSeconds()
              + " s of ending; the agent ends without it");
    }
  }

  /** This node's name, for what the agent says: the user reads which node could not start. */
  private static String nodeName() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      return "this node";
    }
  }

  /** Whether {@code system} ended because this member was downed ({@code SessionDowning}). */
  private static boolean downed(ActorSystem<?> system) {
    return CoordinatedShutdown.get(system)
        .getShutdownReason()
        .filter(CoordinatedShutdown.clusterDowningReason()::equals)
        .isPresent();
  }

  /** Where this agent's ranks come from, as its mode says. */
  private record RankSource(
      BiConsumer<ActorRef<NodeAgent.Message>, ReplyCache> start, Runnable stop) {}

  private RankSource rankSource() throws IOException {
    if (mode.simulated != null) {
      RankSet mine = RankSet.parse(mode.simulated);
      return new RankSource((agent, cache) -> serveSimulated(mine, cache, agent), () -> {});
    }
    if (mode.spool != null) {
      SpoolAttacher attacher = attacher();
      return new RankSource(
          (agent, cache) -> attacher.start(listener(agent, cache)), attacher::stop);
    }
    List<PidAttacher.Target> targets =
        mode.attach != null ? targets(mode.attach) : slurmTargets(SlurmStep.parse(mode.slurmStep));
    // Left running until attached: an agent that cannot reach its master would hold them for
    // the whole wire-up time. The master's own host freezes its processes (AttachedSession).
    PidAttacher running = new PidAttacher(gdbPool(), held, FrozenProcesses.none());
    return new RankSource(
        (agent, cache) -> running.start(targets, listener(agent, cache)), running::stop);
  }

  /**
   * This agent's Artery settings. Over tls-tcp it needs the session's keystore: the one in the
   * session's key directory, used in place, or, sent in clear in {@code $SDM_KEYSTORE}, written to
   * a file of its own (mode 0600, deleted when the JVM ends).
   *
   * @throws IllegalArgumentException when the keystore is missing or not the session's
   */
  private Config clusterSettings(ClusterSettings.Transport artery, AgentSecrets secrets)
      throws IOException {
    if (artery != ClusterSettings.Transport.TLS_TCP) {
      return ClusterSettings.at(ownAddress(), 0, artery, secrets.secret());
    }
    if (secrets.keystoreFile().isPresent()) {
      return ClusterSettings.at(
          ownAddress(), 0, SessionKeystore.open(secrets.keystoreFile().get(), secrets.secret()));
    }
    if (secrets.keystoreBase64().isEmpty()) {
      throw new IllegalArgumentException(
          "tls-tcp needs the session's keystore: the master passes it in $" + SessionKeystore.ENV);
    }
    return ClusterSettings.at(
        ownAddress(),
        0,
        SessionKeystore.fromBase64(secrets.keystoreBase64().get(), secrets.secret()));
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
        new RankSpool(mode.spool), size, Duration.ofSeconds(wireUpSeconds), gdbPool(), program);
  }

  private GdbPool gdbPool() {
    if (ranksPerGdb < 1) {
      throw new IllegalArgumentException("--ranks-per-gdb needs 1 or more, not " + ranksPerGdb);
    }
    return new GdbPool(gdbOptions(), ranksPerGdb);
  }

  /** How this agent's gdbs run: the defaults, with {@code --debug-file-directory} if given. */
  GdbOptions gdbOptions() {
    GdbOptions gdb = GdbOptions.defaults();
    return debugFileDirectory == null ? gdb : gdb.withDebugFileDirectory(debugFileDirectory);
  }

  /** Serves each attached rank with its gdb, and each rank gdb could not attach with the error. */
  private SpoolAttacher.Listener listener(ActorRef<NodeAgent.Message> agent, ReplyCache cache) {
    return new ServedRanks(agent, cache, err, "sdm agent", gdbs);
  }
}
