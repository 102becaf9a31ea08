package io.sdmfabric.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The cluster as its resource manager describes it at one moment (PTP's machine): its queues and
 * its nodes.
 *
 * @param queues the queues, in the resource manager's order
 * @param nodes every node, in the resource manager's order
 */
public record ClusterMachine(List<ClusterQueue> queues, List<ClusterNode> nodes) {
  public ClusterMachine {
    queues = List.copyOf(queues);
    nodes = List.copyOf(nodes);
  }

  /**
   * The nodes of {@code queue} by their state, states in {@link ClusterNodeState}'s order, each
   * state's nodes in the queue's order. A node of the queue that this machine does not describe is
   * {@link ClusterNodeState#UNKNOWN}.
   */
  public SortedMap<ClusterNodeState, List<String>> nodesByState(ClusterQueue queue) {
    Objects.requireNonNull(queue, "queue");
    Map<String, ClusterNodeState> states = new HashMap<>();
    nodes.forEach(n -> states.put(n.name(), n.state()));
    SortedMap<ClusterNodeState, List<String>> byState = new TreeMap<>();
    for (String node : queue.nodes()) {
      ClusterNodeState s = states.getOrDefault(node, ClusterNodeState.UNKNOWN);
      byState.computeIfAbsent(s, k -> new ArrayList<>()).add(node);
    }
    byState.replaceAll((s, names) -> List.copyOf(names));
    return byState;
  }
}
