package io.sdmfabric.runtime;

import io.sdmfabric.model.HostList;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.runtime.agent.EarlyAttachments;
import io.sdmfabric.runtime.attach.AttachTargets;
import io.sdmfabric.runtime.launch.JobHosts;
import io.sdmfabric.runtime.launch.JobLauncher;
import io.sdmfabric.runtime.launch.MpiWaitLibrary;
import io.sdmfabric.runtime.launch.OutputMerger;
import io.sdmfabric.runtime.launch.RankShim;
import io.sdmfabric.runtime.launch.RankSpool;
import io.sdmfabric.runtime.launch.SlurmMpiPlugin;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A session whose ranks a real launcher starts (mpirun or srun): the master runs in this JVM, the
 * ranks start under the rank shim, and one agent JVM per node, started through the same launcher,
 * attaches a gdb to each of its node's ranks and serves them; a job of this host alone (mpirun or
 * mpiexec naming no other host, outside an allocation) is served from this JVM instead, with no
 * agent. The ranks' output comes through the launcher, tagged with each line's rank, and is merged
 * here. Closing it ends the master, then the agents (and so every gdb and rank) and the ranks'
 * launcher together.
 */
public final class LaunchedSession extends DistributedSession {
  /** How many of the launcher's own lines, and of the rank shims', a failure message quotes. */
  private static final int QUOTED_LINES = 5;

  /** How long closing waits for an ended launcher's last lines. */
  private static final Duration DRAIN_LIMIT = Duration.ofSeconds(2);

  /**
   * What to launch and how.
   *
   * @param launcherOptions options for the launcher, e.g. {@code --oversubscribe}
   * @param address the master's address, which every node must reach; null: the address this host
   *     reaches the job's hosts from ({@link LocalAddress}), as far as they are known before it
   *     starts (the launcher's options and the batch allocation; srun's nodes, once Slurm chose)
   * @param wireUp how long to wait for every rank to be attached and registered
   * @param keys how the agents get the session's secrets
   */
  public record Spec(
      JobLauncher launcher,
      List<String> launcherOptions,
      int size,
      String program,
      List<String> args,
      ClusterSettings.Transport transport,
      String address,
      Duration wireUp,
      int ranksPerGdb,
      boolean fromExec,
      FabricConfig config,
      DistributedMaster.KeyPassing keys) {
    public Spec {
      java.util.Objects.requireNonNull(keys, "keys");
      if (ranksPerGdb < 1) {
        throw new IllegalArgumentException("a gdb debugs at least one rank: " + ranksPerGdb);
      }
      launcherOptions = List.copyOf(launcherOptions);
      args = List.copyOf(args);
    }
  }

  private final Spec spec;
  private final Path spool;
  private final OutputMerger output;
  private final ArrayDeque<String> launcherLines = new ArrayDeque<>();
  private final ArrayDeque<String> shimLines = new ArrayDeque<>();

  /** What agents said of themselves ("sdm agent on node3: ..."): why they could not start. */
  private final ArrayDeque<String> agentLines = new ArrayDeque<>();

  private final CompletableFuture<JobLauncher.SlurmJob> slurmJob = new CompletableFuture<>();

  /** The ranks whose program has exited, as the session's events say. */
  private final RankSet.Builder exited = RankSet.builder();

  private Process ranks;
  private volatile RankShim.Hold hold = RankShim.Hold.AT_EXEC;
  private volatile boolean ending;
  private Process agents;

  private LaunchedSession(Spec spec, PrintStream err, Path spool) {
    super(spec.size(), spec.wireUp(), err);
    this.spec = spec;
    this.spool = spool;
    this.output = new OutputMerger(spec.config().eventWindow(), this::publish);
  }

  /**
   * Starts the ranks and the agents and waits until the tree is wired.
   *
   * @throws IOException when a launcher cannot be started or ends before the tree is ready, or the
   *     tree is not ready in time; what was started is ended
   */
  public static LaunchedSession start(Spec spec, PrintStream err) throws IOException {
    if (spec.launcher().servesPmixTools()) {
      throw new IOException(
          spec.launcher().command()
              + " is PRRTE's (Open MPI 5), whose jobs start through the PMIx tool interface"
              + " (PmixSession), not under the rank shim");
    }
    byte[] id = new byte[6];
    new SecureRandom().nextBytes(id);
    return start(
        spec,
        err,
        Path.of(
            System.getProperty("java.io.tmpdir"),
            "sdm-" + System.getProperty("user.name") + "-" + HexFormat.of().formatHex(id)));
  }

  /**
   * {@link #start(Spec, PrintStream)} with the ranks' spool directory at {@code spool} on every
   * node, for tests that plant one there first.
   */
  static LaunchedSession start(Spec spec, PrintStream err, Path spool) throws IOException {
    LaunchedSession s = new LaunchedSession(spec, err, spool);
    s.open("end-launched-job", "starting the job");
    return s;
  }

