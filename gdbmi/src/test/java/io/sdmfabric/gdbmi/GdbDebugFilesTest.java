package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.LaunchSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Separate debug files of system libraries are read only from {@link
 * GdbOptions#debugFileDirectory}, which is empty unless the user names one; a program's own debug
 * info is read either way.
 */
@Tag("gdb")
class GdbDebugFilesTest {
  /** Where Debian's {@code libc6-dbg} puts the C library's debug file, by its build id. */
  private static final Path SYSTEM_DEBUG_FILES = Path.of("/usr/lib/debug/.build-id");

  @BeforeAll
  static void needsGdbAndGcc() {
    TestPrograms.assumeGdbAndGcc();
  }

  @Test
  void gdbReadsNoSystemDebugFileByDefault() throws Exception {
    assertEquals("", GdbOptions.defaults().debugFileDirectory());
    DebugEvent.Stopped stop = stopInTheCLibrary(GdbOptions.defaults());
    assertEquals("exit", stop.frame().function(), stop.toString());
    assertEquals("", stop.frame().file(), "no source for the C library: " + stop);
  }

  @Test
  void aNamedDirectoryGivesTheCLibraryItsSource() throws Exception {
    assumeTrue(
        Files.isDirectory(SYSTEM_DEBUG_FILES),
        "no separate debug files here (Debian: apt-get install libc6-dbg)");
    DebugEvent.Stopped stop =
        stopInTheCLibrary(GdbOptions.defaults().withDebugFileDirectory("/usr/lib/debug"));
    assertTrue(stop.frame().function().endsWith("exit"), stop.toString());
    assertFalse(stop.frame().file().isEmpty(), "the C library's source file: " + stop);
  }

  @Test
  void theProgramsOwnDebugInfoIsReadEitherWay() throws Exception {
    try (GdbDebugger gdb = GdbDebugger.start(GdbOptions.defaults())) {
      EventRecorder events = new EventRecorder();
      gdb.subscribe(events);
      get(gdb.load(LaunchSpec.of(TestPrograms.get("values").toString())));
      get(gdb.insertBreakpoint(BreakpointSpec.at("main")));
      get(gdb.run());
      assertEquals("values.c", events.nextStop().frame().file());
    }
  }

  @Test
  void aScriptPlantedBesideTheProgramIsNotRun(@TempDir Path dir) throws Exception {
    // gdb auto-loads PROGRAM-gdb.py from where its safe path allows; an empty debug-file
    // directory once let that be anywhere, from the second program of a gdb on.
    Path program = Files.copy(TestPrograms.get("values"), dir.resolve("values"));
    Path marker = dir.resolve("ran");
    Files.writeString(
        dir.resolve("values-gdb.py"), "open(" + pythonString(marker) + ", 'w').write('ran')\n");
    try (GdbDebugger gdb = GdbDebugger.start(GdbOptions.defaults())) {
      get(gdb.load(LaunchSpec.of(program.toString())));
      get(gdb.cli("add-inferior"));
      get(gdb.cli("inferior 2"));
      get(gdb.cli("file " + program));
      String scripts = get(gdb.cli("info auto-load python-scripts"));
      assertTrue(scripts.contains("values-gdb.py"), "gdb found the script: " + scripts);
    }
    assertFalse(Files.exists(marker), "a script beside the program ran in gdb");
  }

  private static String pythonString(Path p) {
    return "'" + p.toString().replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  @Test
  void aDirectoryWithAControlCharacterIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> GdbOptions.defaults().withDebugFileDirectory("/usr/lib/debug\nshell id"));
    assertTrue(e.getMessage().contains("control characters"), e.getMessage());
  }

  /** A program of the test resources stopped at its call of the C library's {@code exit}. */
  private static DebugEvent.Stopped stopInTheCLibrary(GdbOptions options) throws Exception {
    try (GdbDebugger gdb = GdbDebugger.start(options)) {
      EventRecorder events = new EventRecorder();
      gdb.subscribe(events);
      get(gdb.load(LaunchSpec.of(TestPrograms.get("exit_code").toString(), "3")));
      get(gdb.insertBreakpoint(BreakpointSpec.at("main")));
      get(gdb.run());
      events.nextStop();
      get(gdb.insertBreakpoint(BreakpointSpec.at("exit")));
      get(gdb.resume());
      return events.nextStop();
    }
  }

  private static <T> T get(CompletableFuture<T> f) throws Exception {
    return f.get(20, TimeUnit.SECONDS);
  }
}
