package io.sdmfabric.runtime;

import io.sdmfabric.gdbmi.FrozenProcesses;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StartProgress;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.runtime.agent.EarlyAttachments;
import io.sdmfabric.runtime.attach.AttachPlan;
import io.sdmfabric.runtime.attach.AttachTargets;
import io.sdmfabric.runtime.launch.MpiWaitLibrary;
import io.sdmfabric.runtime.launch.OutputMerger;
import io.sdmfabric.runtime.launch.PmixEvent;
import io.sdmfabric.runtime.launch.PmixTool;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.RankReply;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A session through the PMIx tool interface, of a launcher that serves PMIx tools (Open MPI 5's
 * mpirun, PRRTE's prterun). sdm's PMIx tool helper ({@link PmixTool}) does the PMIx side.
 *
 * <p>Launched (use case III of the PMIx tool interface, the indirect launch): the helper starts the
 * launcher paused for it and connects to its PMIx server; the launcher spawns the job with every
 * rank held in PMIx_Init; the helper reads the proc table (each rank's host and pid), and the
 * master starts here. The helper then has the launcher spawn one agent per node of the job as PMIx
 * debugger daemons; each agent asks its node's PMIx server for its node's ranks and attaches a gdb
 * to each where it waits. Once every rank is attached and registered the ranks are released: their
 * gdbs hold them, stopped, until the session runs them. There is no rank shim on this path. A job
 * of this host alone has no agent: the master's JVM attaches its ranks while the master starts, and
 * the master listens on no port ({@link DistributedMaster.Reach#HOST}).
 *
 * <p>Attached (use case I): the helper connects to the PMIx server of a running launcher, found by
 * its pid, and takes its job; the agents are spawned the same way and attach to the running ranks,
 * which run on when the session ends.
 *
 * <p>The ranks' output comes through PMIx, by rank. Closing ends the master, then the agents (whose
 * gdbs kill a launched job's ranks, or detach from an attached job's) and the helper, which ends a
 * launched job through PMIx, on SIGTERM or when its standard input closes.
 */
public final class PmixSession extends DistributedSession {
  private static final int QUOTED_LINES = 5;
  private static final Duration DRAIN_LIMIT = Duration.ofSeconds(2);

  /**
   * How the session's JVMs are wired and its ranks served, whichever the use case.
   *
   * @param address the master's address; null: the one this host reaches the job's hosts from
   */
  public record Wiring(
      ClusterSettings.Transport transport,
      String address,
      Duration wireUp,
      int ranksPerGdb,
      FabricConfig config,
      DistributedMaster.KeyPassing keys) {}

  /**
   * What to attach to and how.
   *
   * @param server the PMIx server that runs the job: the pid of its launcher (or PRRTE DVM), or its
   *     URI (a PMIx server URI, with "://" in it)
   * @param namespace the job's PMIx namespace; empty: the first job the server runs
   */
  public record AttachSpec(String server, Optional<String> namespace, Wiring wiring) {
    /** Whether the server is named by its URI, not by its launcher's pid. */
    boolean byUri() {
      return server.contains("://");
    }
  }

  /**
   * What the session does: the helper's command line; whether the job is the session's (launched:
   * it ends with it) and whether the helper starts its launcher (whose temporary files then go into
   * a directory of the session's; a running launcher's or DVM's are where they are).
   */
  private record How(
      String launcher,
      Path tool,
      List<String> helper,
      boolean launched,
      boolean startsLauncher,
      String program,
      Wiring wiring) {}

  private final How how;
  private final OutputMerger output;
  private final CompletableFuture<List<PmixEvent.Proc>> procTable = new CompletableFuture<>();
  private final List<PmixEvent.Proc> procs = new ArrayList<>();
  private final Map<Integer, StringBuilder> partialLines = new HashMap<>();
  private final ArrayDeque<String> helperLines = new ArrayDeque<>();
  private Process helper;
  private Path runDirectory;
  private OutputStream commands;
  private volatile boolean ending;

  private PmixSession(How how, int size, PrintStream err) {
    super(size, how.wiring().wireUp(), err);
    this.how = how;
    this.output = new OutputMerger(how.wiring().config().eventWindow(), this::publish);
  }

  /**
   * Starts the job through the launcher's PMIx server, and the agents, and waits until the tree is
   * wired.
   *
   * @throws IOException when the helper cannot be built or started, the launcher ends or fails
   *     before the tree is ready, or the tree is not ready in time; what was started is ended
   */
  public static PmixSession launch(LaunchedSession.Spec spec, PrintStream err) throws IOException {
    sharedHome(spec.keys());
    Path tool = PmixTool.helperFor(spec.launcher().command());
    List<String> launch = new ArrayList<>();
    launch.add(spec.launcher().command());
    launch.addAll(spec.launcherOptions());
    preloadOf(mpiWaitLibrary(spec.launcher().command(), spec.program(), err))
        .ifPresent(preload -> launch.addAll(List.of("-x", "LD_PRELOAD=" + preload)));
    launch.addAll(List.of("-n", Integer.toString(spec.size()), spec.program()));
    launch.addAll(spec.args());
    How how =
        new How(
            spec.launcher().command(),
            tool,
            PmixTool.launch(
                tool, spec.fromExec() || !PmixTool.isPmixClient(spec.program()), launch),
            true,
            true,
            spec.program(),
            new Wiring(
                spec.transport(),
                spec.address(),
                spec.wireUp(),
                spec.ranksPerGdb(),
                spec.config(),
                spec.keys()));
    PmixSession s = new PmixSession(how, spec.size(), err);
    s.open("end-pmix-job", "starting the job through PMIx");
    return s;
  }

  /**
   * Starts {@code size} ranks of {@code program} in the running PRRTE DVM ({@code prte}) whose pid
   * is {@code dvm}, through its PMIx server (use case II, the direct launch), held for the debugger
   * as in {@link #launch} ({@code fromExec}: at their exec, not in PMIx_Init).
   *
   * @throws IOException as {@link #launch}
   */
  public static PmixSession direct(
      long dvm,
      int size,
      String program,
      List<String> args,
      boolean fromExec,
      Wiring wiring,
      PrintStream err)
      throws IOException {
    sharedHome(wiring.keys());
    String server = executableOf(dvm);
    Path tool = PmixTool.helperFor(server);
    How how =
        new How(
            server,
            tool,
            PmixTool.direct(
                tool,
                dvm,
                fromExec || !PmixTool.isPmixClient(program),
                size,
                preloadOf(mpiWaitLibrary(server, program, err))
                    .map(p -> Map.of("LD_PRELOAD", p))
                    .orElse(Map.of()),
                program,
                args),
            true,
            false,
            program,
            wiring);
    PmixSession s = new PmixSession(how, size, err);
    s.open("end-pmix-job", "starting the job in the DVM through PMIx");
    return s;
  }

  /** The executable process {@code pid} runs, for the PMIx installation beside it. */
  private static String executableOf(long pid) throws IOException {
    try {
      return Path.of("/proc", Long.toString(pid), "exe").toRealPath().toString();
    } catch (IOException e) {
      throw new IOException("no process " + pid + " of this user here", e);
    }
  }

  /**
   * Attaches to the running job of a launcher through its PMIx server: the agents attach to its
   * ranks where they are; the job runs on when the session ends.
   *
   * @throws IOException when the launcher's PMIx server cannot be reached, runs no such job, or the
   *     tree is not ready in time; what was started is ended, and the job runs on
   */
  public static PmixSession attach(AttachSpec spec, PrintStream err) throws IOException {
    sharedHome(spec.wiring().keys());
    // The PMIx to speak to it: its launcher's; for a URI, that of the prte on the PATH.
    String launcher = spec.byUri() ? "prte" : executableOf(Long.parseLong(spec.server()));
    Path tool;
    try {
      tool = PmixTool.helperFor(launcher);
    } catch (IOException e) {
      if (!spec.byUri()) {
        throw e;
      }
      throw new IOException(
          "to reach a PMIx server by its URI, sdm speaks the PMIx of the prte on the PATH: "
              + e.getMessage(),
          e);
    }
    List<String> attach = PmixTool.attach(tool, spec.server(), spec.namespace());
    int size = PmixTool.jobSize(attach);
    How how = new How(launcher, tool, attach, false, false, "", spec.wiring());
    PmixSession s = new PmixSession(how, size, err);
    s.open("leave-pmix-job", "attaching through PMIx");
    return s;
  }

  /**
   * sdm's MPI wait-records library for the ranks, to preload (through the launcher's {@code -x
   * LD_PRELOAD}, or in the environment of the job spawned into a DVM) as the rank shim preloads it
   * on the other path: built with the mpicc beside the launcher (the job's MPI), else the
   * program's; none, said once, when it cannot be built.
   */
  private static Optional<String> mpiWaitLibrary(String launcher, String program, PrintStream err) {
    try {
      Optional<Path> mpicc = PmixTool.mpiccBeside(launcher);
      return Optional.of(
          (mpicc.isPresent()
                  ? MpiWaitLibrary.buildWith(mpicc.get())
                  : MpiWaitLibrary.build(program))
              .toString());
    } catch (IOException e) {
      err.println("sdm: no MPI wait-for graph (waits) for this job: " + e.getMessage());
      return Optional.empty();
    }
  }

  /** The ranks' LD_PRELOAD with {@code library} first, before the user's own. */
  private static Optional<String> preloadOf(Optional<String> library) {
    return library.map(
        l ->
            l
                + Optional.ofNullable(System.getenv("LD_PRELOAD"))
                    .filter(p -> !p.isEmpty())
                    .map(p -> ":" + p)
                    .orElse(""));
  }

  private static void sharedHome(DistributedMaster.KeyPassing keys) throws IOException {
    if (keys != DistributedMaster.KeyPassing.SHARED_HOME) {
      throw new IOException(
          "--secrets-in-clear is not supported through the PMIx tool interface: the agents read"
              + " the session's keys from the shared sdm home");
    }
  }

  @Override
  void start() throws IOException, InterruptedException {
    Map<String, String> env = Map.of();
    if (how.startsLauncher()) {
      // The launcher's and PMIx's files in a directory of the session's; a running launcher's or
      // DVM's must be found where they are.
      runDirectory = PmixTool.runDirectory();
      env = PmixTool.runEnvironment(runDirectory);
    }
    if (how.launched()) {
      // Nothing of the ranks is known until the launcher has started them all.
      StartListener.current().accept(new StartProgress.Launching(size()));
    }
    helper =
        startProcess(
            how.helper(), env, true, "pmix", Ending.END, 10, this::onEvent, this::onLauncherLine);
    commands = helper.getOutputStream();
    List<PmixEvent.Proc> table = await(procTable, "the job's proc table from the launcher");
    if (table.size() != size()) {
      throw new IOException(
          "the job has " + table.size() + " ranks, not " + size() + " as its launcher said");
    }
    if (table.stream().allMatch(p -> AttachTargets.isLocal(p.host()))) {
      startServedHere(table);
    } else {
      startWithAgents(table);
    }
    if (how.launched()) {
      tell(PmixTool.RELEASE);
    }
  }

  /**
   * A job of this host alone: its ranks are attached from this JVM while the master starts, with no
   * agent for the launcher to spawn, and no port for the master to listen on.
   */
  private void startServedHere(List<PmixEvent.Proc> table)
      throws IOException, InterruptedException {
    EarlyAttachments attachments =
        EarlyAttachments.processes(
            table.stream()
                .filter(p -> p.pid() > 0)
                .map(p -> new AttachPlan.Rank(p.pid(), p.rank()))
                .toList(),
            how.wiring().ranksPerGdb(),
            FrozenProcesses.none(),
            how.launched());
    // sdm's helper waits for every pid; a rank the launcher has not started within its wait is not
    // attached, and says why.
    for (PmixEvent.Proc p : table) {
      if (p.pid() <= 0) {
        attachments.failed(p.rank(), "the launcher has not started it");
      }
    }
    serveHereAlone(attachments, () -> startMaster(spec(DistributedMaster.Reach.HOST, "")));
  }

  /** Starts the master, then has the launcher spawn an agent on every node of the job. */
  private void startWithAgents(List<PmixEvent.Proc> table)
      throws IOException, InterruptedException {
    String address = how.wiring().address();
    if (address == null) {
      address = LocalAddress.reachingAny(table.stream().map(PmixEvent.Proc::host).toList());
    }
    DistributedMaster master = startMaster(spec(DistributedMaster.Reach.NETWORK, address));
    checkAlive();
    List<String> mode = new ArrayList<>();
    if (how.launched()) {
      mode.addAll(List.of("--held", "--program", how.program()));
    }
    mode.addAll(List.of("--ranks-per-gdb", Integer.toString(how.wiring().ranksPerGdb())));
    tell(PmixTool.daemons(how.tool(), master.agentCommand(mode)));
    awaitTree();
  }

  /** The master's spec: agents reach it at {@code address}, or it serves this host alone. */
  private DistributedMaster.Spec spec(DistributedMaster.Reach reach, String address) {
    return new DistributedMaster.Spec(
        size(),
        RankSet.all(size()),
        how.wiring().transport(),
        address,
        how.wiring().wireUp(),
        how.wiring().config(),
        !how.launched(),
        how.wiring().keys(),
        reach);
  }

  private synchronized void tell(String command) throws IOException {
    commands.write((command + "\n").getBytes(StandardCharsets.UTF_8));
    commands.flush();
  }

  private void onEvent(String line) {
    PmixEvent event;
    try {
      event = PmixEvent.parse(line);
    } catch (IllegalArgumentException e) {
      err.println("sdm: " + TerminalText.escape(e.getMessage()));
      return;
    }
    if (event instanceof PmixEvent.Proc p) {
      synchronized (procs) {
        procs.add(p);
      }
    } else if (event instanceof PmixEvent.Procs) {
      synchronized (procs) {
        procTable.complete(List.copyOf(procs));
      }
    } else if (event instanceof PmixEvent.Output o) {
      onOutput(o);
    } else if (event instanceof PmixEvent.DaemonOutput d) {
      for (String l : d.text().split("\n")) {
        LibraryLog.agentLine("agent", l).ifPresent(shown -> onLauncherLine("agent: " + shown));
      }
    } else if (event instanceof PmixEvent.Failed f) {
      String said = TerminalText.escape(f.text());
      remember(said);
      err.println("[pmix] " + said);
    } else if (event instanceof PmixEvent.Ended) {
      flushOutput();
    }
    // Launcher, Job, Daemons, Released: the steps the session waits for otherwise.
  }

  /** A piece of a rank's output: its complete lines go to the merger, the rest waits. */
  private void onOutput(PmixEvent.Output o) {
    List<String> lines = new ArrayList<>();
    synchronized (partialLines) {
      StringBuilder b = partialLines.computeIfAbsent(o.rank(), r -> new StringBuilder());
      b.append(o.text());
      int nl;
      while ((nl = b.indexOf("\n")) >= 0) {
        lines.add(b.substring(0, nl));
        b.delete(0, nl + 1);
      }
    }
    lines.forEach(l -> output.add(o.rank(), l));
  }

  private void flushOutput() {
    synchronized (partialLines) {
      partialLines.forEach(
          (rank, b) -> {
            if (b.length() > 0) {
              output.add(rank, b.toString());
              b.setLength(0);
            }
          });
    }
  }

  /** The launcher's own lines (the helper's standard error is the launcher's). */
  private void onLauncherLine(String line) {
    if (ending) {
      return;
    }
    String said = TerminalText.escape(line);
    remember(said);
    err.println("[" + how.launcher() + "] " + said);
  }

  private void remember(String line) {
    synchronized (helperLines) {
      helperLines.addLast(line);
      if (helperLines.size() > QUOTED_LINES) {
        helperLines.removeFirst();
      }
    }
  }

  private void publish(RankReply event) {
    master().ifPresent(m -> m.publish(event));
  }

  @Override
  void checkAlive() throws IOException {
    if (helper != null && !helper.isAlive()) {
      drainIfEnded(helper, DRAIN_LIMIT);
      String quoted;
      synchronized (helperLines) {
        quoted = helperLines.isEmpty() ? "" : ":\n  " + String.join("\n  ", helperLines);
      }
      throw new IOException(
          how.launcher()
              + " (through sdm's PMIx tool helper) ended before the session was ready"
              + quoted);
    }
  }

  /** The ranks that were attached (all but the missing). */
  public RankSet attached() {
    return RankSet.all(size()).minus(missing());
  }

  @Override
  void afterProcessesEnd() {
    PmixTool.deleteRunDirectory(runDirectory);
  }

  @Override
  void beforeMasterEnds(MasterClient master) {
    if (!how.launched()) {
      detach(master, attached());
    }
    drainIfEnded(helper, DRAIN_LIMIT);
    ending = true;
    flushOutput();
    deliverOutput(master, output, DRAIN_LIMIT);
  }

  @Override
  public Started started() {
    return how.launched() ? Started.PMIX : Started.ATTACH;
  }
}
