package io.sdmfabric.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.server.internal.FabricSerializer;
import io.sdmfabric.wire.CanonicalBytes;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.MessageSeal;
import io.sdmfabric.wire.SessionSecret;
import io.sdmfabric.wire.proto.CommandBody;
import java.io.NotSerializableException;
import java.util.List;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class FabricSerializerTest {
  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final FabricSerializer serializer =
      new FabricSerializer((ExtendedActorSystem) Adapter.toClassic(testKit.system()));

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private static Object roundTrip(Object message) throws NotSerializableException {
    return serializer.fromBinary(serializer.toBinary(message), serializer.manifest(message));
  }

  @Test
  void everyTreeMessageSurvivesTheRoundTrip() throws Exception {
    TestProbe<ServerNode.Command> node = testKit.createTestProbe();
    TestProbe<ServerNode.Up> parent = testKit.createTestProbe();
    CommandBody body = Commands.evaluate("x");
    List<ReplyGroup> groups =
        List.of(new ReplyGroup(RankSet.parse("0-9,12"), CanonicalBytes.of(EventBodies.text("a"))));
    for (Object m :
        List.of(
            new ServerNode.Execute(17, RankSet.parse("1,5-900"), 250, body),
            new ServerNode.Replies(parent.ref(), 17, groups),
            new ServerNode.Events(parent.ref(), groups, 42),
            new ServerNode.RanksLost(
                parent.ref(), RankSet.range(3, 7), "the server of their node at n1 stopped"),
            new ServerNode.Attach(
                node.ref(),
                3,
                RankSet.parse("7,64-127"),
                parent.ref(),
                List.of(new ChildLink(node.ref(), 5, 8, RankSet.parse("0-6,200")))),
            new ServerNode.Rewire(
                node.ref(),
                parent.ref(),
                List.of(
                    new ChildLink(node.ref(), 5, 6, RankSet.of(4)),
                    new ChildLink(node.ref(), 6, 8, RankSet.range(5, 7))),
                RankSet.of(3, 5)))) {
      assertEquals(m, roundTrip(m));
    }
  }

  @Test
  void malformedBytesAreRefusedWithAClearException() {
    NotSerializableException e =
        assertThrows(
            NotSerializableException.class,
            () -> serializer.fromBinary(new byte[] {(byte) 0xff, 0x01, 0x02}, "R"));
    assertEquals(true, e.getMessage().startsWith("malformed tree message R"));
    assertThrows(NotSerializableException.class, () -> serializer.fromBinary(new byte[0], "?"));
  }

  @Test
  void withASealKeyMessagesTravelSealedAndOnlyTheSessionsOwnOpenOnce() throws Exception {
    String key = MessageSeal.sessionKey(SessionSecret.random());
    ActorTestKit sealedKit =
        ActorTestKit.create(
            ConfigFactory.parseString(SealingSerializer.KEY_SETTING + " = \"" + key + "\"")
                .withFallback(ConfigFactory.load()));
    try {
      FabricSerializer sealed =
          new FabricSerializer((ExtendedActorSystem) Adapter.toClassic(sealedKit.system()));
      FabricSerializer receiver =
          new FabricSerializer((ExtendedActorSystem) Adapter.toClassic(sealedKit.system()));
      ServerNode.Execute x =
          new ServerNode.Execute(9, RankSet.of(3), 0, Commands.cli("shell touch /tmp/owned"));
      byte[] bytes = sealed.toBinary(x);

      assertEquals(x, receiver.fromBinary(bytes, "X"));
      NotSerializableException replayed =
          assertThrows(NotSerializableException.class, () -> receiver.fromBinary(bytes, "X"));
      assertTrue(replayed.getMessage().contains("replayed"), replayed.getMessage());
      // An outsider's message, serialized without the key, is refused before it is decoded.
      assertThrows(
          NotSerializableException.class, () -> receiver.fromBinary(serializer.toBinary(x), "X"));
    } finally {
      sealedKit.shutdownTestKit();
    }
  }
}
