package io.sdmfabric.runtime;

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

/**
 * The run's log file: nothing until the first line, then a file of the user's alone whose path is
 * told once; never made through a link or over a file someone planted, nor in a directory open to
 * others, and then said why, once.
 */
class LogFileTest {
  @TempDir Path tmp;

  private final List<String> told = new ArrayList<>();

  private LogFile file(Path home) {
    return new LogFile(home, "run.log", told::add);
  }

  @Test
  void theFileIsMadeWithTheFirstLineOnlyOfMode0600InADirectoryOf0700AndItsPathToldOnce()
      throws Exception {
    Path home = tmp.resolve("home");
    LogFile log = file(home);
    assertFalse(Files.exists(home), "nothing is made before a line comes");
    assertTrue(log.write("one\n"));
    assertTrue(log.write("two\n"));
    Path path = home.resolve("logs").resolve("run.log");
    assertEquals(path, log.path());
    assertEquals("one\ntwo\n", Files.readString(path));
    assertEquals("rw-------", mode(path));
    assertEquals("rwx------", mode(home.resolve("logs")));
    assertEquals("rwx------", mode(home));
    assertEquals(
        List.of(
            "sdm: library logs of this run (Pekko, Aeron) are in "
                + path
                + " (--verbose shows them here)"),
        told);
  }

  @Test
  void aLogsDirectoryThatIsALinkIsNotWrittenThroughAndWhyIsToldOnce() throws Exception {
    Path home = Files.createDirectory(tmp.resolve("home"), owner("rwx------"));
    Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"), owner("rwx------"));
    Files.createSymbolicLink(home.resolve("logs"), elsewhere);
    LogFile log = file(home);
    assertFalse(log.write("one\n"));
    assertFalse(log.write("two\n"));
    assertEquals(1, told.size(), told.toString());
    assertTrue(told.get(0).startsWith("sdm: library logs go to the console: "), told.get(0));
    assertTrue(told.get(0).contains("symbolic link"), told.get(0));
    try (var files = Files.list(elsewhere)) {
      assertEquals(0, files.count(), "nothing written through the link");
    }
  }

  @Test
  void aLinkPlantedAtTheFilesNameIsNotFollowed() throws Exception {
    Path home = Files.createDirectory(tmp.resolve("home"), owner("rwx------"));
    Path logs = Files.createDirectory(home.resolve("logs"), owner("rwx------"));
    Path precious = Files.writeString(tmp.resolve("precious"), "the user's own\n");
    Files.createSymbolicLink(logs.resolve("run.log"), precious);
    assertFalse(file(home).write("one\n"));
    assertEquals("the user's own\n", Files.readString(precious));
    assertTrue(Files.isSymbolicLink(logs.resolve("run.log")));
    assertEquals(1, told.size(), told.toString());
  }

  @Test
  void aLogsDirectoryOpenToTheGroupIsNotUsed() throws Exception {
    Path home = Files.createDirectory(tmp.resolve("home"), owner("rwx------"));
    Path logs = Files.createDirectory(home.resolve("logs"));
    Files.setPosixFilePermissions(logs, PosixFilePermissions.fromString("rwxrwx---"));
    assertFalse(file(home).write("one\n"));
    assertTrue(told.get(0).contains("chmod 700"), told.toString());
    try (var files = Files.list(logs)) {
      assertEquals(0, files.count());
    }
  }

  @Test
  void aRunsNameSaysWhenAndWhichProcess() {
    String name = LogFile.nameForThisRun();
    assertTrue(
        name.matches("sdm-\\d{8}-\\d{6}-" + ProcessHandle.current().pid() + "-[0-9a-f]{6}\\.log"),
        name);
  }

  private static java.nio.file.attribute.FileAttribute<?> owner(String mode) {
    return PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode));
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
  }
}
