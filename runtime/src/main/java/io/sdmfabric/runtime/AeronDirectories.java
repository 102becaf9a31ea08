package io.sdmfabric.runtime;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The directories of this JVM's embedded Aeron media drivers (aeron-udp). Aeron deletes a directory
 * it is given that exists already, recursively and following symbolic links, so a name another user
 * can guess or plant (the old {@code /dev/shm/sdm-aeron-PID}) let that user make sdm delete the
 * user's files. So each is made, exclusively and with a random name, inside a directory of the
 * user's alone ({@code /dev/shm/sdm-USER}, mode 0700, checked without following a link): nobody
 * else can put anything there, and /dev/shm's sticky bit keeps anyone else from renaming or
 * removing it. Each directory made is removed when the JVM ends (a normal exit or SIGTERM; after
 * SIGKILL it stays, inside the private directory), without following any link in it.
 */
final class AeronDirectories {
  private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Set<Path> MADE = ConcurrentHashMap.newKeySet();

  /** How long the JVM's end waits for a media driver that still runs to stop. */
  private static final java.time.Duration DRIVER_STOP = java.time.Duration.ofSeconds(5);

  static {
    Runtime.getRuntime()
        .addShutdownHook(new Thread(AeronDirectories::removeAll, "sdm-aeron-directories"));
  }

  private AeronDirectories() {}

  /** Where the private directory lives: /dev/shm (memory, as Aeron wants), else the temp dir. */
  static Path base() {
    Path shm = Path.of("/dev/shm");
    return Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
  }

  /** The user's private directory under {@code base}: {@code sdm-USER}. */
  static Path parent(Path base) {
    String user = System.getProperty("user.name").replaceAll("[^A-Za-z0-9._-]", "_");
    return base.resolve("sdm-" + user);
  }

  /**
   * A new directory for one media driver: {@code aeron-PID-RANDOM} inside {@link #parent}, made
   * here (it did not exist), to be removed when the JVM ends.
   *
   * @throws IOException when the private directory is not the user's alone or cannot be made; the
   *     message says which and why, in one line
   */
  static Path create(Path base) throws IOException {
    Path parent = parent(base);
    try {
      Files.createDirectory(parent, OWNER_ONLY);
    } catch (FileAlreadyExistsException e) {
      // The user's from an earlier session, or planted: checked next.
    }
    check(parent);
    byte[] random = new byte[16];
    RANDOM.nextBytes(random);
    Path dir =
        parent.resolve(
            "aeron-" + ProcessHandle.current().pid() + "-" + HexFormat.of().formatHex(random));
    Files.createDirectory(dir, OWNER_ONLY);
    MADE.add(dir);
    return dir;
  }

  /**
   * Fails unless {@code dir} is a directory (not a link) owned by the user and closed to others.
   */
  private static void check(Path dir) throws IOException {
    PosixFileAttributes attributes =
        Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    String me = System.getProperty("user.name");
    if (!attributes.isDirectory()) {
      throw new IOException(
          dir
              + " is not a directory (a symbolic link is not followed): remove it, it is not sdm's");
    }
    if (!attributes.owner().getName().equals(me)) {
      throw new IOException(
          dir
              + " is owned by "
              + attributes.owner().getName()
              + ", not by "
              + me
              + ": another user made it first (ask them or root to remove it)");
    }
    if (attributes.permissions().stream()
        .anyMatch(p -> p.name().startsWith("GROUP") || p.name().startsWith("OTHERS"))) {
      throw new IOException(
          dir
              + " has mode "
              + PosixFilePermissions.toString(attributes.permissions())
              + ", not rwx------ (fix it with: chmod 700 "
              + dir
              + ")");
    }
  }

  /**
   * Removes the directories this JVM made that are still there, following no link. An actor system
   * stopping at the same time (its own shutdown hook) removes its directory itself once its media
   * driver has stopped; one whose driver is still running gets {@link #DRIVER_STOP} to stop before
   * its files go.
   */
  static void removeAll() {
    long deadline = System.nanoTime() + DRIVER_STOP.toNanos();
    for (Path dir : MADE) {
      try {
        while (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
            && System.nanoTime() < deadline
            && io.aeron.CommonContext.isDriverActive(dir.toFile(), 500, line -> {})) {
          Thread.sleep(50);
        }
        remove(dir);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (IOException e) {
        System.err.println("sdm: could not remove the Aeron directory " + dir + ": " + e);
      }
    }
  }

  /** Removes {@code dir} and what it holds; a link in it is removed, never followed. */
  static void remove(Path dir) throws IOException {
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.walkFileTree(
        dir,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.deleteIfExists(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE;
            }
            throw e;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
            Files.deleteIfExists(d);
            return FileVisitResult.CONTINUE;
          }
        });
  }
}
