package io.sdmfabric.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.FabricConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A master whose ranks are all this host's is a local actor system: no port of it for anyone to
 * knock on, and no session keys in sdm's home. A master that agents reach listens, which is what
 * shows that the sockets are seen where they are.
 */
class DistributedMasterTest {

  private static DistributedMaster start(DistributedMaster.Reach reach) throws IOException {
    return DistributedMaster.start(
        new DistributedMaster.Spec(
            4,
            RankSet.all(4),
            ClusterSettings.Transport.TLS_TCP,
            "127.0.0.1",
            Duration.ofSeconds(5),
            FabricConfig.defaults(),
            false,
            DistributedMaster.KeyPassing.ENVIRONMENT_IN_CLEAR,
            reach));
  }

  @Test
  void aMasterOfThisHostAloneListensNowhereAndWritesNoKeys() throws Exception {
    Set<String> listeningBefore = listeningSockets();
    Set<Path> keysBefore = sessionKeyDirectories();
    DistributedMaster master = start(DistributedMaster.Reach.HOST);
    try {
      assertEquals(
          "local", master.client().system().settings().config().getString("pekko.actor.provider"));
      assertEquals(Set.of(), newOnes(listeningSockets(), listeningBefore), "its listening sockets");
      assertEquals(keysBefore, sessionKeyDirectories(), "the key directories in sdm's home");
      assertEquals(Map.of(), master.agentSecrets(), "even with secrets in clear: no agent");
      IllegalStateException none =
          assertThrows(IllegalStateException.class, () -> master.agentCommand(List.of()));
      assertTrue(none.getMessage().contains("this host alone"), none.getMessage());
    } finally {
      master.close();
    }
  }

  @Test
  void aMasterThatAgentsReachListensAndKeepsItsKeysInSdmsHomeWhileItLives() throws Exception {
    Set<String> listeningBefore = listeningSockets();
    Set<Path> keysBefore = sessionKeyDirectories();
    DistributedMaster master = start(DistributedMaster.Reach.NETWORK);
    try {
      assertEquals(
          "cluster",
          master.client().system().settings().config().getString("pekko.actor.provider"));
      assertFalse(newOnes(listeningSockets(), listeningBefore).isEmpty(), "Artery's port");
      assertEquals(1, newOnes(sessionKeyDirectories(), keysBefore).size());
    } finally {
      master.close();
    }
  }

  private static <T> Set<T> newOnes(Set<T> now, Set<T> before) {
    Set<T> added = new HashSet<>(now);
    added.removeAll(before);
    return added;
  }

  /** The session key directories in sdm's home now. */
  private static Set<Path> sessionKeyDirectories() throws IOException {
    Path sessions = PrivateDirectory.sdmHome().resolve("sessions");
    if (!Files.isDirectory(sessions)) {
      return Set.of();
    }
    try (Stream<Path> list = Files.list(sessions)) {
      return new HashSet<>(list.toList());
    }
  }

  /**
   * This JVM's sockets that listen for TCP (state 0A) or are bound for UDP (state 07), by inode:
   * the kernel's tables of the network namespace, kept to the sockets among this process's
   * descriptors.
   */
  private static Set<String> listeningSockets() throws IOException {
    Set<String> ours = new HashSet<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : fds.toList()) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            ours.add(target.substring("socket:[".length(), target.length() - 1));
          }
        } catch (IOException e) {
          // Closed since it was listed.
        }
      }
    }
    Set<String> listening = new HashSet<>();
    for (String table : List.of("tcp", "tcp6", "udp", "udp6")) {
      Path file = Path.of("/proc/net", table);
      if (!Files.exists(file)) {
        continue;
      }
      List<String> lines = Files.readAllLines(file);
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.trim().split("\\s+");
        String state = f[3];
        String inode = f[9];
        boolean open = table.startsWith("tcp") ? state.equals("0A") : state.equals("07");
        if (open && ours.contains(inode)) {
          listening.add(table + ":" + inode);
        }
      }
    }
    return listening;
  }
}
