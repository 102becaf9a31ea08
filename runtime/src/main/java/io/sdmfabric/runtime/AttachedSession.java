package io.sdmfabric.runtime;

import io.sdmfabric.gdbmi.FrozenProcesses;
import io.sdmfabric.model.Failures;
import io.sdmfabric.model.HostList;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.Shell;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.runtime.agent.EarlyAttachments;
import io.sdmfabric.runtime.attach.AttachPlan;
import io.sdmfabric.runtime.attach.AttachTargets;
import io.sdmfabric.runtime.attach.ProcessProbe;
import io.sdmfabric.runtime.attach.SlurmStep;
import io.sdmfabric.runtime.launch.JobLauncher;
import io.sdmfabric.server.FabricConfig;
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
import java.util.function.Consumer;

/**
 * A session attached to the running processes of an MPI job that sdm did not start ({@code sdm
 * attach}): the master runs in this JVM, and one agent per host attaches a gdb to each of its
 * processes and serves them: this JVM itself for the processes of this host, an agent JVM for each
 * other host. The ranks and the job's size come from the processes' environments, read before
 * anything starts ({@link ProcessProbe}), or from Slurm for a job step.
 *
 * <p>Agents for other hosts run through the remote shell ({@code ssh} by default), each reading the
 * session's secrets from the shared sdm home ({@link SessionKeys}; in clear on their standard input
 * only with {@code --secrets-in-clear}); for a Slurm job step as an overlapping step of its job on
 * its nodes, each finding its node's processes of the step with {@code scontrol listpids}.
 *
 * <p>Closing it detaches every rank (so do the agents' gdbs when they end, whatever ends them),
 * then ends the master and the agents: the programs run on. Only {@code kill} ends them.
 */
public final class AttachedSession extends DistributedSession {
  /**
   * What to attach to and how.
   *
   * @param targets processes by host, or empty for a Slurm job step
   * @param slurm the Slurm job step, or empty for processes by host
   * @param rsh the remote shell's command words, e.g. {@code [ssh]}
   * @param address the master's address, which every node must reach; null: the address this host
   *     reaches the job's hosts from ({@link LocalAddress})
   * @param ranksPerGdb how many ranks one gdb of an agent debugs (1: a gdb per rank)
   * @param keys how the agents get the session's secrets
   */
  public record Spec(
      Optional<AttachTargets> targets,
      Optional<SlurmStep> slurm,
      List<String> rsh,
      ClusterSettings.Transport transport,
      String address,
      Duration wireUp,
      FabricConfig config,
      int ranksPerGdb,
      DistributedMaster.KeyPassing keys) {
    public Spec {
      Objects.requireNonNull(keys, "keys");
      Objects.requireNonNull(targets, "targets");
      if (ranksPerGdb < 1) {
        throw new IllegalArgumentException("a gdb debugs at least one rank: " + ranksPerGdb);
      }
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
  private final RankSet attached;
  private final Optional<AttachPlan> plan;
  private final Optional<SlurmStep.Description> step;
  private final FrozenProcesses frozen;

  private AttachedSession(
      Spec spec,
      PrintStream err,
      int size,
      RankSet attached,
      Optional<AttachPlan> plan,
      Optional<SlurmStep.Description> step,
      FrozenProcesses frozen) {
    super(size, spec.wireUp(), err);
    this.spec = spec;
    this.attached = attached;
    this.plan = plan;
    this.step = step;
    this.frozen = frozen;
  }

  /**
   * Finds the processes, starts the master and the agents, and waits until the tree is wired.
   *
   * @throws IOException when a process is not there or not a rank of the job, the job step does not
   *     exist, or an agent cannot be started or ends before the tree is ready; nothing is left
   *     attached or running then
   */
  public static AttachedSession start(Spec spec, PrintStream err) throws IOException {
    AttachedSession s;
    if (spec.targets().isPresent()) {
      AttachPlan plan = plan(spec.targets().get(), spec.rsh());
      // This host's processes stand still from now until their gdbs attach (FrozenProcesses).
      FrozenProcesses frozen = FrozenProcesses.freeze(localPids(plan));
      try {
        s =
            new AttachedSession(
                spec, err, plan.size(), plan.ranks(), Optional.of(plan), Optional.empty(), frozen);
      } catch (RuntimeException e) {
        frozen.close();
        throw e;
      }
    } else {
      SlurmStep.Description step = spec.slurm().get().describe();
      s =
          new AttachedSession(
              spec,
              err,
              step.tasks(),
              RankSet.all(step.tasks()),
              Optional.empty(),
              Optional.of(step),
              FrozenProcesses.none());
    }
    // Ctrl-C or a SIGTERM to sdm still detaches every rank and ends the agents.
    s.open("detach-attached-job", "attaching");
    return s;
  }

  /** The pids of this host's processes in {@code plan}. */
  private static List<Long> localPids(AttachPlan plan) {
    return plan.hosts().entrySet().stream()
        .filter(host -> AttachTargets.isLocal(host.getKey()))
        .flatMap(host -> host.getValue().stream())
        .map(AttachPlan.Rank::pid)
        .toList();
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
        throw Failures.cause(e) instanceof IOException io
            ? io
            : new IOException(Failures.message(e), Failures.cause(e));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while looking at the processes", e);
      }
    }
    return AttachPlan.of(found);
  }

