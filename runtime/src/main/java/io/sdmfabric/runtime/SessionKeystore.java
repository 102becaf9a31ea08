package io.sdmfabric.runtime;

import io.sdmfabric.wire.SessionSecret;
import io.sdmfabric.wire.TlsIdentity;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The TLS identity of one distributed session: a PKCS12 keystore holding one freshly generated,
 * self-signed EC key pair, used by every JVM of the session both as its key store and as its only
 * trust store (Artery's {@code tls-tcp}, see {@link ClusterSettings#at(String, int,
 * SessionKeystore)}). So the session's JVMs, and only they, accept each other's connections.
 *
 * <p>The master makes it ({@link TlsIdentity}) in the session's {@link SessionKeys}, a private
 * directory of the user's shared sdm home, where the agents use it in place ({@link #open}). Only
 * with {@code --secrets-in-clear} do agents get its bytes in base64 in {@value #ENV} and write
 * their own copy, in a new directory of mode 0700 under {@code java.io.tmpdir}. Either way the file
 * has mode 0600 and its maker deletes it at {@link #close} or when the JVM ends normally (a JVM
 * killed by SIGKILL leaves it behind, readable by its owner only). Its password is {@link
 * SessionSecret#keystorePassword}: it never appears on a command line.
 */
public final class SessionKeystore implements AutoCloseable {
  /** The environment variable that carries the keystore, in base64, to agents. */
  public static final String ENV = "SDM_KEYSTORE";

  /** The alias of the session's key pair. */
  static final String ALIAS = TlsIdentity.ALIAS;

  private static final String FILE = SessionKeys.KEYSTORE;

  private static final String TEMPORARY_PREFIX = "sdm-session-";

  private final Path file;
  private final String password;
  private final String name;
  private final boolean owned;

  private SessionKeystore(Path file, String password, boolean owned) {
    this.file = file;
    this.password = password;
    this.owned = owned;
    byte[] id = new byte[8];
    new SecureRandom().nextBytes(id);
    this.name = HexFormat.of().formatHex(id);
  }

  /**
   * Makes the keystore of a new session: a fresh key pair and its certificate ({@link TlsIdentity},
   * made in this JVM in milliseconds; keytool cost a JVM start), written to a new private file.
   *
   * @throws IOException when the file cannot be written
   */
  public static SessionKeystore generate(SessionSecret secret) throws IOException {
    return generate(privateDirectory().resolve(FILE), secret);
  }

  /**
   * Makes the keystore of a new session in the directory of its {@link SessionKeys}, where the
   * agents read it; closing the keystore deletes the file.
   *
   * @throws IOException when the file cannot be written
   */
  public static SessionKeystore generate(SessionSecret secret, SessionKeys keys)
      throws IOException {
    return generate(keys.keystore(), secret);
  }

  private static SessionKeystore generate(Path file, SessionSecret secret) throws IOException {
    SessionKeystore keystore = new SessionKeystore(file, secret.keystorePassword(), true);
    try {
      KeyStore store =
          TlsIdentity.generate("sdm session " + keystore.name)
              .keyStore(keystore.password.toCharArray());
      try (OutputStream out = Files.newOutputStream(keystore.createPrivateFile())) {
        TlsIdentity.writeKeyStore(store, out, keystore.password.toCharArray());
      } catch (GeneralSecurityException e) {
        throw new IOException("cannot write the session keystore: " + e.getMessage(), e);
      }
      keystore.check();
      return keystore;
    } catch (IOException | RuntimeException e) {
      keystore.close();
      throw e;
    }
  }

  /**
   * Writes the keystore that {@link #base64} gave to a file of this JVM's own.
   *
   * @throws IllegalArgumentException when it is not base64 of a keystore that opens with {@code
   *     secret}'s password (another session's, or damaged)
   * @throws IOException when the file cannot be written
   */
  public static SessionKeystore fromBase64(String base64, SessionSecret secret) throws IOException {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(base64.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("$" + ENV + " is not base64: " + e.getMessage(), e);
    }
    SessionKeystore keystore =
        new SessionKeystore(privateDirectory().resolve(FILE), secret.keystorePassword(), true);
    try {
      Files.write(keystore.createPrivateFile(), bytes);
      keystore.check();
      return keystore;
    } catch (IOException | RuntimeException e) {
      keystore.close();
      throw e;
    }
  }

  /**
   * The keystore the master wrote to its {@link SessionKeys}, as an agent uses it: in place, never
   * deleted by this JVM.
   *
   * @throws IllegalArgumentException when it does not open with {@code secret}'s password
   */
  public static SessionKeystore open(Path file, SessionSecret secret) throws IOException {
    SessionKeystore keystore = new SessionKeystore(file, secret.keystorePassword(), false);
    keystore.check();
    return keystore;
  }

  /** The keystore file. */
  public Path path() {
    return file;
  }

  /** The keystore's bytes in base64, for {@value #ENV} in an agent's environment. */
  public String base64() throws IOException {
    return Base64.getEncoder().encodeToString(Files.readAllBytes(file));
  }

  /** The password of the keystore and of its key, for Artery's settings. */
  String password() {
    return password;
  }

  /**
   * Deletes the keystore this JVM made, and its directory when it made that too ({@link
   * #generate(SessionSecret)}, {@link #fromBase64}); one it {@link #open}ed is left to its master.
   */
  @Override
  public void close() {
    if (!owned) {
      return;
    }
    try {
      Files.deleteIfExists(file);
      if (file.getParent().getFileName().toString().startsWith(TEMPORARY_PREFIX)) {
        Files.deleteIfExists(file.getParent());
      }
    } catch (IOException e) {
      // The JVM's exit deletes them (deleteOnExit below); nothing else can be done here.
    }
  }

  @Override
  public String toString() {
    return "SessionKeystore[" + file + "]";
  }

  /**
   * A new directory that only this user can enter, deleted with its keystore when the JVM exits
   * (deleteOnExit runs in reverse order of registration: the file first, then the directory).
   */
  private static Path privateDirectory() throws IOException {
    Path dir =
        Files.createTempDirectory(
            TEMPORARY_PREFIX,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    dir.toFile().deleteOnExit();
    dir.resolve(FILE).toFile().deleteOnExit();
    return dir;
  }

  /** Creates the keystore file, empty, readable and writable by this user only. */
  private Path createPrivateFile() throws IOException {
    return Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
  }

  /** Opens the keystore as Artery will: it must hold the session's key pair under its password. */
  private void check() throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, password.toCharArray());
      if (!store.isKeyEntry(ALIAS)
          || !(store.getCertificate(ALIAS) instanceof X509Certificate)
          || store.getKey(ALIAS, password.toCharArray()) == null) {
        throw new IllegalArgumentException("the keystore holds no session key pair");
      }
    } catch (GeneralSecurityException | IOException e) {
      // A wrong password shows as an IOException whose cause is an UnrecoverableKeyException.
      throw new IllegalArgumentException(
          "not this session's keystore (another session's, or damaged): " + e.getMessage(), e);
    }
  }
}
