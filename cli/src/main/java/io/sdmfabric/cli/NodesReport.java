package io.sdmfabric.cli;

import io.sdmfabric.model.ClusterMachine;
import io.sdmfabric.model.ClusterNode;
import io.sdmfabric.model.ClusterNodeState;
import io.sdmfabric.model.ClusterQueue;
import io.sdmfabric.model.HostList;
import io.sdmfabric.model.TerminalText;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * What {@code sdm nodes} shows: each partition (queue) with its nodes grouped by state, in Slurm's
 * compressed host lists, and the nodes that an administrator took out of use with the reason. Text
 * from Slurm is escaped ({@link TerminalText}).
 *
 * @param machine the partitions and nodes
 */
record NodesReport(ClusterMachine machine) {

  String text() {
    StringBuilder b = new StringBuilder();
    if (machine.queues().isEmpty()) {
      b.append("no partitions\n");
    }
    for (ClusterQueue q : machine.queues()) {
      b.append("partition ")
          .append(TerminalText.escape(q.name()))
          .append(q.isDefault() ? " (default)" : "")
          .append(": ")
          .append(TerminalText.escape(q.state()))
          .append(", ")
          .append(q.nodes().size())
          .append(q.nodes().size() == 1 ? " node" : " nodes")
          .append('\n');
      SortedMap<ClusterNodeState, List<String>> byState = machine.nodesByState(q);
      int width = byState.keySet().stream().mapToInt(s -> s.word().length()).max().orElse(0);
      byState.forEach(
          (state, names) ->
              b.append("  ")
                  .append(String.format("%-" + width + "s", state.word()))
                  .append(String.format(" %3d  ", names.size()))
                  .append(TerminalText.escape(HostList.compress(names)))
                  .append('\n'));
    }
    for (ClusterNode n : machine.nodes()) {
      if (!n.reason().isEmpty()) {
        b.append("node ")
            .append(TerminalText.escape(n.name()))
            .append(" is ")
            .append(n.state().word())
            .append(": ")
            .append(TerminalText.escape(n.reason()))
            .append('\n');
      }
    }
    return b.toString();
  }

  /**
   * The report as JSON: {@code {"partitions": [{"name", "state", "default", "nodes", "byState":
   * {STATE: HOSTLIST}}], "nodes": [{"name", "state", "slurmState", "reason", "partitions", "cpus",
   * "allocatedCpus"}]}}.
   */
  Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(
        "partitions",
        machine.queues().stream()
            .map(
                q -> {
                  Map<String, Object> byState = new LinkedHashMap<>();
                  machine
                      .nodesByState(q)
                      .forEach((s, names) -> byState.put(s.word(), HostList.compress(names)));
                  Map<String, Object> p = new LinkedHashMap<>();
                  p.put("name", q.name());
                  p.put("state", q.state());
                  p.put("default", q.isDefault());
                  p.put("nodes", HostList.compress(q.nodes()));
                  p.put("byState", byState);
                  return p;
                })
            .toList());
    m.put(
        "nodes",
        machine.nodes().stream()
            .map(
                n -> {
                  Map<String, Object> node = new LinkedHashMap<>();
                  node.put("name", n.name());
                  node.put("state", n.state().word());
                  node.put("slurmState", n.slurmState());
                  node.put("reason", n.reason());
                  node.put("partitions", n.partitions());
                  node.put("cpus", n.cpus());
                  node.put("allocatedCpus", n.allocatedCpus());
                  return node;
                })
            .toList());
    return m;
  }
}
