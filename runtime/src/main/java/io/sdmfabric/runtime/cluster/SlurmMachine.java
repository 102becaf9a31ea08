package io.sdmfabric.runtime.cluster;

import io.sdmfabric.model.ClusterNode;
import io.sdmfabric.model.ClusterNodeState;
import io.sdmfabric.model.ClusterQueue;
import io.sdmfabric.model.HostList;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Slurm's partitions and nodes, for a {@link io.sdmfabric.model.ClusterMachine}, read from Slurm
 * 22.05's own commands: the nodes from {@code sinfo --json} (openapi v0.0.38, which lists nodes and
 * no partitions), the partitions from {@code scontrol show partition -o} (no JSON in 22.05).
 */
final class SlurmMachine {
  private SlurmMachine() {}

  /**
   * The nodes of {@code sinfo --json}'s output, in its order.
   *
   * @throws IllegalArgumentException for output that is not sinfo's JSON, or that reports errors
   */
  static List<ClusterNode> parseNodes(String json) {
    SlurmFields top = SlurmFields.parse(json, "sinfo's answer");
    List<SlurmFields> errors = top.list("errors");
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(errors.get(0).string("error"));
    }
    List<ClusterNode> nodes = new ArrayList<>();
    for (SlurmFields n : top.list("nodes")) {
      String base = n.string("state");
      List<String> flags = n.strings("state_flags");
      List<String> words = new ArrayList<>(List.of(base.toUpperCase(Locale.ROOT)));
      words.addAll(flags);
      nodes.add(
          new ClusterNode(
              n.string("name"),
              String.join("+", words),
              ClusterNodeState.of(base, flags),
              n.string("reason"),
              n.strings("partitions"),
              (int) n.number("cpus", 0),
              (int) n.number("alloc_cpus", 0)));
    }
    return nodes;
  }

  /**
   * The partitions of {@code scontrol show partition -o}: one line each, {@code PartitionName},
   * {@code Default}, {@code State} and {@code Nodes} ({@code (null)} for none).
   */
  static List<ClusterQueue> parsePartitions(String text) {
    List<ClusterQueue> queues = new ArrayList<>();
    for (String line : text.lines().map(String::strip).toList()) {
      if (line.isEmpty() || line.startsWith("No partitions")) {
        continue;
      }
      Map<String, String> w = SlurmFields.words(line);
      String name = w.get("PartitionName");
      if (name == null) {
        throw new IllegalArgumentException("a partition without a PartitionName: " + line);
      }
      String nodes = w.getOrDefault("Nodes", "(null)");
      queues.add(
          new ClusterQueue(
              name,
              w.getOrDefault("State", ""),
              w.getOrDefault("Default", "NO").equals("YES"),
              nodes.equals("(null)") ? List.of() : HostList.expand(nodes)));
    }
    return queues;
  }
}
