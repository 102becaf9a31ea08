package io.sdmfabric.multijvm;

import static io.sdmfabric.multijvm.LoopbackSession.LOAD;
import static io.sdmfabric.multijvm.LoopbackSession.WAIT;
import static io.sdmfabric.multijvm.LoopbackSession.evaluate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.master.SessionEvent;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.server.ReplyGroup;
import io.sdmfabric.server.ServerNode;
import io.sdmfabric.wire.CanonicalBytes;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.proto.EventBody;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Over aeron-udp, bytes that reach sdm's serializer without having been sealed by the session: an
 * outsider that holds the key of Pekko's own messages (standing in for a member's handshake copied
 * off the network) binds sdm's serializer identifier to a serializer of its own, and sends forged
 * bytes, or the copy of a sealed event. Neither acts, and neither floods an agent's log.
 */
@Tag("jvms")
class ForgedBytesOverAeronTest {
  private static final ClusterSettings.Transport AERON = ClusterSettings.Transport.AERON_UDP;

  @RegisterExtension final LoopbackSession session = new LoopbackSession();

  /**
   * The manifest an outsider's forged messages carry: a title, a screen clear, a forged line.
   * (ASCII: Artery sends other characters in two bytes each, which arrive as a NUL after each;
   * those are escaped as well.)
   */
  static final String HOSTILE_MANIFEST = "\u001b]0;owned\u0007\u001b[2J\rsdm: session 1 ended\n";

  /**
   * What an outsider binds to sdm's fabric messages in place of sdm's serializer: under its
   * identifier, with {@link #HOSTILE_MANIFEST}, bytes that name a sender as a sealed message does
   * and that open under no key.
   */
  public static final class ForgedManifestSerializer
      extends org.apache.pekko.serialization.SerializerWithStringManifest {
    private final byte[] sender = new byte[16];

    public ForgedManifestSerializer() {
      new java.security.SecureRandom().nextBytes(sender);
    }

    @Override
    public int identifier() {
      return 7301; // FabricSerializer's
    }

    @Override
    public String manifest(Object o) {
      return HOSTILE_MANIFEST;
    }

    @Override
    public byte[] toBinary(Object o) {
      byte[] bytes = new byte[1 + 16 + 8 + 8 + 40];
      new java.security.SecureRandom().nextBytes(bytes);
      java.nio.ByteBuffer.wrap(bytes)
          .put((byte) 1)
          .put(sender)
          .putLong(0)
          .putLong(System.currentTimeMillis()); // in the window: it is the seal that refuses it
      return bytes;
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) {
      throw new UnsupportedOperationException("the outsider only sends");
    }
  }

  /**
   * An outsider over aeron-udp sends an agent 300 messages that do not open, each with a manifest
   * full of escape sequences. The agent's log (what sdm prints of an agent's lines) gets one line
   * for that sender, the manifest escaped, and then one count per interval: no stack trace, no
   * control character, every message told or counted. Before, each was an ERROR with a stack trace
   * (some 30 lines) and the manifest raw.
   */
  @Test
  void forgedMessagesOverAeronAreToldOneLinePerSenderAndIntervalEscapedWithoutAStackTrace()
      throws Exception {
    int size = 2;
    int forged = 300;
    int port = session.startMaster(size, WAIT, AERON);
    Path log = session.logs().resolve("agent-0-1-forged.log");
    session.agent(
        port, "0-1", size, session.secret(), AERON, "", ProcessBuilder.Redirect.to(log.toFile()));
    session.events().expectMessageClass(SessionEvent.TreeReady.class, WAIT);
    String agent = session.agentAddress();
    long linesBefore = Files.readAllLines(log).size();

    try (Outsider outsider =
        Outsider.with(
            com.typesafe.config.ConfigFactory.parseString(
                    "pekko.actor.serializers.sdm-fabric = \""
                        + ForgedManifestSerializer.class.getName()
                        + "\"")
                // Pekko's own messages sealed with the session's key, so that the forged ones get
                // past Artery's handshake to sdm's serializer (a stranger's stop at the handshake).
                .withFallback(ClusterSettings.at("127.0.0.1", 0, AERON, session.secret())))) {
      ActorRef<ServerNode.Command> node =
          ActorRefResolver.get(outsider.system()).resolveActorRef(agent + "/user/node");
      for (int i = 0; i < forged; i++) {
        node.tell(
            new ServerNode.Execute((1L << 40) + i, RankSet.all(size), 0, Commands.terminate()));
      }
      String told = "sdm: refused a message from sender ";
      String counted = " more refused messages not shown (at most 1 line per source every 10 s)";
      // The first in full at once; the others counted once their interval is over (10 s).
      session
          .events()
          .awaitAssert(
              WAIT,
              () -> {
                List<String> lines = Files.readAllLines(log);
                long all =
                    lines.stream().filter(l -> l.contains(told)).count()
                        + lines.stream()
                            .filter(l -> l.contains(counted))
                            .mapToLong(
                                l ->
                                    Long.parseLong(
                                        l.replaceAll("^.*: (\\d+)" + " more refused.*$", "$1")))
                            .sum();
                assertEquals(forged, all, "told or counted: " + lines);
                return null;
              });
      String text = Files.readString(log);
      List<String> lines = Files.readAllLines(log);
      List<String> added = lines.subList((int) linesBefore, lines.size());
      String first = added.stream().filter(l -> l.contains(told)).findFirst().orElseThrow();
      assertTrue(
          first.endsWith(
              "(manifest \"\\x1b]0;owned\\x07\\x1b[2J\\x0dsdm: session 1 ended\\x0a\"):"
                  + " a message that does not open with the session's key (forged or altered)"),
          first);
      assertTrue(added.size() <= 4, "one line, a count or two: " + added);
      assertTrue(added.stream().noneMatch(l -> l.startsWith("\tat ")), text);
      assertTrue(
          text.chars()
              .noneMatch(c -> (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f)),
          "a control character in the agent's log: " + added);
    }
    // The session goes on.
    session.call(LOAD, RankSet.all(size));
    assertEquals(size, session.call(evaluate("rank"), RankSet.all(size)).size());
  }

