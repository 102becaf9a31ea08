package io.sdmfabric.wire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts and authenticates the session's messages where the transport cannot (Artery's aeron-udp
 * has no TLS): AES-256-GCM under a key derived from the session secret, and a refusal of every
 * message that was seen before or is too old. One seal serves one serializer of one JVM; it both
 * seals what the JVM sends and opens what it receives.
 *
 * <p>A sealed message is
 *
 * <pre>
 * version (1 byte, 1) | sender (16 random bytes, new per seal) | counter (8) | time (8, ms since the epoch)
 * | ciphertext and 16-byte tag
 * </pre>
 *
 * The sender's key is HMAC-SHA256 under {@link #sessionKey} of {@code "sender" || sender}, so two
 * senders never share a (key, nonce) pair; the nonce is four zero bytes and the counter. The
 * associated data is the header, the message's manifest and the serializer's identifier (which
 * Artery sends outside the payload), so none of them can be changed either.
 *
 * <p>What is refused: a message that does not open (a stranger's, or altered), one whose time is
 * more than {@link #WINDOW} from this JVM's clock, and one whose (sender, counter) was accepted
 * before or is older than the last {@value #REPLAY_WINDOW} counters of its sender. Senders are
 * remembered only once one of their messages opened, so a stranger cannot fill the memory.
 */
public final class MessageSeal {
  /** How far a message's time may be from this JVM's clock: the nodes' clocks are kept in step. */
  public static final Duration WINDOW = Duration.ofSeconds(60);

  /** How many of a sender's latest counters are remembered, for messages that overtake others. */
  static final int REPLAY_WINDOW = 4096;

  private static final byte VERSION = 1;
  private static final int SENDER_BYTES = 16;
  private static final int HEADER_BYTES = 1 + SENDER_BYTES + 8 + 8;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A message that is not to be used: not sealed by this session, altered, old, or replayed. */
  public static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  private final byte[] sessionKey;
  private final byte[] sender = new byte[SENDER_BYTES];
  private final SecretKeySpec sendingKey;
  private final AtomicLong counter = new AtomicLong();
  private final LongSupplier clock;
  private final Map<String, Sender> senders = new ConcurrentHashMap<>();
  private final ThreadLocal<Cipher> ciphers = ThreadLocal.withInitial(MessageSeal::newCipher);

  MessageSeal(byte[] sessionKey, LongSupplier clock) {
    if (sessionKey.length != 32) {
      throw new IllegalArgumentException("a seal key has 256 bits, not " + sessionKey.length * 8);
    }
    this.sessionKey = sessionKey.clone();
    this.clock = clock;
    RANDOM.nextBytes(sender);
    this.sendingKey = senderKey(sender);
  }

  /**
   * A seal under {@code key}, the hex of {@link #sessionKey}.
   *
   * @throws IllegalArgumentException when it is not 256 bits of hex
   */
  public static MessageSeal withKey(String key) {
    return new MessageSeal(HexFormat.of().parseHex(key.strip()), System::currentTimeMillis);
  }

  /**
   * The key every JVM of the session seals with, in hex: an HMAC under the secret of a label of its
   * own, so that it equals no proof or password made from the same secret.
   */
  public static String sessionKey(SessionSecret secret) {
    return HexFormat.of()
        .formatHex(secret.mac("sdm fabric message seal/1".getBytes(StandardCharsets.UTF_8)));
  }

  /** {@code payload}, sealed for the serializer {@code serializer} under {@code manifest}. */
  public byte[] seal(byte[] payload, String manifest, int serializer) {
    long n = counter.incrementAndGet();
    ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + payload.length + TAG_BITS / 8);
    out.put(VERSION).put(sender).putLong(n).putLong(clock.getAsLong());
    byte[] header = Arrays.copyOf(out.array(), HEADER_BYTES);
    try {
      Cipher cipher = ciphers.get();
      cipher.init(Cipher.ENCRYPT_MODE, sendingKey, nonce(n));
      cipher.updateAAD(associated(header, manifest, serializer));
      cipher.doFinal(payload, 0, payload.length, out.array(), HEADER_BYTES);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM failed: " + e.getMessage(), e);
    }
    return out.array();
  }

  /**
   * The payload of a message sealed by a JVM of this session for {@code serializer} under {@code
   * manifest}, once.
   *
   * @throws Refused when it is not one, saying why
   */
  public byte[] open(byte[] sealed, String manifest, int serializer) throws Refused {
    if (sealed.length < HEADER_BYTES + TAG_BITS / 8 || sealed[0] != VERSION) {
      throw new Refused("not a sealed message of this session's fabric");
    }
    ByteBuffer in = ByteBuffer.wrap(sealed);
    in.get();
    byte[] from = new byte[SENDER_BYTES];
    in.get(from);
    long n = in.getLong();
    long time = in.getLong();
    long skew = Math.abs(clock.getAsLong() - time);
    if (skew > WINDOW.toMillis()) {
      throw new Refused(
          "a message " + skew + " ms away from this clock (replayed, or clocks apart)");
    }
    String id = HexFormat.of().formatHex(from);
    Sender known = senders.get(id);
    if (known != null && !known.fresh(n)) {
      throw new Refused("a message received before (replayed)");
    }
    byte[] payload;
    try {
      Cipher cipher = ciphers.get();
      cipher.init(Cipher.DECRYPT_MODE, known != null ? known.key : senderKey(from), nonce(n));
      cipher.updateAAD(associated(Arrays.copyOf(sealed, HEADER_BYTES), manifest, serializer));
      payload = cipher.doFinal(sealed, HEADER_BYTES, sealed.length - HEADER_BYTES);
    } catch (AEADBadTagException e) {
      throw new Refused("a message that does not open with the session's key (forged or altered)");
    } catch (GeneralSecurityException e) {
      throw new Refused("a message that does not open: " + e.getMessage());
    }
    Sender s =
        known != null ? known : senders.computeIfAbsent(id, k -> new Sender(senderKey(from)));
    if (!s.accept(n)) {
      throw new Refused("a message received before (replayed)");
    }
    return payload;
  }

  /**
   * The sender that {@code sealed} names, in hex: what it claims, authenticated only if it opens,
   * so a label for a log line and nothing more; empty when it is too short to name one.
   */
  public static Optional<String> claimedSender(byte[] sealed) {
    if (sealed.length < 1 + SENDER_BYTES) {
      return Optional.empty();
    }
    return Optional.of(HexFormat.of().formatHex(sealed, 1, 1 + SENDER_BYTES));
  }

  private SecretKeySpec senderKey(byte[] id) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(sessionKey, "HmacSHA256"));
      mac.update("sender".getBytes(StandardCharsets.US_ASCII));
      return new SecretKeySpec(mac.doFinal(id), "AES");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  private static GCMParameterSpec nonce(long n) {
    return new GCMParameterSpec(TAG_BITS, ByteBuffer.allocate(12).putInt(0).putLong(n).array());
  }

  private static byte[] associated(byte[] header, String manifest, int serializer) {
    byte[] m = manifest.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(header.length + 4 + m.length + 4)
        .put(header)
        .putInt(m.length)
        .put(m)
        .putInt(serializer)
        .array();
  }

  private static Cipher newCipher() {
    try {
      return Cipher.getInstance("AES/GCM/NoPadding");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/GCM is part of every JDK", e);
    }
  }

  /** What is known of one sender: its key and which of its latest counters came. */
  private static final class Sender {
    final SecretKeySpec key;
    private final long[] seen = new long[REPLAY_WINDOW / 64];
    private long highest;

    Sender(SecretKeySpec key) {
      this.key = key;
    }

    /** Whether {@code n} may still come: newer than the window's start and not seen. */
    synchronized boolean fresh(long n) {
      return n > highest - REPLAY_WINDOW && (n > highest || !bit(n));
    }

    /** Marks {@code n} as come; false when it had come, or is too old by now. */
    synchronized boolean accept(long n) {
      if (!fresh(n)) {
        return false;
      }
      if (n > highest) {
        for (long c = Math.max(highest + 1, n - REPLAY_WINDOW + 1); c < n; c++) {
          clear(c); // the slots of counters skipped over belong to the new window now
        }
        highest = n;
      }
      set(n);
      return true;
    }

    private boolean bit(long n) {
      int i = (int) Math.floorMod(n, (long) REPLAY_WINDOW);
      return (seen[i >>> 6] & (1L << (i & 63))) != 0;
    }

    private void set(long n) {
      int i = (int) Math.floorMod(n, (long) REPLAY_WINDOW);
      seen[i >>> 6] |= 1L << (i & 63);
    }

    private void clear(long n) {
      int i = (int) Math.floorMod(n, (long) REPLAY_WINDOW);
      seen[i >>> 6] &= ~(1L << (i & 63));
    }
  }
}
