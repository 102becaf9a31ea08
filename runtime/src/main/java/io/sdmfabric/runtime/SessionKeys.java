package io.sdmfabric.runtime;

import io.sdmfabric.wire.SessionSecret;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Where the agents of a distributed session find its keys: a directory of the user's sdm home,
 * {@code sessions/ID} (mode 0700), holding the session's secret ({@value #SECRET}, mode 0600) and,
 * over tls-tcp, its keystore ({@code session.p12}, mode 0600). Only its path travels to the agents,
 * on their command line; its content never crosses the network by sdm's doing. It works where every
 * node of the job sees the user's home, as the home directories of an HPC cluster are shared (the
 * program to debug, the user's MPI installation and sdm's jar are usually found the same way).
 *
 * <p>Why not the launcher's environment: Open MPI sends {@code -x} variables to the daemons of
 * other nodes in clear, and Slurm's step launch carries the environment unencrypted too (both were
 * seen in a packet capture), and the keystore's password derives from the secret. Why not a
 * credential service such as MUNGE: it works only where Slurm runs, while the shared home works
 * under every launcher; a home that is not shared makes the agents fail saying so, and {@code
 * --secrets-in-clear} is the way back to the environment.
 *
 * <p>Every name is made exclusively ({@code O_EXCL}, so never through a link) under sdm's home,
 * which {@link PrivateDirectory} checks is the user's alone. The master deletes the directory when
 * its session ends; one killed by SIGKILL leaves it, still readable by the user only.
 */
public final class SessionKeys implements AutoCloseable {
  /** The file of the secret, in hex. */
  static final String SECRET = "secret";

  /** The file of the keystore, when the transport is tls-tcp. */
  static final String KEYSTORE = "session.p12";

  private static final int SECRET_LIMIT = 256;

  private final Path directory;

  private SessionKeys(Path directory) {
    this.directory = directory;
  }

  /**
   * Makes a new, private directory for a session's keys in sdm's home and writes {@code secret}
   * into it.
   *
   * @throws IOException when sdm's home is not the user's alone, or nothing can be written there
   */
  public static SessionKeys create(SessionSecret secret) throws IOException {
    Path sessions =
        PrivateDirectory.ensure(
            PrivateDirectory.ensure(PrivateDirectory.sdmHome()).resolve("sessions"));
    byte[] id = new byte[12];
    new SecureRandom().nextBytes(id);
    Path dir =
        Files.createDirectory(
            sessions.resolve(HexFormat.of().formatHex(id)),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    SessionKeys keys = new SessionKeys(dir);
    // Deleted in reverse order of registration when the JVM ends: the files, then the directory.
    dir.toFile().deleteOnExit();
    keys.keystore().toFile().deleteOnExit();
    dir.resolve(SECRET).toFile().deleteOnExit();
    try {
      PrivateDirectory.check(dir);
      Files.writeString(keys.createPrivateFile(SECRET), secret.hex() + "\n");
      return keys;
    } catch (IOException | RuntimeException e) {
      keys.close();
      throw e;
    }
  }

  /** The directory, which agents are given with {@code --keys}. */
  public Path directory() {
    return directory;
  }

  /** Where the session's keystore is written. */
  Path keystore() {
    return directory.resolve(KEYSTORE);
  }

  /**
   * The secret an agent finds in {@code dir}, after checking that the directory and the file are
   * the user's alone and no link.
   *
   * @throws IOException saying what is wrong; a missing directory says that the home may not be
   *     shared with this node
   */
  public static SessionSecret secretIn(Path dir) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      throw new NoSuchFileException(
          dir
              + " is not there on this node: the agents read the session's keys from your sdm home,"
              + " which must be on a file system every node of the job shares (or set $"
              + PrivateDirectory.HOME_ENV
              + " to a directory that is); --secrets-in-clear sends them in the launcher's"
              + " environment instead, in clear");
    }
    PrivateDirectory.check(dir);
    String text = PrivateDirectory.readSmall(dir.resolve(SECRET), SECRET_LIMIT);
    try {
      return SessionSecret.fromHex(text);
    } catch (IllegalArgumentException e) {
      throw new IOException(dir.resolve(SECRET) + " holds no session secret", e);
    }
  }

  /**
   * The keystore in {@code dir}, if the session has one (tls-tcp); never followed through a link.
   */
  public static Optional<Path> keystoreIn(Path dir) throws IOException {
    Path file = dir.resolve(KEYSTORE);
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException(file + " is not a regular file (a symbolic link is not followed)");
    }
    String owner = Files.getOwner(file, LinkOption.NOFOLLOW_LINKS).getName();
    if (!owner.equals(System.getProperty("user.name"))) {
      throw new IOException(file + " is owned by " + owner + ", not by you");
    }
    return Optional.of(file);
  }

  /** Creates {@code name} in the directory, empty, readable and writable by the user only. */
  Path createPrivateFile(String name) throws IOException {
    return Files.createFile(
        directory.resolve(name),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
  }

  /** Deletes the keys and their directory. */
  @Override
  public void close() {
    try {
      Files.deleteIfExists(directory.resolve(SECRET));
      Files.deleteIfExists(directory.resolve(KEYSTORE));
      Files.deleteIfExists(directory);
    } catch (IOException e) {
      // Something else was put there (only the user could): left for the user to see.
    }
  }

  @Override
  public String toString() {
    return "SessionKeys[" + directory + "]";
  }
}
