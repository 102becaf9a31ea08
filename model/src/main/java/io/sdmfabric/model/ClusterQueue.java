package io.sdmfabric.model;

import java.util.List;
import java.util.Objects;

/**
 * A queue of the resource manager (a Slurm partition): where jobs wait for nodes and run on them.
 *
 * @param name its name
 * @param state its state in Slurm's words: {@code UP}, {@code DOWN}, {@code DRAIN}, {@code
 *     INACTIVE}
 * @param isDefault whether jobs that name no queue go to it
 * @param nodes the names of its nodes
 */
public record ClusterQueue(String name, String state, boolean isDefault, List<String> nodes) {
  public ClusterQueue {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
    nodes = List.copyOf(nodes);
  }
}
