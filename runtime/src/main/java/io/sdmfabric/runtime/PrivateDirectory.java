package io.sdmfabric.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Directories and files that must be the user's alone: sdm's home ({@code ~/.sdm}, or {@code
 * $SDM_HOME}), its reverse connect requests, a session's rank spool. Anyone else who could write
 * there could plant a request or a pid, and anyone who could read could learn a session's secret.
 */
public final class PrivateDirectory {
  /** The variable that moves sdm's home away from {@code ~/.sdm} (tests, shared accounts). */
  public static final String HOME_ENV = "SDM_HOME";

  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");

  private PrivateDirectory() {}

  /** sdm's home: {@code $SDM_HOME}, or {@code .sdm} in the user's home directory. */
  public static Path sdmHome() {
    String env = System.getenv(HOME_ENV);
    if (env != null && !env.isBlank()) {
      return Path.of(env).toAbsolutePath();
    }
    return Path.of(System.getProperty("user.home"), ".sdm");
  }

  /**
   * {@code dir}, made with mode 0700 if it is missing (its parent too, when that is sdm's home).
   *
   * @throws IOException when it exists but is not the user's alone; the message says how to fix it
   */
  public static Path ensure(Path dir) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      Files.createDirectories(
          dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    check(dir);
    return dir;
  }

  /**
   * Fails unless {@code dir} is a directory owned by this user and closed to everyone else.
   *
   * @throws IOException saying what is wrong and how to fix it
   */
  public static void check(Path dir) throws IOException {
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException(dir + " is not a directory (a symbolic link is not accepted either)");
    }
    Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
    String owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName();
    String me = System.getProperty("user.name");
    if (!owner.equals(me)) {
      throw new IOException(
          dir
              + " is owned by "
              + owner
              + ", not by "
              + me
              + ": sdm keeps session secrets there, so it must be yours alone"
              + " (remove it, or set $"
              + HOME_ENV
              + " to a directory of your own)");
    }
    if (perms.stream()
        .anyMatch(p -> p.name().startsWith("GROUP") || p.name().startsWith("OTHERS"))) {
      throw new IOException(
          dir
              + " has mode "
              + PosixFilePermissions.toString(perms)
              + ": sdm keeps session secrets there, so it must be yours alone"
              + " (fix it with: chmod 700 "
              + dir
              + ")");
    }
  }

  /**
   * Writes {@code text} to {@code file} with mode 0600, whole or not at all: readers never see a
   * part of it.
   */
  public static void write(Path file, String text) throws IOException {
    Path tmp =
        Files.createTempFile(
            file.getParent(), ".tmp-", "", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
    try {
      Files.writeString(tmp, text);
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * The text of {@code file}, a small file of this user's: a regular file (never followed through a
   * symbolic link, never a FIFO or a device), owned by the user, writable by nobody else, of at
   * most {@code limit} bytes.
   *
   * @throws java.nio.file.NoSuchFileException when it is not there
   * @throws IOException when it is not such a file; the message names it and says why
   */
  public static String readSmall(Path file, int limit) throws IOException {
    java.nio.file.attribute.PosixFileAttributes attributes =
        Files.readAttributes(
            file, java.nio.file.attribute.PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!attributes.isRegularFile()) {
      throw new IOException(
          file + " is not a regular file (a symbolic link, a FIFO or a device is not read)");
    }
    String me = System.getProperty("user.name");
    if (!attributes.owner().getName().equals(me)) {
      throw new IOException(file + " is owned by " + attributes.owner().getName() + ", not " + me);
    }
    if (attributes.permissions().contains(PosixFilePermission.GROUP_WRITE)
        || attributes.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
      throw new IOException(file + " is writable by others");
    }
    if (attributes.size() > limit) {
      throw new IOException(
          file + " has " + attributes.size() + " bytes, over the limit of " + limit);
    }
    byte[] bytes;
    try (java.nio.channels.SeekableByteChannel in =
            Files.newByteChannel(
                file, Set.of(java.nio.file.StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
        java.io.InputStream stream = java.nio.channels.Channels.newInputStream(in)) {
      // It may have grown since: read no more than the limit and one byte.
      bytes = stream.readNBytes(limit + 1);
    }
    if (bytes.length > limit) {
      throw new IOException(file + " is over the limit of " + limit + " bytes");
    }
    return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
  }
}
