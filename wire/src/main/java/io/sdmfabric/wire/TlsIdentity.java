package io.sdmfabric.wire;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.spec.PBEParameterSpec;

/**
 * A TLS identity made in this JVM: a fresh EC key pair (P-256) and a self-signed X.509 certificate
 * of it (ECDSA with SHA-256), for one session or one connection. Nobody vouches for it: a peer
 * trusts it because it is pinned (the session's keystore is every JVM's only trust store) or
 * because a proof under the session secret names its fingerprint.
 *
 * <p>The JDK has no public API to write a certificate, and keytool costs a JVM start (about a
 * second here), so the certificate is encoded here in DER (RFC 5280 §4.1): version 3, a random
 * serial, the same name as issuer and subject ({@code CN=...}), a validity from a day ago to ten
 * years on, the public key as the JDK encodes it, and no extensions. The JDK's own parser reads it
 * back before it is used, so a mistake shows at once, not in a peer.
 */
public final class TlsIdentity {
  /** The alias of the key pair in {@link #keyStore}. */
  public static final String ALIAS = "session";

  /** ecdsa-with-SHA256 (RFC 5758). */
  private static final int[] ECDSA_WITH_SHA256 = {1, 2, 840, 10045, 4, 3, 2};

  /** id-at-commonName (X.520). */
  private static final int[] COMMON_NAME = {2, 5, 4, 3};

  private static final Duration VALIDITY = Duration.ofDays(3650);

  /** PBKDF2's iterations for the session's key store: see {@link #keyStore} for why one. */
  private static final int PBKDF2_ITERATIONS = 1;

  /** How the key is sealed in the key store: the JDK's default algorithm for PKCS12 keys. */
  private static final String KEY_PROTECTION = "PBEWithHmacSHA256AndAES_256";

  private static final int SALT_BYTES = 16;

  /** The JDK's PKCS12 iteration counts of a store's integrity check and its certificates. */
  private static final List<String> PKCS12_ITERATION_PROPERTIES =
      List.of("keystore.pkcs12.macIterationCount", "keystore.pkcs12.certPbeIterationCount");

  private static final SecureRandom RANDOM = new SecureRandom();

  private final PrivateKey key;
  private final X509Certificate certificate;

  private TlsIdentity(PrivateKey key, X509Certificate certificate) {
    this.key = key;
    this.certificate = certificate;
  }

