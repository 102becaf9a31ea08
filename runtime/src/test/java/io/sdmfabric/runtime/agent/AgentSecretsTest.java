package io.sdmfabric.runtime.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.runtime.DistributedMaster;
import io.sdmfabric.runtime.PrivateDirectory;
import io.sdmfabric.runtime.SessionKeystore;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.SessionSecret;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The session's secrets reach an agent from the session's key directory in the shared sdm home, or,
 * sent in clear, in its environment or on its standard input; never on its command line.
 */
class AgentSecretsTest {

  private static DistributedMaster master(DistributedMaster.KeyPassing keys) throws IOException {
    return DistributedMaster.start(
        new DistributedMaster.Spec(
            4,
            RankSet.of(1, 2),
            ClusterSettings.Transport.TLS_TCP,
            "127.0.0.1",
            Duration.ofSeconds(5),
            FabricConfig.defaults(),
            true,
            keys,
            DistributedMaster.Reach.NETWORK));
  }

  @Test
  void anAgentReadsTheSecretsFromTheKeyDirectoryItsCommandLineNames() throws Exception {
    DistributedMaster master = master(DistributedMaster.KeyPassing.SHARED_HOME);
    Path dir;
    try {
      assertEquals(Map.of(), master.agentSecrets(), "nothing for the launcher's environment");
      List<String> command = master.agentCommand(List.of("--attach", "12=1,13=2"));
      int at = command.indexOf("--keys");
      assertTrue(at > 0, String.join(" ", command));
      dir = Path.of(command.get(at + 1));
      assertEquals(PrivateDirectory.sdmHome().resolve("sessions"), dir.getParent());
      assertEquals(
          "rwx------",
          PosixFilePermissions.toString(
              Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS)));
      String secretHex = Files.readString(dir.resolve("secret")).strip();
      String line = String.join(" ", command);
      assertFalse(line.contains(secretHex), "the secret on the command line: " + line);
      AgentSecrets secrets = AgentSecrets.in(dir);
      assertEquals(secretHex, secrets.secret().hex());
      assertEquals(Optional.of(dir.resolve("session.p12")), secrets.keystoreFile());
      for (String file : List.of("secret", "session.p12")) {
        assertEquals(
            "rw-------",
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve(file), LinkOption.NOFOLLOW_LINKS)),
            file);
      }
    } finally {
      master.close();
    }
    assertFalse(Files.exists(dir), "the master deletes the key directory at its end");
    IOException gone = assertThrows(IOException.class, () -> AgentSecrets.in(dir));
    assertTrue(
        gone.getMessage().contains("must be on a file system every node of the job shares"),
        gone.getMessage());
  }

  @Test
  void aKeyDirectoryOpenToOthersOrASecretThatIsALinkIsRefused() throws Exception {
    DistributedMaster master = master(DistributedMaster.KeyPassing.SHARED_HOME);
    try {
      List<String> command = master.agentCommand(List.of());
      Path dir = Path.of(command.get(command.indexOf("--keys") + 1));
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-x---"));
      IOException open = assertThrows(IOException.class, () -> AgentSecrets.in(dir));
      assertTrue(open.getMessage().contains("has mode"), open.getMessage());
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
      Path elsewhere = Files.createTempFile("not-the-secret", "");
      try {
        Files.writeString(elsewhere, SessionSecret.random().hex());
        Files.delete(dir.resolve("secret"));
        Files.createSymbolicLink(dir.resolve("secret"), elsewhere);
        IOException link = assertThrows(IOException.class, () -> AgentSecrets.in(dir));
        assertTrue(link.getMessage().contains("not a regular file"), link.getMessage());
      } finally {
        Files.delete(elsewhere);
      }
    } finally {
      master.close();
    }
  }

  @Test
  void sentInClearTheSecretsAreForTheEnvironmentAndStillNotOnTheCommandLine() throws Exception {
    DistributedMaster master = master(DistributedMaster.KeyPassing.ENVIRONMENT_IN_CLEAR);
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
      assertFalse(command.contains("--keys"), line);
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