  /**
   * Bytes made elsewhere, sent as they are: the outsider's stand-in for sdm's tree serializer (it
   * takes its identifier), so that what it sends arrives as a sealed tree message that it could not
   * have made itself.
   */
  public record CopiedBytes(byte[] bytes, String manifest) {}

  /** Writes {@link CopiedBytes} as they are, under the tree serializer's identifier. */
  public static final class CopiedBytesSerializer
      extends org.apache.pekko.serialization.SerializerWithStringManifest {
    @Override
    public int identifier() {
      return 7301;
    }

    @Override
    public String manifest(Object o) {
      return ((CopiedBytes) o).manifest();
    }

    @Override
    public byte[] toBinary(Object o) {
      return ((CopiedBytes) o).bytes();
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) {
      throw new UnsupportedOperationException("the outsider only sends");
    }
  }

  /**
   * Over aeron-udp, an eavesdropper's copy of a sealed event. The master's JVM seals an event for
   * its own root node (as the tree's JVMs seal what goes up), and an outsider that cannot seal
   * sdm's messages, a Pekko system whose tree serializer sends given bytes as they are (it holds
   * the key of Pekko's own messages only, standing in for a member's handshake copied off the
   * network), delivers those bytes: to the master's root (taken: the session hears the event), to
   * it again (the seal refuses a message its JVM took before), and to the agent's node, another JVM
   * whose seal has not seen it. The agent's node refuses it, for it names the master's root;
   * before, it merged the event and sent it up, and the session heard it a second time.
   */
  @Test
  void overAeronUdpASealedEventCopiedToAnotherJvmIsRefusedThere() throws Exception {
    int size = 2;
    int port = session.startMaster(size, WAIT, AERON);
    TestProbe<SessionEvent> events = session.events();
    session.agent(port, "0-1", size, session.secret(), AERON);
    events.expectMessageClass(SessionEvent.TreeReady.class, WAIT);
    // No program is loaded, so that no event of its own comes; every rank answers (an error).
    assertEquals(RankSet.all(size), answered(session.call(evaluate("x"), RankSet.all(size))));
    String masterAddress = session.masterAddress();
    String agent = session.agentAddress();

    // The sealed bytes, as the master's JVM would put them on the wire for its root.
    ActorRef<ServerNode.Up> root =
        Adapter.toTyped(
            Adapter.toClassic(session.master())
                .actorSelection("/user/tree")
                .resolveOne(Duration.ofSeconds(5))
                .toCompletableFuture()
                .get());
    EventBody copiedBody = EventBodies.text("copied by an eavesdropper");
    ServerNode.Events event =
        new ServerNode.Events(
            root, List.of(new ReplyGroup(RankSet.of(0), CanonicalBytes.of(copiedBody))), 0);
    var serializer =
        (org.apache.pekko.serialization.SerializerWithStringManifest)
            org.apache.pekko.serialization.SerializationExtension.get(
                    Adapter.toClassic(session.master()))
                .findSerializerFor(event);
    CopiedBytes copy = new CopiedBytes(serializer.toBinary(event), serializer.manifest(event));

    try (Outsider outsider =
        Outsider.with(
            com.typesafe.config.ConfigFactory.parseString(
                    "pekko.actor.serializers.sdm-fabric = \""
                        + CopiedBytesSerializer.class.getName()
                        + "\"\n"
                        + "pekko.actor.serialization-bindings.\""
                        + CopiedBytes.class.getName()
                        + "\" = sdm-fabric\n")
                // Pekko's own messages sealed with the session's key, standing in for a member's
                // handshake copied off the network, so that the copied bytes reach the tree.
                .withFallback(ClusterSettings.at("127.0.0.1", 0, AERON, session.secret())))) {
      ActorRefResolver resolver = ActorRefResolver.get(outsider.system());
      ActorRef<CopiedBytes> atRoot = resolver.resolveActorRef(masterAddress + "/user/tree");
      ActorRef<CopiedBytes> atAgent = resolver.resolveActorRef(agent + "/user/node");
      atRoot.tell(copy);
      SessionEvent.Unsolicited heard =
          events.expectMessageClass(SessionEvent.Unsolicited.class, WAIT);
      assertEquals(new SessionEvent.Unsolicited(RankSet.of(0), copiedBody), heard);
      // The same bytes to the same JVM again: its seal took them before. The first copy, the
      // outsider's handshake with the master included, was heard 374 ms after it was sent (load
      // 30, 2026-11-27); this one needs no handshake, and 1.5 s is 4x that (it was 3 s).
      atRoot.tell(copy);
      events.expectNoMessage(Duration.ofMillis(1500));
      // To another JVM of the session: its seal opens them, and its node refuses what names the
      // master's root. Taken, they would come as the first copy did (a handshake, with the agent
      // this time) and one hop more, the agent's to the master, which is up: 2 s is 5x the first
      // copy's 374 ms (it was 5 s).
      atAgent.tell(copy);
      events.expectNoMessage(Duration.ofSeconds(2));
    }
    // The session still works.
    assertEquals(RankSet.all(size), answered(session.call(evaluate("x"), RankSet.all(size))));
  }

  private static RankSet answered(Map<EventBody, RankSet> replies) {
    return replies.values().stream().reduce(RankSet.empty(), RankSet::union);
  }
}
