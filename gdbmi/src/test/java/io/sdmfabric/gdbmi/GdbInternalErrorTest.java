package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sdmfabric.model.DebuggerException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gdb's own failures leave no core file: a failed internal assertion ends gdb with exit status 1,
 * an internal warning leaves it running. gdb runs in a temporary directory with core dumps allowed
 * (a shell raises its limit, then execs gdb), so that a core, if gdb dumped one, would land there
 * (with this machine's {@code core_pattern}, {@code core}) and never in the work tree.
 */
@Tag("gdb")
class GdbInternalErrorTest {
  @TempDir Path dir;
  private GdbDriver driver;

  @BeforeAll
  static void needsGdb() {
    assumeTrue(TestPrograms.onPath("gdb"), "gdb is not installed");
  }

  @AfterEach
  void closeGdb() {
    if (driver != null) {
      driver.close();
    }
  }

  /**
   * Starts gdb through a shell that allows it core files of any size: without that (a limit of 0,
   * the usual default), gdb would not dump core whatever its settings, and the test would prove
   * nothing.
   */
  private GdbDriver startWithCoreDumpsAllowed() throws IOException {
    String gdb = GdbOptions.defaults().executable();
    Path limit = dir.resolve("ulimit-c");
    Path shell = dir.resolve("gdb-with-core-dumps");
    Files.writeString(
        shell,
        "#!/bin/sh\n"
            + "ulimit -c unlimited 2>/dev/null || ulimit -c \"$(ulimit -H -c)\"\n"
            + "ulimit -c > "
            + quoted(limit.toString())
            + "\n"
            + "exec "
            + quoted(gdb)
            + " \"$@\"\n");
    Files.setPosixFilePermissions(shell, PosixFilePermissions.fromString("rwx------"));
    driver =
        GdbDriver.start(
            GdbOptions.defaults().withExecutable(shell.toString()).withDirectory(dir),
            new MiListener() {});
    assumeFalse(Files.readString(limit).strip().equals("0"), "core dumps cannot be allowed here");
    return driver;
  }

  private static String quoted(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }

  /**
   * Files named as the kernel names cores with this machine's {@code core_pattern}, {@code core}.
   */
  private List<Path> coreFiles() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().matches("core(\\.[0-9]+)?")).toList();
    }
  }

  @Test
  void anInternalErrorOfGdbEndsItWithoutACoreFile() throws Exception {
    GdbDriver gdb = startWithCoreDumpsAllowed();
    CompletableFuture<MiReply> reply = gdb.send("maintenance internal-error test");
    gdb.whenExited().get(30, TimeUnit.SECONDS);
    assertEquals(OptionalInt.of(1), gdb.exitValue(), "gdb did not exit with status 1");
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> reply.get(10, TimeUnit.SECONDS));
    assertTrue(e.getCause() instanceof DebuggerException, e.toString());
    assertTrue(e.getCause().getMessage().contains("exit code 1"), e.getCause().getMessage());
    assertEquals(List.of(), coreFiles());
  }

  @Test
  void anInternalWarningOfGdbLeavesItRunning() throws Exception {
    GdbDriver gdb = startWithCoreDumpsAllowed();
    gdb.send("maintenance internal-warning test").get(30, TimeUnit.SECONDS);
    assertTrue(gdb.isAlive());
    gdb.close();
    assertEquals(OptionalInt.of(0), gdb.exitValue(), "gdb did not exit with status 0");
    assertEquals(List.of(), coreFiles());
  }
}
