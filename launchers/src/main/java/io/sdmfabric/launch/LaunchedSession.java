package io.sdmfabric.launch;

import io.sdmfabric.frontend.RankReply;
import io.sdmfabric.frontend.SessionClient;
import io.sdmfabric.master.Session;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.proto.CommandBody;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * A session whose ranks a real launcher starts (mpirun or srun): the master runs in this JVM, the
 * ranks start under the rank shim, and one agent JVM per node, started through the same launcher,
 * attaches a gdb to each of its node's ranks and serves them. The ranks' output comes through the
 * launcher, tagged with each line's rank, and is merged here. Closing it ends the master, then the
 * agents (and so every gdb and rank) and the launchers.
 */
final class LaunchedSession implements SessionClient {
  /** How many of the launcher's own lines a failure message quotes. */
  private static final int QUOTED_LINES = 5;

  /**
   * What to launch and how.
   *
   * @param launcherOptions options for the launcher, e.g. {@code --oversubscribe}
   * @param address the master's address, which every node must reach
   * @param wireUp how long to wait for every rank to be attached and registered
   */
  record Spec(
      JobLauncher launcher,
      List<String> launcherOptions,
      int size,
      String program,
      List<String> args,
      ClusterSettings.Transport transport,
      String address,
      Duration wireUp,
      FabricConfig config) {
    Spec {
      launcherOptions = List.copyOf(launcherOptions);
      args = List.copyOf(args);
    }
  }

  private final Spec spec;
  private final PrintStream err;
  private volatile DistributedMaster distributed;
  private volatile MasterClient master;
  private RankSet missing = RankSet.empty();
  private final Path spool;
  private final OutputMerger output;
  private final ArrayDeque<String> launcherLines = new ArrayDeque<>();
  private final CompletableFuture<JobLauncher.SlurmJob> slurmJob = new CompletableFuture<>();
  private volatile boolean closing;
  private Thread shutdownHook;
  private Process ranks;
  private Process agents;

  private LaunchedSession(Spec spec, PrintStream err) {
    this.spec = spec;
    this.err = err;
    byte[] id = new byte[6];
    new SecureRandom().nextBytes(id);
    this.spool =
        Path.of(
            System.getProperty("java.io.tmpdir"),
            "sdm-" + System.getProperty("user.name") + "-" + HexFormat.of().formatHex(id));
    this.output = new OutputMerger(spec.config().eventWindow(), this::publish);
  }

  /** The master, a cluster of one until the agents join. */
  private MasterClient startMaster() throws IOException {
    distributed =
        DistributedMaster.start(
            new DistributedMaster.Spec(
                spec.size(),
                RankSet.all(spec.size()),
                spec.transport(),
                spec.address(),
                spec.wireUp(),
                spec.config(),
                false));
    return distributed.client();
  }

  private void publish(RankReply event) {
    MasterClient m = master;
    if (m != null) {
      m.publish(event);
    }
  }

  /**
   * Starts the ranks and the agents and waits until the tree is wired.
   *
   * @throws IOException when a launcher cannot be started or ends before the tree is ready, or the
   *     tree is not ready in time; what was started is ended
   */
  static LaunchedSession start(Spec spec, PrintStream err) throws IOException {
    LaunchedSession s = new LaunchedSession(spec, err);
    // Ctrl-C or a SIGTERM to sdm still ends the job, promptly and without leftovers.
    Thread hook = new Thread(s::close, "end-launched-job");
    Runtime.getRuntime().addShutdownHook(hook);
    s.shutdownHook = hook;
    try {
      s.launch();
      return s;
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      s.close();
      throw new IOException("interrupted while starting the job", e);
    }
  }

  private void launch() throws IOException, InterruptedException {
    JobLauncher launcher = spec.launcher();
    List<String> ranksCommand =
        launcher.ranks(
            spec.launcherOptions(),
            spec.size(),
            RankShim.command(spool.toString(), spec.program(), spec.args()));
    ranks = start(ranksCommand, Map.of());
    pump(ranks.getInputStream(), this::onRanksLine, "ranks-out");
    pump(ranks.getErrorStream(), this::onRanksLine, "ranks-err");
    // The ranks stop themselves as they start, so the master starts meanwhile: it costs seconds.
    master = startMaster();

    Optional<JobLauncher.SlurmJob> job = Optional.empty();
    if (launcher == JobLauncher.SRUN) {
      job = Optional.of(await(slurmJob, "the Slurm job of the ranks"));
    }
    Map<String, String> env = distributed.agentSecrets();
    agents =
        start(
            launcher.agents(spec.launcherOptions(), job, List.copyOf(env.keySet()), agentCommand()),
            env);
    pump(agents.getInputStream(), this::onAgentLine, "agents-out");
    pump(agents.getErrorStream(), this::onAgentLine, "agents-err");

    missing = await(master.treeReady(), "the ranks to be attached");
    if (!missing.isEmpty()) {
      err.println(
          "sdm: ranks "
              + missing
              + " were not attached within "
              + spec.wireUp().toSeconds()
              + " s; the session goes on without them");
    }
  }

