package io.sdmfabric.relay;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SplittableRandom;

/**
 * The bytes of one test stream: its seed (8 bytes, big-endian), so that a receiver can tell the
 * streams apart, then pseudo-random bytes from the seed. The bytes do not depend on how they are
 * cut into pieces. It keeps the SHA-256 of what it has given out, to compare with what arrived.
 */
public final class BytePattern {
  private final ByteBuffer head;
  private final SplittableRandom random;
  private final MessageDigest sha = sha256();
  private long bits;
  private int bitsLeft;

  BytePattern(long seed) {
    head = ByteBuffer.allocate(Long.BYTES).putLong(seed).flip();
    random = new SplittableRandom(seed);
  }

  /** Puts the next {@code length} bytes into {@code buffer} at {@code offset}. */
  void fill(byte[] buffer, int offset, int length) {
    int h = Math.min(length, head.remaining());
    head.get(buffer, offset, h);
    for (int i = offset + h; i < offset + length; i++) {
      if (bitsLeft == 0) {
        bits = random.nextLong();
        bitsLeft = Long.BYTES;
      }
      buffer[i] = (byte) bits;
      bits >>>= 8;
      bitsLeft--;
    }
    sha.update(buffer, offset, length);
  }

  /** The SHA-256 of every byte given out so far, in hex. */
  String digest() {
    return HexFormat.of().formatHex(sha.digest());
  }

  /** The SHA-256 of the first {@code size} bytes of the stream of {@code seed}. */
  public static String digest(long seed, long size) {
    BytePattern pattern = new BytePattern(seed);
    byte[] buffer = new byte[64 * 1024];
    for (long left = size; left > 0; left -= buffer.length) {
      pattern.fill(buffer, 0, (int) Math.min(left, buffer.length));
    }
    return pattern.digest();
  }

  /** How many bytes arrived until the end of a stream, and their SHA-256 in hex. */
  record Received(long bytes, String digest) {
    /** Reads {@code in} to its end, {@code head} having been read from it already. */
    static Received readAll(InputStream in, byte[] head) throws IOException {
      MessageDigest sha = sha256();
      sha.update(head);
      long bytes = head.length;
      byte[] buffer = new byte[64 * 1024];
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        sha.update(buffer, 0, n);
        bytes += n;
      }
      return new Received(bytes, HexFormat.of().formatHex(sha.digest()));
    }
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