  /**
   * sdm's MPI wait-records library for the ranks, built with the job's mpicc; none, said once on
   * standard error, when it cannot be built.
   */
  private Optional<MpiWaitLibrary.ForProgram> mpiWaitLibrary() {
    try {
      return Optional.of(MpiWaitLibrary.forProgram(spec.program()));
    } catch (IOException e) {
      err.println("sdm: no MPI wait-for graph (waits) for this job: " + e.getMessage());
      return Optional.empty();
    }
  }

  /**
   * Where the ranks wait for their gdbs: at the end of MPI_Init when the wait-records library can
   * hold them there, for MPI_Init under gdb is most of a launch (each of the hundred libraries it
   * loads and unloads stops the rank in gdb); before their exec when the user asked for it, to
   * debug what comes before MPI_Init, or when the program is not one the library can hold.
   */
  private RankShim.Hold hold(Optional<MpiWaitLibrary.ForProgram> library) {
    return !spec.fromExec() && library.map(MpiWaitLibrary.ForProgram::holdsInInit).orElse(false)
        ? RankShim.Hold.IN_MPI_INIT
        : RankShim.Hold.AT_EXEC;
  }

  @Override
  void start() throws IOException, InterruptedException {
    JobLauncher launcher = spec.launcher();
    if (launcher.isSlurm()) {
      SlurmMpiPlugin.warning(spec.program(), spec.launcherOptions(), System.getenv())
          .ifPresent(err::println);
    }
    Optional<MpiWaitLibrary.ForProgram> library = mpiWaitLibrary();
    hold = hold(library);
    String preload = library.map(l -> l.library().toString()).orElse("");
    List<String> ranksCommand =
        launcher.ranks(
            spec.launcherOptions(),
            spec.size(),
            RankShim.command(spool.toString(), preload, hold, spec.program(), spec.args()));
    ranks = startProcess(ranksCommand, Map.of(), false, "ranks", Ending.END, 10, this::onRanksLine);
    List<String> hosts = JobHosts.of(launcher, spec.launcherOptions(), System.getenv());
    // A job of this host alone is served from this JVM, with no agent to launch and join. Slurm
    // places the ranks itself, wherever it likes.
    if (!launcher.isSlurm() && hosts.stream().allMatch(AttachTargets::isLocal)) {
      startServedHere();
    } else {
      startWithAgents(launcher, hosts);
    }
  }

  /**
   * A job of this host alone: its ranks are attached as they stop, while the master starts, and
   * served from this JVM; no other JVM joins the master, which listens nowhere.
   */
  private void startServedHere() throws IOException, InterruptedException {
    serveHereAlone(
        EarlyAttachments.spool(
            spool, Path.of(spec.program()), spec.size(), spec.wireUp(), spec.ranksPerGdb()),
        () -> startJobMaster(DistributedMaster.Reach.HOST, ""));
  }

  /** Starts the master, then the agents that serve the job's ranks on their nodes. */
  private void startWithAgents(JobLauncher launcher, List<String> hosts)
      throws IOException, InterruptedException {
    Optional<JobLauncher.SlurmJob> job = Optional.empty();
    String address = spec.address();
    if (address == null) {
      if (hosts.isEmpty() && launcher.isSlurm()) {
        // Slurm places the job: its nodes are known once rank 0 says them.
        job = Optional.of(await(slurmJob, "the Slurm job of the ranks"));
        hosts = HostList.expand(job.get().nodes());
      }
      address = LocalAddress.reachingAny(hosts);
    }
    DistributedMaster master = startJobMaster(DistributedMaster.Reach.NETWORK, address);
    checkAlive(); // ranks that could not start (their shim says why): no agents for them
    if (launcher.isSlurm() && job.isEmpty()) {
      job = Optional.of(await(slurmJob, "the Slurm job of the ranks"));
    }
    Map<String, String> env = master.agentSecrets();
    List<String> agentCommand =
        master.agentCommand(
            List.of(
                "--spool",
                spool.toString(),
                "--program",
                spec.program(),
                "--ranks-per-gdb",
                Integer.toString(spec.ranksPerGdb())));
    agents =
        startProcess(
            launcher.agents(spec.launcherOptions(), job, List.copyOf(env.keySet()), agentCommand),
            env,
            false,
            "agents",
            Ending.END,
            15,
            this::onAgentLine);
    awaitTree();
  }

  /**
   * Starts the job's master, which agents reach at {@code address} or which serves this host alone;
   * the ranks stop themselves as they start, so it starts meanwhile. It hears of the ranks' exits
   * from then on.
   */
  private DistributedMaster startJobMaster(DistributedMaster.Reach reach, String address)
      throws IOException {
    DistributedMaster master =
        startMaster(
            new DistributedMaster.Spec(
                spec.size(),
                RankSet.all(spec.size()),
                spec.transport(),
                address,
                spec.wireUp(),
                spec.config(),
                false,
                spec.keys(),
                reach));
    // Once every rank has exited, their launcher ends, and their last lines are in its pipe.
    master.client().subscribe(this::noteExits);
    return master;
  }

