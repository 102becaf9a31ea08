package io.sdmfabric.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import io.sdmfabric.wire.SessionSecret;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Collections;
import org.junit.jupiter.api.Test;

class SessionKeystoreTest {
  private final SessionSecret secret = SessionSecret.random();

  private KeyStore open(Path file, String password) throws Exception {
    try (InputStream in = Files.newInputStream(file)) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, password.toCharArray());
      return store;
    }
  }

  @Test
  void holdsOneSelfSignedKeyPairInAFileOnlyItsOwnerCanRead() throws Exception {
    Path file;
    Path dir;
    try (SessionKeystore keystore = SessionKeystore.generate(secret)) {
      file = keystore.path();
      dir = file.getParent();
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
      assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
      KeyStore store = open(file, secret.keystorePassword());
      assertEquals(
          Collections.singletonList(SessionKeystore.ALIAS), Collections.list(store.aliases()));
      X509Certificate cert = (X509Certificate) store.getCertificate(SessionKeystore.ALIAS);
      assertEquals(cert.getSubjectX500Principal(), cert.getIssuerX500Principal());
      cert.verify(cert.getPublicKey());
      assertTrue(store.isKeyEntry(SessionKeystore.ALIAS));
    }
    assertFalse(Files.exists(file));
    assertFalse(Files.exists(dir));
  }

  @Test
  void everySessionHasItsOwnKeyPair() throws Exception {
    try (SessionKeystore a = SessionKeystore.generate(secret);
        SessionKeystore b = SessionKeystore.generate(secret)) {
      String password = secret.keystorePassword();
      assertNotEquals(
          open(a.path(), password).getCertificate(SessionKeystore.ALIAS).getPublicKey(),
          open(b.path(), password).getCertificate(SessionKeystore.ALIAS).getPublicKey());
    }
  }

  @Test
  void anAgentsCopyFromBase64IsPrivateAndOpensOnlyWithTheSessionsSecret() throws Exception {
    try (SessionKeystore master = SessionKeystore.generate(secret);
        SessionKeystore agent = SessionKeystore.fromBase64(master.base64(), secret)) {
      assertNotEquals(master.path(), agent.path());
      assertEquals(
          "rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(agent.path())));
      assertEquals(
          Base64.getEncoder().encodeToString(Files.readAllBytes(master.path())), agent.base64());
      assertThrows(
          IllegalArgumentException.class,
          () -> SessionKeystore.fromBase64(master.base64(), SessionSecret.random()));
    }
    assertThrows(
        IllegalArgumentException.class, () -> SessionKeystore.fromBase64("not base64!", secret));
    assertThrows(
        IllegalArgumentException.class,
        () -> SessionKeystore.fromBase64(Base64.getEncoder().encodeToString(new byte[64]), secret));
  }

  @Test
  void tlsTcpSettingsUseTheKeystoreAsKeyAndTrustStoreWithMutualAuthentication() throws Exception {
    assertThrows(
        IllegalArgumentException.class,
        () -> ClusterSettings.at("127.0.0.1", 0, ClusterSettings.Transport.TLS_TCP, secret));
    try (SessionKeystore keystore = SessionKeystore.generate(secret)) {
      Config config = ClusterSettings.at("127.0.0.1", 0, keystore);
      Config ssl = config.getConfig("pekko.remote.artery.ssl.config-ssl-engine");
      assertEquals("tls-tcp", config.getString("pekko.remote.artery.transport"));
      assertEquals(keystore.path().toString(), ssl.getString("key-store"));
      assertEquals(keystore.path().toString(), ssl.getString("trust-store"));
      assertEquals(secret.keystorePassword(), ssl.getString("key-store-password"));
      assertTrue(ssl.getBoolean("require-mutual-authentication"));
      assertFalse(ssl.getBoolean("hostname-verification"));
    }
  }
}
