package io.sdmfabric.launch;

import io.sdmfabric.frontend.RankReply;
import io.sdmfabric.frontend.SessionClient;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.Empty;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A session attached to the running processes of an MPI job that sdm did not start ({@code sdm
 * attach}): the master runs in this JVM, and one agent JVM per host attaches a gdb to each of its
 * processes and serves them. The ranks and the job's size come from the processes' environments,
 * read before anything starts ({@link ProcessProbe}), or from Slurm for a job step.
 *
 * <p>Agents for processes of this host run as plain subprocesses; for other hosts through the
 * remote shell ({@code ssh} by default), with the session's secrets on their standard input (ssh
 * passes no environment on); for a Slurm job step as an overlapping step of its job on its nodes,
 * each finding its node's processes of the step with {@code scontrol listpids}.
 *
 * <p>Closing it detaches every rank (so do the agents' gdbs when they end, whatever ends them),
 * then ends the master and the agents: the programs run on. Only {@code kill} ends them.
 */
final class AttachedSession implements SessionClient {
  /** How long closing waits for the ranks to detach before it ends the agents anyway. */
  private static final Duration DETACH_LIMIT = Duration.ofSeconds(15);

  /**
   * What to attach to and how.
   *
   * @param targets processes by host, or empty for a Slurm job step
   * @param slurm the Slurm job step, or empty for processes by host
   * @param rsh the remote shell's command words, e.g. {@code [ssh]}
   */
  record Spec(
      Optional<AttachTargets> targets,
      Optional<SlurmStep> slurm,
      List<String> rsh,
      ClusterSettings.Transport transport,
      String address,
      Duration wireUp,
      FabricConfig config) {
    Spec {
      Objects.requireNonNull(targets, "targets");
      Objects.requireNonNull(slurm, "slurm");
      if (targets.isPresent() == slurm.isPresent()) {
        throw new IllegalArgumentException("give processes or a Slurm job step, not both");
      }
      rsh = List.copyOf(rsh);
      if (rsh.isEmpty()) {
        throw new IllegalArgumentException("--rsh needs a command, e.g. ssh");
      }
    }
  }

  private final Spec spec;
  private final PrintStream err;
  private final int size;
  private final RankSet attached;
  private final List<Process> agents = new ArrayList<>();
  private volatile DistributedMaster master;
  private volatile boolean closing;
  private Thread shutdownHook;

  private AttachedSession(Spec spec, PrintStream err, int size, RankSet attached) {
    this.spec = spec;
    this.err = err;
    this.size = size;
    this.attached = attached;
  }

  /**
   * Finds the processes, starts the master and the agents, and waits until the tree is wired.
   *
   * @throws IOException when a process is not there or not a rank of the job, the job step does not
   *     exist, or an agent cannot be started or ends before the tree is ready; nothing is left
   *     attached or running then
   */
  static AttachedSession start(Spec spec, PrintStream err) throws IOException {
    AttachedSession s;
    Optional<AttachPlan> plan = Optional.empty();
    Optional<SlurmStep.Description> step = Optional.empty();
    if (spec.targets().isPresent()) {
      plan = Optional.of(plan(spec.targets().get(), spec.rsh()));
      s = new AttachedSession(spec, err, plan.get().size(), plan.get().ranks());
    } else {
      step = Optional.of(spec.slurm().get().describe());
      s = new AttachedSession(spec, err, step.get().tasks(), RankSet.all(step.get().tasks()));
    }
    // Ctrl-C or a SIGTERM to sdm still detaches every rank and ends the agents.
    Thread hook = new Thread(s::close, "detach-attached-job");
    Runtime.getRuntime().addShutdownHook(hook);
    s.shutdownHook = hook;
    try {
      s.attach(plan, step);
      return s;
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      s.close();
      throw new IOException("interrupted while attaching", e);
    }
  }

  /** Finds every host's processes (other hosts' at once, through the remote shell). */
  private static AttachPlan plan(AttachTargets targets, List<String> rsh) throws IOException {
    List<CompletableFuture<List<ProcessProbe.Found>>> probes = new ArrayList<>();
    for (AttachTargets.Host host : targets.hosts()) {
      probes.add(
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return ProcessProbe.probe(host, rsh);
                } catch (IOException e) {
                  throw new java.util.concurrent.CompletionException(e);
                }
              }));
    }
    List<ProcessProbe.Found> found = new ArrayList<>();
    for (CompletableFuture<List<ProcessProbe.Found>> probe : probes) {
      try {
        found.addAll(probe.get());
      } catch (ExecutionException e) {
        throw e.getCause() instanceof IOException io
            ? io
            : new IOException(e.getCause().getMessage(), e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while looking at the processes", e);
      }
    }
    return AttachPlan.of(found);
  }

  private void attach(Optional<AttachPlan> plan, Optional<SlurmStep.Description> step)
      throws IOException, InterruptedException {
    master =
        DistributedMaster.start(
            new DistributedMaster.Spec(
                size,
                attached,
                spec.transport(),
                spec.address(),
                spec.wireUp(),
                spec.config(),
                true));
    Map<String, String> secrets = master.agentSecrets();
    if (plan.isPresent()) {
      for (Map.Entry<String, List<AttachPlan.Rank>> host : plan.get().hosts().entrySet()) {
        startAgent(host.getKey(), host.getValue(), secrets);
      }
    } else {
      SlurmStep s = spec.slurm().orElseThrow();
      List<String> command =
          JobLauncher.SRUN.agents(
              List.of(),
              Optional.of(
                  new JobLauncher.SlurmJob(
                      s.job(), step.orElseThrow().nodes(), step.orElseThrow().nodeCount())),
              List.copyOf(secrets.keySet()),
              master.agentCommand(List.of("--slurm-step", s.id())));
      watch(ChildProcesses.start(command, secrets, false), "agent");
    }
    RankSet missing = await(master.client().treeReady());
    if (!missing.isEmpty()) {
      err.println(
          "sdm: ranks "
              + missing
              + " were not attached within "
              + spec.wireUp().toSeconds()
              + " s; the session goes on without them");
    }
  }

  /** The agent of one host's processes: a subprocess here, through the remote shell elsewhere. */
  private void startAgent(String host, List<AttachPlan.Rank> ranks, Map<String, String> secrets)
      throws IOException {
    StringBuilder list = new StringBuilder();
    for (AttachPlan.Rank r : ranks) {
      list.append(list.length() == 0 ? "" : ",").append(r.pid()).append('=').append(r.rank());
    }
    if (AttachTargets.isLocal(host)) {
      watch(
          ChildProcesses.start(
              master.agentCommand(List.of("--attach", list.toString())), secrets, false),
          "agent");
      return;
    }
    List<String> command = new ArrayList<>(spec.rsh());
    command.add(host);
    command.add(
        Shell.join(master.agentCommand(List.of("--attach", list.toString(), "--secrets-stdin"))));
    Process p = ChildProcesses.start(command, Map.of(), true);
    try (OutputStream in = p.getOutputStream()) {
      StringBuilder lines = new StringBuilder();
      secrets.forEach((name, value) -> lines.append(name).append('=').append(value).append('\n'));
      in.write(lines.append('\n').toString().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      // The remote shell ended at once; what it said explains why.
    }
    watch(p, "agent " + host);
  }

  /** Keeps an agent's process, showing what it says on standard error. */
  private void watch(Process p, String name) {
    synchronized (agents) {
      agents.add(p);
    }
    Consumer<String> show =
        line -> {
          if (!closing) {
            err.println("[" + name + "] " + line);
          }
        };
    ChildProcesses.pump(p.getInputStream(), show, name + "-out");
    ChildProcesses.pump(p.getErrorStream(), show, name + "-err");
  }

  /** Waits for the tree while some agent runs and the wire-up time lasts. */
  private RankSet await(CompletableFuture<RankSet> ready) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + spec.wireUp().plusSeconds(15).toNanos();
    while (System.nanoTime() < deadline) {
      try {
        return ready.get(100, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        boolean running;
        synchronized (agents) {
          running = agents.stream().anyMatch(Process::isAlive);
        }
        if (!running) {
          throw new IOException("every agent ended before the session was ready (see above)");
        }
      } catch (ExecutionException e) {
        throw new IOException(e.getCause().getMessage(), e.getCause());
      }
    }
    throw new IOException(
        "gave up waiting for the ranks to be attached after " + spec.wireUp().toSeconds() + " s");
  }

  /** The ranks attached to (or whose attach failed, answering why); the others are not. */
  RankSet attached() {
    return attached;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public CompletableFuture<List<RankReply>> call(
      CommandBody command, RankSet dest, Duration timeout) {
    return master.client().call(command, dest, timeout);
  }

  @Override
  public void onEvent(Consumer<RankReply> listener) {
    master.client().onEvent(listener);
  }

  /**
   * Detaches every rank still attached (at most {@link #DETACH_LIMIT}), ends the master, then the
   * agents; their gdbs detach too as they end, should a rank have been missed.
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
    Quiet.loggers();
    DistributedMaster m = master;
    if (m != null) {
      m.client().onEvent(e -> {});
    }
    if (m != null && m.client().treeReady().isDone()) {
      CommandBody detach = CommandBody.newBuilder().setDetach(Empty.getDefaultInstance()).build();
      try {
        m.client()
            .call(detach, attached, Duration.ZERO)
            .get(DETACH_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException | TimeoutException e) {
        // The agents' gdbs detach as they end.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (m != null) {
      m.close();
    }
    List<Thread> enders = new ArrayList<>();
    synchronized (agents) {
      for (Process p : agents) {
        Thread t = new Thread(() -> ChildProcesses.endLeavingPrograms(p, 15), "end-agent");
        t.start();
        enders.add(t);
      }
    }
    for (Thread t : enders) {
      try {
        t.join(TimeUnit.SECONDS.toMillis(30));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
