package io.sdmfabric.wire;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret of one debug session: 256 random bits that every agent and front-end of the session
 * proves it knows. It travels to agents through their environment ({@value #ENV}) or a file
 * readable by the user only, never on a command line that {@code ps} shows. Proofs are HMAC-SHA256
 * of a name under the secret, so the secret itself never crosses the network.
 */
public final class SessionSecret {
  /** The environment variable that carries the secret, in hex, to agents. */
  public static final String ENV = "SDM_SECRET";

  private final byte[] key;

  private SessionSecret(byte[] key) {
    if (key.length < 16) {
      throw new IllegalArgumentException("a session secret has at least 128 bits");
    }
    this.key = key.clone();
  }

  /** A new random secret. */
  public static SessionSecret random() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return new SessionSecret(key);
  }

  /**
   * The secret written as {@link #hex()}.
   *
   * @throws IllegalArgumentException when it is not hex of at least 128 bits
   */
  public static SessionSecret fromHex(String hex) {
    try {
      return new SessionSecret(HexFormat.of().parseHex(hex.strip()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a session secret: " + e.getMessage(), e);
    }
  }

  /** The secret in hex, for the environment of the processes of the session. */
  public String hex() {
    return HexFormat.of().formatHex(key);
  }

  /** The proof that whoever sends {@code name} knows the secret. */
  public byte[] proof(String name) {
    return mac(name.getBytes(StandardCharsets.UTF_8));
  }

  /** HMAC-SHA256 of {@code message} under the secret. */
  public byte[] mac(byte[] message) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(message);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  /**
   * The password of the session's TLS keystore, in hex: an HMAC-SHA256 under the secret of a label
   * that is not an actor system address, so no agent's {@link #proof} ever equals it. Every JVM of
   * the session derives it from the secret, so the password itself never travels.
   */
  public String keystorePassword() {
    return HexFormat.of().formatHex(proof("sdm session keystore password"));
  }

  /** Whether {@code proof} proves knowledge of the secret for {@code name} (constant time). */
  public boolean verifies(String name, byte[] proof) {
    return MessageDigest.isEqual(proof(name), proof);
  }

  @Override
  public String toString() {
    return "SessionSecret[hidden]";
  }
}
