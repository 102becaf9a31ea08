package io.sdmfabric.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Aeron media driver's directory against another local user who plants directories and links
 * where sdm makes it (issue 25, item 2): here under a base of the test's own, as /dev/shm is.
 */
class AeronDirectoriesTest {
  private Path base;
  private Path victim;

  @BeforeEach
  void makeBaseAndTheUsersFiles() throws IOException {
    base = Files.createTempDirectory(AeronDirectories.base(), "sdm-test-base-");
    victim = Files.createTempDirectory(Path.of("target"), "victim-").toAbsolutePath();
    Files.writeString(victim.resolve("precious"), "the user's file");
  }

  @AfterEach
  void removeThem() throws IOException {
    new ProcessBuilder("rm", "-rf", base.toString(), victim.toString()).start();
  }

  private void assertVictimIntact() {
    assertTrue(Files.exists(victim.resolve("precious")), "the user's file was deleted");
  }

  @Test
  void eachDirectoryIsNewPrivateUnguessableAndItsRemovalFollowsNoLink() throws Exception {
    Path one = AeronDirectories.create(base);
    Path two = AeronDirectories.create(base);
    Path parent = AeronDirectories.parent(base);
    assertEquals(parent, one.getParent());
    assertNotEquals(one, two);
    assertTrue(
        one.getFileName().toString().matches("aeron-" + ProcessHandle.current().pid() + "-\\w{32}"),
        one.toString());
    assertEquals(
        "rwx------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(parent, LinkOption.NOFOLLOW_LINKS)));
    assertEquals(
        "rwx------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(one, LinkOption.NOFOLLOW_LINKS)));
    // Whatever is in it when it goes, a link to the user's files included, only it goes.
    Files.createSymbolicLink(one.resolve("link"), victim);
    Files.createDirectory(one.resolve("sub"));
    Files.createSymbolicLink(one.resolve("sub").resolve("link"), victim.resolve("precious"));
    AeronDirectories.remove(one);
    assertFalse(Files.exists(one, LinkOption.NOFOLLOW_LINKS));
    assertVictimIntact();
    assertTrue(Files.isDirectory(two));
  }

  @Test
  void aPrivateDirectoryThatIsALinkOrOpenToOthersIsRefusedSayingWhyAndNothingIsDeleted()
      throws Exception {
    Path parent = AeronDirectories.parent(base);
    Files.createSymbolicLink(parent, victim);
    IOException link = assertThrows(IOException.class, () -> AeronDirectories.create(base));
    assertTrue(link.getMessage().contains("is not a directory"), link.getMessage());
    assertEquals(1, link.getMessage().lines().count());
    assertVictimIntact();
    assertEquals(1, Files.list(victim).count(), "something was made through the link");

    Files.delete(parent);
    Files.createDirectory(parent);
    Files.setPosixFilePermissions(parent, PosixFilePermissions.fromString("rwxrwxrwx"));
    IOException open = assertThrows(IOException.class, () -> AeronDirectories.create(base));
    assertTrue(open.getMessage().contains("has mode rwxrwxrwx"), open.getMessage());
    assertEquals(0, Files.list(parent).count());
  }

  @Test
  void aPrivateDirectoryAnotherUserMadeFirstIsRefusedAndWhatItHoldsIsNotTouched() throws Exception {
    assumeTrue(
        System.getProperty("user.name").equals("root"), "needs root to plant as another user");
    Path parent = AeronDirectories.parent(base);
    Files.createDirectory(
        parent, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Files.createSymbolicLink(parent.resolve("link"), victim);
    Process chown = new ProcessBuilder("chown", "-R", "-h", "nobody", parent.toString()).start();
    assertEquals(0, chown.waitFor());
    IOException e = assertThrows(IOException.class, () -> AeronDirectories.create(base));
    assertTrue(e.getMessage().contains("is owned by nobody, not by root"), e.getMessage());
    assertVictimIntact();
    assertEquals(1, Files.list(parent).count());
  }
}
