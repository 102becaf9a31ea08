package io.sdmfabric.runtime.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rank shim's spool, made or found safely on a node other users share. */
class RankShimTest {
  @TempDir Path tmp;

  /** Runs the shim as rank 0 of 1 for {@code spool}; its exit status and what it said. */
  private static Process shim(Path spool) throws Exception {
    ProcessBuilder b =
        new ProcessBuilder(RankShim.command(spool.toString(), "/bin/true", List.of()))
            .redirectErrorStream(true);
    b.environment().put("OMPI_COMM_WORLD_RANK", "0");
    b.environment().put("OMPI_COMM_WORLD_SIZE", "1");
    return b.start();
  }

  private static String refused(Path spool) throws Exception {
    Process p = shim(spool);
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(30, TimeUnit.SECONDS), out);
    assertEquals(127, p.exitValue(), out);
    assertTrue(out.contains("is not this user's alone"), out);
    return out;
  }

  @Test
  void aSpoolMadeByTheShimIsPrivateAndHoldsTheRanksPid() throws Exception {
    Path spool = tmp.resolve("spool");
    Process p = shim(spool);
    try {
      Path rank = spool.resolve("rank.0");
      for (int i = 0; i < 300 && !Files.exists(rank); i++) {
        Thread.sleep(100);
      }
      assertEquals(Long.toString(p.pid()), Files.readString(rank).strip());
      assertEquals(
          "rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(spool)));
    } finally {
      p.destroyForcibly(); // it stopped itself, waiting for an agent
    }
  }

  @Test
  void aSpoolThatIsALinkOrOpenToOthersIsRefusedAndNothingIsWrittenThere() throws Exception {
    Path target = Files.createDirectory(tmp.resolve("target"));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), target);
    refused(link);
    try (var files = Files.list(target)) {
      assertEquals(List.of(), files.toList());
    }
    Path open = Files.createDirectory(tmp.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    refused(open);
    assertFalse(Files.exists(open.resolve("rank.0")));
  }

  @Test
  void aSpoolAnotherUserMadeFirstIsRefused() throws Exception {
    assumeTrue(
        "root".equals(System.getProperty("user.name")),
        "only root can make a directory another user owns");
    Path theirs = Files.createDirectory(tmp.resolve("theirs"));
    Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rwx------"));
    Process chown = new ProcessBuilder("chown", "nobody", theirs.toString()).start();
    assertEquals(0, chown.waitFor());
    refused(theirs);
  }
}