  /** The agent's java command line, for every node. */
  private List<String> agentCommand() {
    return distributed.agentCommand(
        List.of("--spool", spool.toString(), "--program", spec.program()));
  }

  private Process start(List<String> command, Map<String, String> env) throws IOException {
    return ChildProcesses.start(command, env, false);
  }

  /** Waits for {@code f} while both launchers run and the wire-up time lasts. */
  private <T> T await(CompletableFuture<T> f, String what)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + spec.wireUp().plusSeconds(15).toNanos();
    while (System.nanoTime() < deadline) {
      try {
        return f.get(100, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        ended(ranks, "the ranks");
        ended(agents, "the agents");
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IOException(e.getCause().getMessage(), e.getCause());
      }
    }
    throw new IOException(
        "gave up waiting for " + what + " after " + spec.wireUp().toSeconds() + " s");
  }

  /** Fails when {@code p} has ended before the session was ready. */
  private void ended(Process p, String what) throws IOException {
    if (p != null && !p.isAlive()) {
      String quoted;
      synchronized (launcherLines) {
        quoted = launcherLines.isEmpty() ? "" : ":\n  " + String.join("\n  ", launcherLines);
      }
      throw new IOException(
          spec.launcher().command()
              + " of "
              + what
              + " exited with status "
              + p.exitValue()
              + " before the session was ready"
              + quoted);
    }
  }

  private void onRanksLine(String line) {
    if (closing) {
      return; // The launcher's complaints about the ranks sdm is ending.
    }
    Optional<JobLauncher.Tagged> tagged = spec.launcher().untag(line);
    if (tagged.isEmpty()) {
      synchronized (launcherLines) {
        launcherLines.addLast(line);
        if (launcherLines.size() > QUOTED_LINES) {
          launcherLines.removeFirst();
        }
      }
      err.println("[" + spec.launcher().command() + "] " + line);
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
    output.add(t.rank(), t.text());
  }

  private void onAgentLine(String line) {
    if (!closing) {
      err.println("[agent] " + line);
    }
  }

  private static void pump(InputStream in, Consumer<String> lines, String name) {
    ChildProcesses.pump(in, lines, name);
  }

  @Override
  public int size() {
    return spec.size();
  }

  /** The master's actor system, whose guardian is the session: what a gateway serves. */
  ActorSystem<Session.Command> masterSystem() {
    return master.system();
  }

  /** The ranks that were not attached within the wire-up time. */
  RankSet missing() {
    return missing;
  }

  @Override
  public CompletableFuture<List<RankReply>> call(
      CommandBody command, RankSet dest, Duration timeout) {
    return master.call(command, dest, timeout);
  }

  @Override
  public void onEvent(Consumer<RankReply> listener) {
    master.onEvent(listener);
  }

  /**
   * Ends the master first, so that the agents' going is no news to anyone, then the agents (each
   * kills its gdbs and their ranks) and the ranks' launcher together, then whatever is left.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (closing) {
        return;
      }
      closing = true;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // Closing from the hook itself: the JVM is going down.
    }
    // From here on agents and links go away on purpose: that is no news to warn about.
    Quiet.loggers();
    output.close();
    MasterClient m = master;
    if (m != null) {
      m.onEvent(e -> {});
      distributed.close();
    }
    // Both launchers at once: the agents end their gdbs and ranks, the ranks' launcher its ranks.
    Thread ranksEnd = new Thread(() -> end(ranks, 10), "end-ranks");
    ranksEnd.start();
    end(agents, 15);
    try {
      ranksEnd.join(TimeUnit.SECONDS.toMillis(20));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    new RankSpool(spool).delete();
  }

  /** SIGTERM to {@code p}, SIGKILL to it and its descendants after {@code grace} seconds. */
  private static void end(Process p, int grace) {
    ChildProcesses.end(p, grace);
  }
}