  /** The address given, else the one this host reaches the job's hosts from. */
  private String masterAddress() {
    if (spec.address() != null) {
      return spec.address();
    }
    List<String> hosts =
        plan.map(p -> List.copyOf(p.hosts().keySet()))
            .orElseGet(() -> step.map(s -> HostList.expand(s.nodes())).orElse(List.of()));
    return LocalAddress.reachingAny(hosts);
  }

  @Override
  void start() throws IOException, InterruptedException {
    // This host's processes (under any of its names) are attached while the master starts.
    List<AttachPlan.Rank> local =
        plan.map(
                p ->
                    p.hosts().entrySet().stream()
                        .filter(h -> isLocal(h.getKey()))
                        .flatMap(h -> h.getValue().stream())
                        .toList())
            .orElse(List.of());
    EarlyAttachments here =
        local.isEmpty() ? null : EarlyAttachments.processes(local, spec.ranksPerGdb(), frozen);
    try {
      startMasterAndAgents(here);
      here = null;
    } finally {
      if (here != null) {
        here.close();
      }
    }
    awaitTree();
  }

  /** Starts the master, then every host's agent: {@code here} serves this host's processes. */
  private void startMasterAndAgents(EarlyAttachments here) throws IOException {
    DistributedMaster master =
        startMaster(
            new DistributedMaster.Spec(
                size(),
                attached,
                spec.transport(),
                masterAddress(),
                spec.wireUp(),
                spec.config(),
                true,
                spec.keys(),
                reach()));
    Map<String, String> secrets = master.agentSecrets();
    if (here != null) {
      serveHere(here);
    }
    if (plan.isPresent()) {
      for (Map.Entry<String, List<AttachPlan.Rank>> host : plan.get().hosts().entrySet()) {
        if (!isLocal(host.getKey())) {
          startAgent(host.getKey(), host.getValue(), secrets);
        }
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
              master.agentCommand(List.of("--slurm-step", s.id(), "--ranks-per-gdb", perGdb())));
      startAgent(command, secrets, false, "agent");
    }
  }

  /** Whether agents serve some of the ranks, or this JVM all of them. */
  private DistributedMaster.Reach reach() {
    return plan.isPresent()
            && plan.get().hosts().keySet().stream().allMatch(AttachedSession::isLocal)
        ? DistributedMaster.Reach.HOST
        : DistributedMaster.Reach.NETWORK;
  }

  private static boolean isLocal(String host) {
    return AttachTargets.isLocal(host);
  }

  private String perGdb() {
    return Integer.toString(spec.ranksPerGdb());
  }

  /** The agent JVM of another host's processes, through the remote shell. */
  private void startAgent(String host, List<AttachPlan.Rank> ranks, Map<String, String> secrets)
      throws IOException {
    StringBuilder list = new StringBuilder();
    for (AttachPlan.Rank r : ranks) {
      list.append(list.length() == 0 ? "" : ",").append(r.pid()).append('=').append(r.rank());
    }
    List<String> mode =
        new ArrayList<>(List.of("--attach", list.toString(), "--ranks-per-gdb", perGdb()));
    if (!secrets.isEmpty()) {
      mode.add("--secrets-stdin"); // sent in clear: a remote shell passes no environment on
    }
    List<String> command = new ArrayList<>(spec.rsh());
    command.add(host);
    command.add(Shell.join(distributedMaster().agentCommand(mode)));
    Process p = startAgent(command, Map.of(), true, "agent " + host);
    try (OutputStream in = p.getOutputStream()) {
      if (secrets.isEmpty()) {
        return; // it reads them from the shared home
      }
      StringBuilder lines = new StringBuilder();
      secrets.forEach((name, value) -> lines.append(name).append('=').append(value).append('\n'));
      in.write(lines.append('\n').toString().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      // The remote shell ended at once; what it said explains why.
    }
  }

  /** Starts an agent's process, showing what it says on standard error until closing. */
  private Process startAgent(
      List<String> command, Map<String, String> env, boolean input, String name)
      throws IOException {
    Consumer<String> show =
        line ->
            LibraryLog.agentLine(name, line)
                .filter(shown -> !closing())
                // An agent's line can quote others: a peer on the network, gdb, the program.
                .ifPresent(shown -> err.println("[" + name + "] " + TerminalText.escape(shown)));
    return startProcess(command, env, input, name, Ending.LEAVE_PROGRAMS, 15, show);
  }

  /** Fails when every agent has ended before the tree was ready. */
  @Override
  void checkAlive() throws IOException {
    if (!anyProcessAlive() && !servesHere()) {
      throw new IOException("every agent ended before the session was ready (see above)");
    }
  }

  /** The ranks attached to (or whose attach failed, answering why); the others are not. */
  public RankSet attached() {
    return attached;
  }

  /**
   * Detaches every rank still attached (at most 15 s) before the master ends; the agents' gdbs
   * detach too as they end, should a rank have been missed.
   */
  @Override
  void beforeMasterEnds(MasterClient master) {
    detach(master, attached);
  }

  /** Lets go any process of this host still stopped for its attach (its gdb never came). */
  @Override
  void afterProcessesEnd() {
    frozen.close();
  }

  @Override
  public Started started() {
    return Started.ATTACH;
  }
}
