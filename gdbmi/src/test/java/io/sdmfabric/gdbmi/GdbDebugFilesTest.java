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
