package io.sdmfabric.gdbmi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * Where sdm's gdbs keep the symbol indexes they build ({@code set index-cache}): {@code
 * $XDG_CACHE_HOME/sdm/gdb-index}, or {@code ~/.cache/sdm/gdb-index}, readable by its owner only. A
 * session of a thousand ranks starts dozens of gdbs that read the same libraries' debug info; with
 * the cache the first one indexes it and the others, and later sessions, load its index. gdb writes
 * each index under the library's build id, atomically (a temporary file, then a rename), so gdbs
 * that start together may share the directory. The cache grows with every library gdb has indexed
 * and is never pruned by sdm: deleting the directory is safe at any time.
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
    Path dir = base.resolve("sdm").resolve("gdb-index");
    try {
      if (!Files.isDirectory(dir)) {
        Files.createDirectories(
            dir,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      return Files.isWritable(dir) ? Optional.of(dir) : Optional.empty();
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return Optional.empty();
    }
  }
}
