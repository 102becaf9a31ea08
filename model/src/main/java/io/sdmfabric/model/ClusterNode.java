package io.sdmfabric.model;

import java.util.List;
import java.util.Objects;

/**
 * A node of the cluster as its resource manager sees it (PTP's machine node), apart from the nodes
 * of a debug session ({@link ComputeNode}).
 *
 * @param name the node's name in the resource manager
 * @param slurmState the state in Slurm's own words, the base state and its flags: {@code IDLE},
 *     {@code MIXED+DRAIN}
 * @param state the state a user sorts by
 * @param reason why an administrator took it out of use (empty when none); the resource manager's
 *     text, to be escaped before it reaches a terminal
 * @param partitions the queues it serves
 * @param cpus its CPUs
 * @param allocatedCpus how many of them run jobs
 */
public record ClusterNode(
    String name,
    String slurmState,
    ClusterNodeState state,
    String reason,
    List<String> partitions,
    int cpus,
    int allocatedCpus) {
  public ClusterNode {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(slurmState, "slurmState");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(reason, "reason");
    partitions = List.copyOf(partitions);
    if (cpus < 0 || allocatedCpus < 0) {
      throw new IllegalArgumentException("negative CPUs: " + cpus + ", " + allocatedCpus);
    }
  }
}
