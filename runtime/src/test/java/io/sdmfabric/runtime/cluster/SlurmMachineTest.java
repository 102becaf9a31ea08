package io.sdmfabric.runtime.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sdmfabric.model.ClusterMachine;
import io.sdmfabric.model.ClusterNode;
import io.sdmfabric.model.ClusterNodeState;
import io.sdmfabric.model.ClusterQueue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * sinfo --json and scontrol show partition -o of Slurm 22.05.8, recorded while an exclusive job had
 * node1 and node2.
 */
class SlurmMachineTest {
  @Test
  void readsEachNodeWithItsStateInSlurmsWordsAndNormalizedAndItsCpus() {
    List<ClusterNode> nodes = SlurmMachine.parseNodes(Recorded.text("sinfo-22.05.json"));
    assertEquals(
        List.of("node1", "node2", "node3", "node4"),
        nodes.stream().map(ClusterNode::name).toList());
    assertEquals(
        new ClusterNode(
            "node1", "ALLOCATED", ClusterNodeState.ALLOCATED, "", List.of("nodes"), 16, 16),
        nodes.get(0));
    assertEquals(
        new ClusterNode("node4", "IDLE", ClusterNodeState.IDLE, "", List.of("nodes"), 16, 0),
        nodes.get(3));
  }

  @Test
  void readsThePartitionWithItsStateDefaultAndNodes() {
    assertEquals(
        List.of(new ClusterQueue("nodes", "UP", true, List.of("node1", "node2", "node3", "node4"))),
        SlurmMachine.parsePartitions(Recorded.text("scontrol-show-partition-22.05.txt")));
    assertEquals(
        List.of(new ClusterQueue("empty", "DOWN", false, List.of())),
        SlurmMachine.parsePartitions(
            "PartitionName=empty AllowGroups=ALL Default=NO Nodes=(null) State=DOWN\n"));
  }

  @Test
  void groupsThePartitionsNodesByState() {
    ClusterMachine m =
        new ClusterMachine(
            SlurmMachine.parsePartitions(Recorded.text("scontrol-show-partition-22.05.txt")),
            SlurmMachine.parseNodes(Recorded.text("sinfo-22.05.json")));
    assertEquals(
        Map.of(
            ClusterNodeState.IDLE, List.of("node3", "node4"),
            ClusterNodeState.ALLOCATED, List.of("node1", "node2")),
        m.nodesByState(m.queues().get(0)));
  }

  @Test
  void aDrainedNodeKeepsSlurmsFlagsAndItsReason() {
    String json =
        "{\"errors\":[],\"nodes\":[{\"name\":\"n1\",\"state\":\"idle\",\"state_flags\":[\"DRAIN\"],"
            + "\"reason\":\"bad disk\",\"partitions\":[\"p\"],\"cpus\":4,\"alloc_cpus\":0}]}";
    assertEquals(
        new ClusterNode(
            "n1", "IDLE+DRAIN", ClusterNodeState.DRAINED, "bad disk", List.of("p"), 4, 0),
        SlurmMachine.parseNodes(json).get(0));
  }

  @Test
  void outputThatIsNotSinfosOrScontrolsIsRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> SlurmMachine.parseNodes("{\"errors\":[],\"nodes\":[{\"name\":\"n1\"}]}"));
    assertThrows(
        IllegalArgumentException.class, () -> SlurmMachine.parsePartitions("Nodes=node[1-2\n"));
  }
}
