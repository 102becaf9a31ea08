package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GdbIndexCacheTest {

  @Test
  void aMissingCacheIsMadeForItsOwnerAlone(@TempDir Path base) throws Exception {
    Optional<Path> dir = GdbIndexCache.directoryIn(base);
    assertEquals(Optional.of(base.resolve("sdm/gdb-index")), dir);
    assertEquals(
        "rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.get())));
  }

  @Test
  void aCacheOthersCouldWriteIsNotUsed(@TempDir Path base) throws Exception {
    Files.createDirectories(base.resolve("sdm/gdb-index"));
    Files.setPosixFilePermissions(
        base.resolve("sdm/gdb-index"), PosixFilePermissions.fromString("rwx------"));
    Files.setPosixFilePermissions(
        base.resolve("sdm"), PosixFilePermissions.fromString("rwxrwxrwx"));
    assertEquals(Optional.empty(), GdbIndexCache.directoryIn(base), "its parent is open to all");
  }

  @Test
  void aLinkIsNotFollowed(@TempDir Path base) throws Exception {
    Path elsewhere = Files.createDirectory(base.resolve("elsewhere"));
    Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwx------"));
    Path sdm = Files.createDirectory(base.resolve("sdm"));
    Files.setPosixFilePermissions(sdm, PosixFilePermissions.fromString("rwx------"));
    Files.createSymbolicLink(sdm.resolve("gdb-index"), elsewhere);
    assertEquals(Optional.empty(), GdbIndexCache.directoryIn(base));
    assertTrue(Files.isDirectory(elsewhere), "left alone");
  }
}
