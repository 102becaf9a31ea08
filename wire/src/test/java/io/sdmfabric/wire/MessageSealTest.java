package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class MessageSealTest {
  private static final byte[] PAYLOAD = "Execute gdb shell id".getBytes(StandardCharsets.UTF_8);
  private final SessionSecret secret = SessionSecret.random();
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);

  private MessageSeal seal(SessionSecret s) {
    return new MessageSeal(HexFormat.of().parseHex(MessageSeal.sessionKey(s)), clock::get);
  }

  @Test
  void aMessageSealedByOneJvmOfTheSessionOpensInAnother() throws Exception {
    byte[] sealed = seal(secret).seal(PAYLOAD, "X", 7301);

    assertArrayEquals(PAYLOAD, seal(secret).open(sealed, "X", 7301));
    assertFalse(
        new String(sealed, StandardCharsets.ISO_8859_1).contains("shell"),
        "the payload travels encrypted");
  }

  @Test
  void aMessageOfAnotherSessionOrAlteredOrUnderAnotherManifestIsRefused() {
    MessageSeal receiver = seal(secret);
    byte[] stranger = seal(SessionSecret.random()).seal(PAYLOAD, "X", 7301);
    assertThrows(MessageSeal.Refused.class, () -> receiver.open(stranger, "X", 7301));

    MessageSeal sender = seal(secret);
    for (int i = 0; i < sender.seal(PAYLOAD, "X", 7301).length; i++) {
      byte[] altered = sender.seal(PAYLOAD, "X", 7301);
      altered[i] ^= 1;
      assertThrows(MessageSeal.Refused.class, () -> receiver.open(altered, "X", 7301), "byte " + i);
    }
    byte[] sealed = sender.seal(PAYLOAD, "X", 7301);
    assertThrows(MessageSeal.Refused.class, () -> receiver.open(sealed, "W", 7301));
    assertThrows(MessageSeal.Refused.class, () -> receiver.open(sealed, "X", 7302));
    assertThrows(MessageSeal.Refused.class, () -> receiver.open(PAYLOAD, "X", 7301));
    assertThrows(MessageSeal.Refused.class, () -> receiver.open(new byte[0], "X", 7301));
  }

  @Test
  void aReplayIsRefusedAndMessagesThatOvertakeEachOtherAreNot() throws Exception {
    MessageSeal sender = seal(secret);
    MessageSeal receiver = seal(secret);
    List<byte[]> sent = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      sent.add(sender.seal(PAYLOAD, "X", 7301));
    }
    for (int i : new int[] {2, 0, 1, 9, 5, 3, 4, 8, 6, 7}) {
      receiver.open(sent.get(i), "X", 7301);
    }
    for (byte[] m : sent) {
      assertThrows(MessageSeal.Refused.class, () -> receiver.open(m, "X", 7301));
    }
  }

  @Test
  void aMessageOlderThanTheReplayWindowOfItsSenderIsRefused() throws Exception {
    MessageSeal sender = seal(secret);
    MessageSeal receiver = seal(secret);
    byte[] first = sender.seal(PAYLOAD, "X", 7301);
    byte[] later = null;
    for (int i = 0; i < MessageSeal.REPLAY_WINDOW + 1; i++) {
      later = sender.seal(PAYLOAD, "X", 7301);
    }
    receiver.open(later, "X", 7301);

    MessageSeal.Refused old =
        assertThrows(MessageSeal.Refused.class, () -> receiver.open(first, "X", 7301));
    assertTrue(old.getMessage().contains("before"), old.getMessage());
  }

  @Test
  void aMessageFromOutsideTheTimeWindowIsRefused() {
    MessageSeal receiver = seal(secret);
    byte[] sealed = seal(secret).seal(PAYLOAD, "X", 7301);
    clock.addAndGet(MessageSeal.WINDOW.toMillis() + 1);

    MessageSeal.Refused late =
        assertThrows(MessageSeal.Refused.class, () -> receiver.open(sealed, "X", 7301));
    assertTrue(late.getMessage().contains("ms away"), late.getMessage());
  }

  @Test
  void theSessionKeyIsNeitherTheSecretNorItsOtherDerivedValues() {
    String key = MessageSeal.sessionKey(secret);
    assertEquals(64, key.length());
    assertFalse(key.equals(secret.hex()));
    assertFalse(key.equals(secret.keystorePassword()));
    assertEquals(key, MessageSeal.sessionKey(SessionSecret.fromHex(secret.hex())));
  }
}
