package io.sdmfabric.runtime.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.runtime.DistributedMaster;
import io.sdmfabric.runtime.SessionKeystore;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.SessionSecret;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The session's secrets reach an agent in its environment or on its standard input, never argv. */
class AgentSecretsTest {

  @Test
  void anAgentsCommandLineHoldsNoSecretAndItsSecretsHoldTheSessions() throws Exception {
    DistributedMaster master =
        DistributedMaster.start(
            new DistributedMaster.Spec(
                4,
                RankSet.of(1, 2),
                ClusterSettings.Transport.TLS_TCP,
                "127.0.0.1",
                Duration.ofSeconds(5),
                FabricConfig.defaults(),
                true));
    try {
      Map<String, String> secrets = master.agentSecrets();
      assertEquals(List.of(SessionSecret.ENV, SessionKeystore.ENV), List.copyOf(secrets.keySet()));
      SessionSecret.fromHex(secrets.get(SessionSecret.ENV));
      List<String> command =
          master.agentCommand(List.of("--attach", "12=1,13=2", "--secrets-stdin"));
      String line = String.join(" ", command);
      for (String value : secrets.values()) {
        assertFalse(line.contains(value), "a secret on the command line: " + line);
      }
      assertTrue(line.contains(" " + AgentCommand.class.getName() + " --master 127.0.0.1:"), line);
      assertTrue(line.endsWith("--attach 12=1,13=2 --secrets-stdin"), line);
    } finally {
      master.close();
    }
  }

  @Test
  void secretsOnStandardInputEndAtAnEmptyLineAndNothingPastItIsRead() throws Exception {
    InputStream in =
        new ByteArrayInputStream(
            "SDM_SECRET=abc\nSDM_KEYSTORE=x=y\n\nlater\n".getBytes(StandardCharsets.UTF_8));
    assertEquals(Map.of("SDM_SECRET", "abc", "SDM_KEYSTORE", "x=y"), AgentSecrets.readSecrets(in));
    assertEquals("later\n", new String(in.readAllBytes(), StandardCharsets.UTF_8));
    assertEquals(
        Map.of("SDM_SECRET", "abc"),
        AgentSecrets.readSecrets(
            new ByteArrayInputStream("SDM_SECRET=abc".getBytes(StandardCharsets.UTF_8))),
        "the end of the input ends them too, a last line without its newline included");
    assertThrows(
        IOException.class,
        () ->
            AgentSecrets.readSecrets(
                new ByteArrayInputStream("no secret here\n".getBytes(StandardCharsets.UTF_8))));
  }

  @Test
  void attachTargetsGiveEachPidItsRank() throws Exception {
    assertEquals(
        List.of(new PidAttacher.Target(12, 1), new PidAttacher.Target(13, 0)),
        AgentCommand.targets("12=1,13=0"));
    assertThrows(IllegalArgumentException.class, () -> AgentCommand.targets("12=x"));
  }
}
