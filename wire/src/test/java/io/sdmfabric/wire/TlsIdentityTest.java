package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.security.KeyStore;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;

class TlsIdentityTest {
  private static final char[] PASSWORD = "password".toCharArray();

  @Test
  void makesAVersion3CertificateThatTheJdkParsesAndVerifies() throws Exception {
    TlsIdentity identity = TlsIdentity.generate("sdm session 0123");

    assertEquals(3, identity.certificate().getVersion());
    assertEquals("CN=sdm session 0123", identity.certificate().getSubjectX500Principal().getName());
    assertEquals(
        identity.certificate().getSubjectX500Principal(),
        identity.certificate().getIssuerX500Principal());
    assertEquals("SHA256withECDSA", identity.certificate().getSigAlgName());
    identity.certificate().checkValidity();
    assertTrue(
        identity
            .certificate()
            .getNotAfter()
            .toInstant()
            .isAfter(Instant.now().plusSeconds(3600L * 24 * 365 * 9)));
    identity.certificate().verify(identity.certificate().getPublicKey());
  }

  @Test
  void everyIdentityIsNew() {
    TlsIdentity a = TlsIdentity.generate("a");
    TlsIdentity b = TlsIdentity.generate("a");

    assertEquals(32, a.fingerprint().length);
    assertFalse(java.util.Arrays.equals(a.fingerprint(), b.fingerprint()));
    assertArrayEquals(a.fingerprint(), TlsIdentity.fingerprint(a.certificate()));
    assertNotEquals(a.certificate().getSerialNumber(), b.certificate().getSerialNumber());
  }

  @Test
  void aKeyStoreThatIsAlsoTheTrustStoreAcceptsItsOwnCertificateInMutualTls() throws Exception {
    TlsIdentity session = TlsIdentity.generate("session");
    SSLContext context = pinned(session.keyStore(PASSWORD));

    assertEquals("TLSv1.3", handshake(context, context));
  }

  @Test
  void aPeerWithAnotherIdentityIsRefused() throws Exception {
    SSLContext mine = pinned(TlsIdentity.generate("mine").keyStore(PASSWORD));
    SSLContext theirs = pinned(TlsIdentity.generate("theirs").keyStore(PASSWORD));

    assertThrows(Exception.class, () -> handshake(mine, theirs));
  }

  @Test
  void aWrittenKeyStoreOpensWithItsPasswordOnlyAndLeavesTheJdksPropertiesAsTheyWere()
      throws Exception {
    System.setProperty("keystore.pkcs12.macIterationCount", "5000");
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      TlsIdentity.writeKeyStore(TlsIdentity.generate("session").keyStore(PASSWORD), out, PASSWORD);

      KeyStore reopened = KeyStore.getInstance("PKCS12");
      reopened.load(new ByteArrayInputStream(out.toByteArray()), PASSWORD);
      SSLContext context = pinned(reopened);
      assertEquals("TLSv1.3", handshake(context, context));
      KeyStore wrong = KeyStore.getInstance("PKCS12");
      assertThrows(
          IOException.class,
          () -> wrong.load(new ByteArrayInputStream(out.toByteArray()), "other".toCharArray()));
      assertEquals("5000", System.getProperty("keystore.pkcs12.macIterationCount"));
      assertNull(System.getProperty("keystore.pkcs12.certPbeIterationCount"));
    } finally {
      System.clearProperty("keystore.pkcs12.macIterationCount");
    }
  }

  @Test
  void namesOfAnyLengthAreEncoded() throws Exception {
    String longName = "x".repeat(300);

    assertEquals(
        "CN=" + longName,
        TlsIdentity.generate(longName).certificate().getSubjectX500Principal().getName());
  }

  /** What Artery's ConfigSSLEngineProvider builds from one store used as key and trust store. */
  private static SSLContext pinned(KeyStore store) throws Exception {
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, PASSWORD);
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    SSLContext context = SSLContext.getInstance("TLSv1.3");
    context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
    return context;
  }

  /** A mutual TLS handshake on loopback; the protocol agreed, or why it failed. */
  private static String handshake(SSLContext server, SSLContext client) throws Exception {
    try (SSLServerSocket listener =
        (SSLServerSocket)
            server
                .getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      listener.setNeedClientAuth(true);
      CompletableFuture<Void> accepted =
          CompletableFuture.runAsync(
              () -> {
                try (SSLSocket s = (SSLSocket) listener.accept()) {
                  s.setSoTimeout(10_000);
                  s.startHandshake();
                  s.getOutputStream().write(1);
                  s.getOutputStream().flush();
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      String protocol;
      try (SSLSocket s =
          (SSLSocket)
              client
                  .getSocketFactory()
                  .createSocket(InetAddress.getLoopbackAddress(), listener.getLocalPort())) {
        s.setSoTimeout(10_000);
        s.startHandshake();
        // TLS 1.3 finishes the client's side before the server checks the client's certificate:
        // the first byte read tells whether the server accepted it.
        if (s.getInputStream().read() != 1) {
          throw new IOException("the server closed the connection");
        }
        protocol = s.getSession().getProtocol();
      }
      // The server's close waits for the client's close_notify: join it after the client closed.
      accepted.get(10, TimeUnit.SECONDS);
      return protocol;
    }
  }
}
