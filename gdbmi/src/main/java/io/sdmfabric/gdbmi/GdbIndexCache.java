package io.sdmfabric.gdbmi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * Where sdm's gdbs keep the symbol indexes they build ({@code set index-cache}): {@code
 * $XDG_CACHE_HOME/sdm/gdb-index}, or {@code ~/.cache/sdm/gdb-index}, readable by its owner only. A
 * session of a thousand ranks starts dozens of gdbs that read the same libraries' debug info; with
 * the cache the first one indexes it and the others, and later sessions, load its index. The
 * directory and the one holding it must be the user's alone and not links; else gdb keeps none. gdb
 * writes each index under the library's build id, atomically (a temporary file, then a rename), so
 * gdbs that start together may share the directory. The cache grows with every library gdb has
 * indexed and is never pruned by sdm: deleting the directory is safe at any time.
 */
final class GdbIndexCache {
  private GdbIndexCache() {}

  /** The directory, made if need be; empty when there is no home or it cannot be made. */
  static Optional<Path> directory() {
    String cache = System.getenv("XDG_CACHE_HOME");
    Path base;
    if (cache != null && cache.startsWith("/")) {
      base = Path.of(cache);
    } else {
      String home = System.getProperty("user.home", "");
      if (home.isEmpty() || home.equals("?")) {
        return Optional.empty();
      }
      base = Path.of(home, ".cache");
    }
    return directoryIn(base);
  }

  /** {@code BASE/sdm/gdb-index}, made if need be; empty unless it and its parent are private. */
  static Optional<Path> directoryIn(Path base) {
    Path dir = base.resolve("sdm").resolve("gdb-index");
    try {
      if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
        Files.createDirectories(
            dir,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      // gdb reads what it finds there: the directory, and the one holding it, must be this user's
      // alone, and neither a link (another user who could write an index could mislead gdb).
      return isPrivate(dir) && isPrivate(dir.getParent()) ? Optional.of(dir) : Optional.empty();
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return Optional.empty();
    }
  }

  /** Whether {@code dir} is a directory (not a link) of this user's, closed to everyone else. */
  private static boolean isPrivate(Path dir) throws IOException {
    return Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
        && Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS)
            .getName()
            .equals(System.getProperty("user.name"))
        && Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS).stream()
            .allMatch(p -> p.name().startsWith("OWNER_"));
  }
}
