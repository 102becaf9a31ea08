package io.sdmfabric.runtime.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The private directory of a launcher's and its PMIx server's temporary files. */
class PmixRunDirectoryTest {
  @TempDir Path outside;

  @Test
  void isTheUsersAloneAndANewOneEachTime() throws Exception {
    Path a = PmixTool.runDirectory();
    Path b = PmixTool.runDirectory();
    try {
      assertFalse(a.equals(b));
      assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(a)));
      assertTrue(a.getFileName().toString().startsWith("sdm-pmix-"), a.toString());
    } finally {
      PmixTool.deleteRunDirectory(a);
      PmixTool.deleteRunDirectory(b);
    }
  }

  @Test
  void goesWithAllInItButNotWhatALinkInItNames() throws Exception {
    Path kept = Files.writeString(outside.resolve("kept"), "not the launcher's");
    Path dir = PmixTool.runDirectory();
    Path session = Files.createDirectories(dir.resolve("prte.host.0/1/0"));
    Files.writeString(session.resolve("rendezvous"), "uri");
    Files.createSymbolicLink(dir.resolve("link"), outside);

    try {
      PmixTool.deleteRunDirectory(dir);

      assertFalse(Files.exists(dir, LinkOption.NOFOLLOW_LINKS), dir + " is left");
      assertTrue(Files.exists(kept), "a file a link named was deleted");
    } finally {
      removeLeft(dir);
    }
  }

  @Test
  void goesThoughTheLaunchersDaemonsStillRemoveTheirOwnFilesMeanwhile() throws Exception {
    Path dir = PmixTool.runDirectory();
    List<Path> files = new ArrayList<>();
    for (int d = 0; d < 20; d++) {
      Path session = Files.createDirectories(dir.resolve("prte.host." + d));
      for (int i = 0; i < 100; i++) {
        files.add(Files.writeString(session.resolve("file" + i), "x"));
      }
    }
    // The daemons' own clean-up, beside sdm's: a file may go between a listing and its deletion.
    Thread daemons =
        new Thread(
            () -> {
              for (int i = files.size() - 1; i >= 0; i--) {
                try {
                  Files.deleteIfExists(files.get(i));
                } catch (Exception gone) {
                  // Its directory went first.
                }
              }
            });
    daemons.start();
    try {
      PmixTool.deleteRunDirectory(dir);
      daemons.join();
      assertFalse(Files.exists(dir, LinkOption.NOFOLLOW_LINKS), dir + " is left");
    } finally {
      daemons.join();
      removeLeft(dir);
    }
  }

  /** What a failed test left in the shared temporary directory, not to leave it there. */
  private static void removeLeft(Path dir) throws Exception {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (var all = Files.walk(dir)) {
      all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Test
  void nothingIsDoneForNoDirectory() {
    PmixTool.deleteRunDirectory(null);
    PmixTool.deleteRunDirectory(outside.resolve("never-made"));
    assertTrue(Files.isDirectory(outside));
  }
}