  /** A new key pair and its self-signed certificate for {@code CN=commonName}. */
  public static TlsIdentity generate(String commonName) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      KeyPair pair = generator.generateKeyPair();
      byte[] algorithm = Der.sequence(Der.oid(ECDSA_WITH_SHA256));
      byte[] name =
          Der.sequence(Der.set(Der.sequence(Der.oid(COMMON_NAME), Der.utf8String(commonName))));
      Instant now = Instant.now();
      byte[] tbs =
          Der.sequence(
              Der.explicit(0, Der.integer(BigInteger.TWO)), // v3
              Der.integer(new BigInteger(64, RANDOM).setBit(63)),
              algorithm,
              name,
              Der.sequence(Der.time(now.minus(Duration.ofDays(1))), Der.time(now.plus(VALIDITY))),
              name,
              pair.getPublic().getEncoded()); // SubjectPublicKeyInfo, DER already
      Signature signer = Signature.getInstance("SHA256withECDSA");
      signer.initSign(pair.getPrivate(), RANDOM);
      signer.update(tbs);
      byte[] encoded = Der.sequence(tbs, algorithm, Der.bitString(signer.sign()));
      X509Certificate certificate =
          (X509Certificate)
              CertificateFactory.getInstance("X.509")
                  .generateCertificate(new ByteArrayInputStream(encoded));
      certificate.verify(pair.getPublic());
      return new TlsIdentity(pair.getPrivate(), certificate);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot make a P-256 certificate in this JDK", e);
    }
  }

  /** The certificate. */
  public X509Certificate certificate() {
    return certificate;
  }

  /** The private key. */
  public PrivateKey key() {
    return key;
  }

  /** SHA-256 of the certificate's DER encoding. */
  public byte[] fingerprint() {
    return fingerprint(certificate);
  }

  /** SHA-256 of {@code certificate}'s DER encoding. */
  public static byte[] fingerprint(Certificate certificate) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  /**
   * A PKCS12 key store holding the key pair under {@value #ALIAS}, the key and the store protected
   * by {@code password}: usable as both key store and trust store. Write it with {@link
   * #writeKeyStore}.
   *
   * <p>Its key is sealed with one iteration of PBKDF2 ({@value #PBKDF2_ITERATIONS}), not the JDK's
   * 10,000: the iterations stretch a password a person chose, and the session's is an HMAC-SHA256
   * under its secret (256 bits from {@code SecureRandom}), which no number of iterations makes
   * harder to guess. They cost every opening: measured in a new JVM, writing the store took 260 ms
   * of CPU and each opening with its key 150-220 ms, and a distributed session opens it several
   * times in every JVM (the master's check, Artery's key store and trust store).
   */
  public KeyStore keyStore(char[] password) {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, password);
      byte[] salt = new byte[SALT_BYTES];
      RANDOM.nextBytes(salt);
      store.setEntry(
          ALIAS,
          new KeyStore.PrivateKeyEntry(key, new Certificate[] {certificate}),
          new KeyStore.PasswordProtection(
              password, KEY_PROTECTION, new PBEParameterSpec(salt, PBKDF2_ITERATIONS)));
      return store;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException("cannot make a PKCS12 key store in this JDK", e);
    }
  }

  /**
   * Writes {@code store} (one of {@link #keyStore}) to {@code out} under {@code password}, its
   * integrity check and its certificate's sealing also at {@value #PBKDF2_ITERATIONS} iteration
   * (see {@link #keyStore}). The JDK takes those counts only from system properties, read as it
   * writes; they are set for the write and put back as they were after it.
   */
  public static void writeKeyStore(KeyStore store, OutputStream out, char[] password)
      throws IOException, GeneralSecurityException {
    synchronized (TlsIdentity.class) {
      Map<String, String> before = new HashMap<>();
      for (String property : PKCS12_ITERATION_PROPERTIES) {
        before.put(property, System.getProperty(property));
        System.setProperty(property, Integer.toString(PBKDF2_ITERATIONS));
      }
      try {
        store.store(out, password);
      } finally {
        before.forEach(
            (property, value) -> {
              if (value == null) {
                System.clearProperty(property);
              } else {
                System.setProperty(property, value);
              }
            });
      }
    }
  }

  @Override
  public String toString() {
    return "TlsIdentity[" + certificate.getSubjectX500Principal().getName() + "]";
  }

  /** The few DER encodings a certificate needs (X.690). */
  private static final class Der {
    private Der() {}

    static byte[] sequence(byte[]... parts) {
      return tagged(0x30, concat(parts));
    }

    static byte[] set(byte[]... parts) {
      return tagged(0x31, concat(parts));
    }

    static byte[] explicit(int number, byte[] inner) {
      return tagged(0xa0 | number, inner);
    }

    static byte[] integer(BigInteger value) {
      return tagged(0x02, value.toByteArray());
    }

    static byte[] utf8String(String text) {
      return tagged(0x0c, text.getBytes(StandardCharsets.UTF_8));
    }

    /** A bit string of whole bytes: no unused bits. */
    static byte[] bitString(byte[] bytes) {
      return tagged(0x03, concat(new byte[] {0}, bytes));
    }

    static byte[] oid(int[] arcs) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      base128(out, 40L * arcs[0] + arcs[1]);
      for (int i = 2; i < arcs.length; i++) {
        base128(out, arcs[i]);
      }
      return tagged(0x06, out.toByteArray());
    }

    /** UTCTime through 2049, GeneralizedTime after (RFC 5280 §4.1.2.5). */
    static byte[] time(Instant instant) {
      int year = instant.atZone(ZoneOffset.UTC).getYear();
      String pattern = year < 2050 ? "yyMMddHHmmss'Z'" : "yyyyMMddHHmmss'Z'";
      String text = DateTimeFormatter.ofPattern(pattern).withZone(ZoneOffset.UTC).format(instant);
      return tagged(year < 2050 ? 0x17 : 0x18, text.getBytes(StandardCharsets.US_ASCII));
    }

    private static void base128(ByteArrayOutputStream out, long value) {
      int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(value) + 6) / 7);
      for (int g = groups - 1; g >= 0; g--) {
        int septet = (int) (value >>> (7 * g)) & 0x7f;
        out.write(g == 0 ? septet : septet | 0x80);
      }
    }

    private static byte[] tagged(int tag, byte[] content) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
      out.write(tag);
      int length = content.length;
      if (length < 0x80) {
        out.write(length);
      } else {
        int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
        out.write(0x80 | bytes);
        for (int b = bytes - 1; b >= 0; b--) {
          out.write(length >>> (8 * b));
        }
      }
      out.writeBytes(content);
      return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (byte[] p : parts) {
        out.writeBytes(p);
      }
      return out.toByteArray();
    }
  }
}
