package io.sdmfabric.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import io.sdmfabric.server.SealingSerializer;
import io.sdmfabric.wire.MessageSeal;
import io.sdmfabric.wire.SessionSecret;
import org.junit.jupiter.api.Test;

class ClusterSettingsTest {
  private final SessionSecret secret = SessionSecret.random();

  @Test
  void plainTcpIsNoTransportNameAndSaysWhyAndWhatToSayInstead() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.Transport.named("tcp"));
    assertTrue(e.getMessage().contains("tls-tcp"), e.getMessage());
    assertTrue(e.getMessage().contains("insecure-tcp"), e.getMessage());
    assertEquals(
        ClusterSettings.Transport.INSECURE_TCP, ClusterSettings.Transport.named("insecure-tcp"));
    assertEquals("tcp", ClusterSettings.Transport.INSECURE_TCP.artery());
  }

  @Test
  void overAeronUdpTheSessionsMessagesAreSealedWithItsKeyAndOverPlainTcpTheyAreNot() {
    Config aeron = ClusterSettings.at("127.0.0.1", 0, ClusterSettings.Transport.AERON_UDP, secret);
    assertEquals("aeron-udp", aeron.getString("pekko.remote.artery.transport"));
    assertEquals(MessageSeal.sessionKey(secret), aeron.getString(SealingSerializer.KEY_SETTING));
    // Pekko's own messages are sealed too, cluster membership among them.
    assertEquals(
        SealedPekkoSerializer.class.getName(),
        aeron.getString("pekko.actor.serializers.pekko-cluster"));
    assertEquals(
        "org.apache.pekko.cluster.protobuf.ClusterMessageSerializer",
        aeron.getString(SealedPekkoSerializer.WRAPPED_SETTING + ".pekko-cluster"));
    // The media driver's directory: new, in the user's private directory.
    java.nio.file.Path dir =
        java.nio.file.Path.of(aeron.getString("pekko.remote.artery.advanced.aeron.aeron-dir"));
    assertEquals(ClusterSettings.aeronParent(), dir.getParent());
    assertTrue(java.nio.file.Files.isDirectory(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS));
    // Aeron's sinks give up on a message to a peer that is gone within seconds, system messages
    // too, or a shutdown waits for them.
    assertEquals(
        java.time.Duration.ofSeconds(10),
        aeron.getDuration("pekko.remote.artery.advanced.aeron.give-up-message-after"));
    assertEquals(
        java.time.Duration.ofSeconds(20),
        aeron.getDuration("pekko.remote.artery.advanced.give-up-system-message-after"));

    Config plain =
        ClusterSettings.at("127.0.0.1", 0, ClusterSettings.Transport.INSECURE_TCP, secret);
    assertEquals("tcp", plain.getString("pekko.remote.artery.transport"));
    assertEquals("", plain.getString(SealingSerializer.KEY_SETTING));
    assertEquals(
        "org.apache.pekko.cluster.protobuf.ClusterMessageSerializer",
        plain.getString("pekko.actor.serializers.pekko-cluster"));
    assertEquals(
        java.time.Duration.ofHours(6),
        plain.getDuration("pekko.remote.artery.advanced.give-up-system-message-after"));
  }

  @Test
  void gdbWithholdsExactlyTheVariablesThatCarryTheSessionsSecrets() {
    assertEquals(
        java.util.Set.of(SessionSecret.ENV, SessionKeystore.ENV),
        io.sdmfabric.gdbmi.GdbDriver.WITHHELD_ENVIRONMENT);
  }
}
