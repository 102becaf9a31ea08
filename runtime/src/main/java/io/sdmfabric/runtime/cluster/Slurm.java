package io.sdmfabric.runtime.cluster;

import io.sdmfabric.model.ClusterMachine;
import io.sdmfabric.model.ClusterNode;
import io.sdmfabric.model.ClusterQueue;
import io.sdmfabric.model.JobStep;
import io.sdmfabric.model.QueuedJob;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The resource manager's view of a Slurm cluster, read from Slurm's own commands each time it is
 * asked ({@link SlurmJobs}, {@link SlurmMachine}), each command within the bound of {@code
 * command}.
 */
public final class Slurm {
  private final SlurmCommand command;

  public Slurm(SlurmCommand command) {
    this.command = Objects.requireNonNull(command, "command");
  }

  /**
   * The jobs of {@code user} that slurmctld holds (waiting, running, and ended a short while ago),
   * each with its running steps.
   *
   * @throws SlurmCommand.NotInstalled when Slurm is not on this host
   * @throws IOException with one line, when a command fails or answers what it should not
   */
  public List<QueuedJob> jobs(String user) throws IOException {
    Instant now = Instant.now();
    List<QueuedJob> jobs =
        parsed("squeue", () -> SlurmJobs.parseQueue(command.run(List.of("squeue", "--json")), now))
            .stream()
            .filter(j -> j.user().equals(user))
            .toList();
    if (jobs.stream().noneMatch(j -> j.phase() != QueuedJob.Phase.PENDING)) {
      return jobs;
    }
    Map<String, List<JobStep>> steps =
        parsed(
            "scontrol",
            () -> SlurmJobs.parseSteps(command.run(List.of("scontrol", "show", "step", "-o"))));
    return jobs.stream().map(j -> j.withSteps(steps.getOrDefault(j.id(), List.of()))).toList();
  }

  /**
   * The partitions and nodes.
   *
   * @throws SlurmCommand.NotInstalled when Slurm is not on this host
   * @throws IOException with one line, when a command fails or answers what it should not
   */
  public ClusterMachine machine() throws IOException {
    List<ClusterNode> nodes =
        parsed("sinfo", () -> SlurmMachine.parseNodes(command.run(List.of("sinfo", "--json"))));
    List<ClusterQueue> queues =
        parsed(
            "scontrol",
            () ->
                SlurmMachine.parsePartitions(
                    command.run(List.of("scontrol", "show", "partition", "-o"))));
    return new ClusterMachine(queues, nodes);
  }

  /** A step of reading that may find Slurm's answer malformed. */
  private interface Reading<T> {
    T read() throws IOException;
  }

  private static <T> T parsed(String name, Reading<T> reading) throws IOException {
    try {
      return reading.read();
    } catch (IllegalArgumentException e) {
      throw new IOException(
          name + " failed: its answer is not as Slurm 22.05 writes it: " + e.getMessage(), e);
    }
  }
}
