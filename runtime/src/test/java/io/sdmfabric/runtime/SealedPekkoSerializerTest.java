package io.sdmfabric.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.sdmfabric.server.SealingSerializer;
import io.sdmfabric.wire.MessageSeal;
import io.sdmfabric.wire.SessionSecret;
import java.io.NotSerializableException;
import java.util.List;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Address;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Pekko's own messages over aeron-udp (issue 25, items 4 and 8): sealed with the session's key, so
 * that an outsider's PoisonPill, Kill, Identify or cluster Down is refused before it is decoded.
 * Three local actor systems stand for two JVMs of a session and an outsider.
 */
class SealedPekkoSerializerTest {
  private final List<ActorSystem> systems = new java.util.ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (ActorSystem system : systems) {
      system.terminate();
      system
          .getWhenTerminated()
          .toCompletableFuture()
          .get(30, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  private Serialization system(String sealKey) {
    Config base =
        ConfigFactory.parseString(
                "pekko.actor.provider = local\n"
                    + SealingSerializer.KEY_SETTING
                    + " = \""
                    + sealKey
                    + "\"")
            .withFallback(ConfigFactory.load());
    Config config =
        sealKey.isEmpty()
            ? base
            : SealedPekkoSerializer.everyPekkoSerializer(base).withFallback(base);
    ActorSystem system = ActorSystem.create("sdm", config);
    systems.add(system);
    return SerializationExtension.get(system);
  }

  private static List<Object> pekkosMessages() throws ReflectiveOperationException {
    Address member = new Address("pekko", "sdm", "127.0.0.1", 2552);
    return List.of(
        org.apache.pekko.actor.PoisonPill.getInstance(),
        org.apache.pekko.actor.Kill.getInstance(),
        new org.apache.pekko.actor.Identify("who"),
        Class.forName("org.apache.pekko.cluster.ClusterUserAction$Down")
            .getConstructor(Address.class)
            .newInstance(member),
        Class.forName("org.apache.pekko.cluster.ClusterUserAction$Leave")
            .getConstructor(Address.class)
            .newInstance(member));
  }

  @Test
  void pekkosMessagesOpenInAnotherJvmOfTheSessionAndAnOutsidersAreRefused() throws Exception {
    String key = MessageSeal.sessionKey(SessionSecret.random());
    Serialization sender = system(key);
    Serialization receiver = system(key);
    Serialization outsider = system(MessageSeal.sessionKey(SessionSecret.random()));
    Serialization unsealed = system("");
    for (Object message : pekkosMessages()) {
      var serializer = sender.findSerializerFor(message);
      assertInstanceOf(SealedPekkoSerializer.class, serializer, message.toString());
      int id = serializer.identifier();
      // Under the identifier of the serializer it wraps, so that an outsider's reaches it.
      assertEquals(unsealed.findSerializerFor(message).identifier(), id);
      String manifest = Serializers.manifestFor(serializer, message);
      byte[] bytes = sender.serialize(message).get();
      assertEquals(message, receiver.deserialize(bytes, id, manifest).get());

      for (Serialization stranger : List.of(outsider, unsealed)) {
        byte[] forged = stranger.serialize(message).get();
        var refused = receiver.deserialize(forged, id, manifest);
        assertTrue(refused.isFailure(), message + " from a stranger was taken");
        assertInstanceOf(NotSerializableException.class, refused.failed().get());
      }
    }
  }
}
