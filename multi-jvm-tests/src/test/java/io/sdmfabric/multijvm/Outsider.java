package io.sdmfabric.multijvm;

import com.typesafe.config.Config;
import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.runtime.SessionKeystore;
import io.sdmfabric.wire.SessionSecret;
import java.io.IOException;
import java.util.Optional;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * An outsider on the network: a Pekko system of its own on loopback (port 0), with sdm's classes,
 * that attacks a {@link LoopbackSession}. Closing it stops its actor system (see {@link
 * LoopbackSession#shutdown}) and closes the key material it made.
 */
final class Outsider implements AutoCloseable {
  private final ActorTestKit testKit;
  private final Optional<SessionKeystore> keystore;

  private Outsider(ActorSystem<Void> system, Optional<SessionKeystore> keystore) {
    this.testKit = ActorTestKit.create(system);
    this.keystore = keystore;
  }

  /**
   * An outsider over {@code transport} with another session's key material: its secret, its
   * keystore.
   */
  static Outsider withAnotherSessionsKeys(ClusterSettings.Transport transport) throws IOException {
    SessionSecret theirs = SessionSecret.random();
    SessionKeystore theirKeystore = SessionKeystore.generate(theirs);
    return new Outsider(
        ActorSystem.create(
            Behaviors.empty(),
            ClusterSettings.SYSTEM,
            transport == ClusterSettings.Transport.TLS_TCP
                ? ClusterSettings.at("127.0.0.1", 0, theirKeystore)
                : ClusterSettings.at("127.0.0.1", 0, transport, theirs)),
        Optional.of(theirKeystore));
  }

  /** An outsider with the settings given (which name the port it binds, 0). */
  static Outsider with(Config settings) {
    return new Outsider(
        ActorSystem.create(Behaviors.empty(), ClusterSettings.SYSTEM, settings), Optional.empty());
  }

  ActorSystem<Void> system() {
    return testKit.system();
  }

  /** Its test kit, for probes that stand for the outsider's own actors. */
  ActorTestKit testKit() {
    return testKit;
  }

  @Override
  public void close() {
    try {
      LoopbackSession.shutdown(testKit.system());
    } finally {
      keystore.ifPresent(SessionKeystore::close);
    }
  }
}
