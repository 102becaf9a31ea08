package io.sdmfabric.runtime;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.runtime.launch.OutputMerger;
import io.sdmfabric.runtime.launch.PmixEvent;
import io.sdmfabric.runtime.launch.PmixTool;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A session whose ranks a launcher that serves PMIx tools starts (Open MPI 5's mpirun, PRRTE's
 * prterun): use case III of the PMIx tool interface, the indirect launch. sdm's PMIx tool helper
 * ({@link PmixTool}) starts the launcher paused for it and connects to its PMIx server; the
 * launcher spawns the job with every rank held in PMIx_Init; the helper reads the proc table (each
 * rank's host and pid), and the master starts here. The helper then has the launcher spawn one
 * agent per node of the job as PMIx debugger daemons; each agent asks its node's PMIx server for
 * its node's ranks and attaches a gdb to each where it waits. Once every rank is attached and
 * registered the ranks are released: their gdbs hold them, stopped, until the session runs them.
 * There is no rank shim on this path. The ranks' output comes through PMIx, by rank.
 *
 * <p>Closing ends the master, then the agents (whose gdbs kill the ranks) and the helper, which
 * ends the job through PMIx and ends itself on SIGTERM or when its standard input closes.
 */
public final class PmixLaunchedSession extends DistributedSession {
  private static final int QUOTED_LINES = 5;
  private static final Duration DRAIN_LIMIT = Duration.ofSeconds(2);

  private final LaunchedSession.Spec spec;
  private final OutputMerger output;
  private final CompletableFuture<List<PmixEvent.Proc>> procTable = new CompletableFuture<>();
  private final List<PmixEvent.Proc> procs = new ArrayList<>();
  private final Map<Integer, StringBuilder> partialLines = new HashMap<>();
  private final ArrayDeque<String> helperLines = new ArrayDeque<>();
  private Process helper;
  private Path runDirectory;
  private OutputStream commands;
  private RankSet missing = RankSet.empty();
  private volatile boolean ending;

  private PmixLaunchedSession(LaunchedSession.Spec spec, PrintStream err) {
    super(spec.size(), spec.wireUp(), err);
    this.spec = spec;
    this.output = new OutputMerger(spec.config().eventWindow(), this::publish);
  }

  /**
   * Starts the job through the launcher's PMIx server, and the agents, and waits until the tree is
   * wired.
   *
   * @throws IOException when the helper cannot be built or started, the launcher ends or fails
   *     before the tree is ready, or the tree is not ready in time; what was started is ended
   */
  public static PmixLaunchedSession start(LaunchedSession.Spec spec, PrintStream err)
      throws IOException {
    if (spec.keys() != DistributedMaster.KeyPassing.SHARED_HOME) {
      throw new IOException(
          "--secrets-in-clear is not supported through the PMIx tool interface: the agents read"
              + " the session's keys from the shared sdm home");
    }
    PmixLaunchedSession s = new PmixLaunchedSession(spec, err);
    s.open("end-pmix-job", "starting the job through PMIx");
    return s;
  }

  @Override
  void start() throws IOException, InterruptedException {
    Path tool = PmixTool.helperFor(spec.launcher().command());
    List<String> launch = new ArrayList<>();
    launch.add(spec.launcher().command());
    launch.addAll(spec.launcherOptions());
    launch.addAll(List.of("-n", Integer.toString(spec.size()), spec.program()));
    launch.addAll(spec.args());
    runDirectory = PmixTool.runDirectory();
    helper =
        startProcess(
            PmixTool.launch(tool, false, launch),
            PmixTool.runEnvironment(runDirectory),
            true,
            "pmix",
            Ending.END,
            10,
            this::onEvent,
            this::onLauncherLine);
    commands = helper.getOutputStream();
    List<PmixEvent.Proc> table = await(procTable, "the job's proc table from the launcher");
    String address = spec.address();
    if (address == null) {
      address = LocalAddress.reachingAny(table.stream().map(PmixEvent.Proc::host).toList());
    }
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
                spec.keys()));
    checkAlive();
    tell(
        PmixTool.daemons(
            tool,
            master.agentCommand(
                List.of(
                    "--held",
                    "--program",
                    spec.program(),
                    "--ranks-per-gdb",
                    Integer.toString(spec.ranksPerGdb())))));
    missing = awaitTree();
    tell(PmixTool.RELEASE);
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
        onLauncherLine("agent: " + l);
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
    err.println("[" + spec.launcher().command() + "] " + said);
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
          spec.launcher().command()
              + " (through sdm's PMIx tool helper) ended before the session was ready"
              + quoted);
    }
  }

  /** The ranks that were not attached within the wire-up time. */
  public RankSet missing() {
    return missing;
  }

  @Override
  void afterProcessesEnd() {
    PmixTool.deleteRunDirectory(runDirectory);
  }

  @Override
  void beforeMasterEnds(MasterClient master) {
    drainIfEnded(helper, DRAIN_LIMIT);
    ending = true;
    flushOutput();
    output.close();
    if (master.treeReady().isDone()) {
      try {
        master.delivered().get(DRAIN_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException | TimeoutException e) {
        // Not delivered in time: the session ends without those lines.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public Started started() {
    return Started.PMIX;
  }
}