  private void noteExits(RankReply event) {
    if (event.reply() instanceof Reply.Exited) {
      synchronized (exited) {
        exited.addAll(event.ranks());
      }
    }
  }

  /** Whether every rank's program has exited. */
  private boolean allExited() {
    synchronized (exited) {
      return exited.build().size() == spec.size();
    }
  }

  private void publish(RankReply event) {
    master().ifPresent(m -> m.publish(event));
  }

  /** Fails when either launcher has ended before the session was ready. */
  @Override
  void checkAlive() throws IOException {
    ended(ranks, "the ranks");
    ended(agents, "the agents");
  }

  private void ended(Process p, String what) throws IOException {
    if (p != null && !p.isAlive()) {
      drainIfEnded(p, DRAIN_LIMIT);
      String quoted;
      synchronized (launcherLines) {
        List<String> lines = new ArrayList<>(p == agents ? agentLines : shimLines);
        if (p != agents) {
          lines.addAll(launcherLines);
        }
        quoted = lines.isEmpty() ? "" : ":\n  " + String.join("\n  ", lines);
      }
      throw new IOException(
          spec.launcher().command()
              + " of "
              + what
              + " exited with status "
              + p.exitValue()
              + " before the session was ready"
              + quoted
              + (p == ranks && hold == RankShim.Hold.IN_MPI_INIT
                  ? "\n(its ranks were to be attached at the end of MPI_Init: to debug one that"
                      + " ends before, start the job with --from-exec)"
                  : ""));
    }
  }

  private void onRanksLine(String line) {
    if (ending || (closing() && master().isEmpty())) {
      return; // The launcher's complaints about the ranks sdm is ending.
    }
    Optional<JobLauncher.Tagged> tagged = spec.launcher().untag(line);
    if (tagged.isEmpty()) {
      // The launcher's own lines can quote others: its daemons on other nodes, a rank's program.
      String said = TerminalText.escape(line);
      remember(launcherLines, said);
      err.println("[" + spec.launcher().command() + "] " + said);
      return;
    }
    JobLauncher.Tagged t = tagged.get();
    if (!slurmJob.isDone() && t.rank() == 0) {
      Optional<JobLauncher.SlurmJob> job = JobLauncher.slurmJob(t.text());
      if (job.isPresent()) {
        slurmJob.complete(job.get());
        return;
      }
    }
    if (master().isEmpty() || !master().get().treeReady().isDone()) {
      // No rank has run its program yet (each waits, stopped, to be attached at its exec): this is
      // its shim, saying why the rank does not start; or, for ranks held at the end of MPI_Init,
      // what their program says before. It goes where the launcher's lines go, escaped, since it
      // can quote a path or a program's name.
      String said = "rank " + t.rank() + ": " + TerminalText.escape(t.text());
      remember(shimLines, said);
      err.println("[" + spec.launcher().command() + "] " + said);
      return;
    }
    output.add(t.rank(), t.text());
  }

  private void onAgentLine(String heard) {
    Optional<String> shown = LibraryLog.agentLine("agent", heard);
    if (shown.isEmpty()) {
      return; // a library's line, in the session's log file
    }
    String line = shown.get();
    // An agent's line can quote others: a peer on the network, gdb, the program.
    String said = TerminalText.escape(line);
    if (line.startsWith("sdm agent")) {
      remember(agentLines, said);
    }
    if (!closing()) {
      err.println("[agent] " + said);
    }
  }

  /** Keeps {@code line} among the last lines of its kind that a failure quotes. */
  private void remember(ArrayDeque<String> lines, String line) {
    synchronized (launcherLines) {
      lines.addLast(line);
      if (lines.size() > QUOTED_LINES) {
        lines.removeFirst();
      }
    }
  }

  /**
   * The ranks' last output goes out while the front-end still hears it: all that a launcher that
   * has ended printed (the job is over; its last lines may still be in the pipe), and what waits to
   * merge. From then on, what the launcher says is about sdm ending it.
   */
  @Override
  void beforeMasterEnds(MasterClient master) {
    if (ranks != null && allExited()) {
      // The exits came up the tree; the programs' last output comes through the launcher, which
      // may still be passing it on: a quit right after the exits must not lose it.
      try {
        ranks.waitFor(DRAIN_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    drainIfEnded(ranks, DRAIN_LIMIT);
    ending = true;
    deliverOutput(master, output, DRAIN_LIMIT);
  }

  @Override
  void afterProcessesEnd() {
    new RankSpool(spool).delete();
  }

  @Override
  public Started started() {
    return hold == RankShim.Hold.IN_MPI_INIT ? Started.SHIM_IN_INIT : Started.SHIM;
  }
}
