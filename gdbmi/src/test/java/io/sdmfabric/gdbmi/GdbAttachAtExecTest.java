package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.ProgramInfo;
import io.sdmfabric.model.StopReason;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Attaching to a process that stopped itself just before exec'ing the program, the way a job's
 * launcher starts ranks under sdm: the program is then debugged as if gdb had loaded it.
 */
@Tag("gdb")
class GdbAttachAtExecTest {
  private Process shim;
  private GdbDebugger gdb;

  @BeforeAll
  static void needsGdbAndGcc() {
    TestPrograms.assumeGdbAndGcc();
  }

  @AfterEach
  void cleanUp() {
    if (gdb != null) {
      gdb.close();
    }
    if (shim != null) {
      shim.destroyForcibly();
    }
  }

  /** Starts {@code program} under a shell that stops itself, then execs it; waits for the stop. */
  private Process stoppedBeforeExec(String program) throws Exception {
    Process p =
        new ProcessBuilder("sh", "-c", "kill -STOP $$; exec \"$@\"", "shim", program)
            .redirectErrorStream(true)
            .start();
    for (int i = 0; i < 500 && !stopped(p.pid()); i++) {
      Thread.sleep(10);
    }
    assertTrue(stopped(p.pid()), "the shim did not stop itself");
    return p;
  }

  private static boolean stopped(long pid) throws Exception {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    return stat.substring(stat.lastIndexOf(')') + 2).startsWith("T");
  }

  @Test
  void attachesAtTheExecAndDebugsTheProgramFromItsStart() throws Exception {
    String program = TestPrograms.get("values").toString();
    shim = stoppedBeforeExec(program);
    gdb = GdbDebugger.start();
    EventRecorder events = new EventRecorder();
    gdb.subscribe(events);

    ProgramInfo info = gdb.attachAtExec(shim.pid(), Path.of(program)).get(30, TimeUnit.SECONDS);
    assertEquals(program, info.program());
    assertTrue(info.hasDebugInfo());
    // Loading answers what was attached, whatever the spec says: the launcher started it.
    assertEquals(info, gdb.load(LaunchSpec.of("/elsewhere")).get(10, TimeUnit.SECONDS));
    assertTrue(gdb.breakpoints().get(10, TimeUnit.SECONDS).isEmpty(), "the catchpoint is gone");

    // Numbered from 1, as when gdb starts the program: the attach used up no breakpoint.
    assertEquals(1, gdb.insertBreakpoint(BreakpointSpec.at("main")).get(10, TimeUnit.SECONDS).id());
    gdb.run().get(10, TimeUnit.SECONDS);
    DebugEvent.Stopped stop = events.nextStop();
    assertEquals(StopReason.BREAKPOINT_HIT, stop.reason());
    assertEquals("main", stop.frame().function());

    gdb.resume().get(10, TimeUnit.SECONDS);
    assertEquals(0, events.nextExit().code());
    ExecutionException again = assertThrows(ExecutionException.class, () -> gdb.run().get());
    assertTrue(again.getCause().getMessage().contains("cannot be run again"), again.getMessage());
  }

  @Test
  void aStaticProgramIsCaughtAtItsExec() throws Exception {
    Path source = Path.of("src/test/resources/programs/values.c").toAbsolutePath();
    Path program = Path.of("target", "test-programs", "values-static").toAbsolutePath();
    Files.createDirectories(program.getParent());
    Process gcc =
        new ProcessBuilder("gcc", "-g", "-static", "-o", program.toString(), source.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(gcc.getInputStream().readAllBytes());
    assumeTrue(gcc.waitFor() == 0, "gcc cannot link statically here: " + out);
    shim = stoppedBeforeExec(program.toString());
    gdb = GdbDebugger.start();
    EventRecorder events = new EventRecorder();
    gdb.subscribe(events);
    gdb.attachAtExec(shim.pid(), program).get(30, TimeUnit.SECONDS);
    assertTrue(gdb.breakpoints().get(10, TimeUnit.SECONDS).isEmpty(), "the catchpoint is gone");
    gdb.insertBreakpoint(BreakpointSpec.at("main")).get(10, TimeUnit.SECONDS);
    gdb.run().get(10, TimeUnit.SECONDS);
    assertEquals("main", events.nextStop().frame().function());
  }

  @Test
  void closingKillsTheAttachedProgram() throws Exception {
    String program = TestPrograms.get("values").toString();
    shim = stoppedBeforeExec(program);
    gdb = GdbDebugger.start();
    gdb.attachAtExec(shim.pid(), Path.of(program)).get(30, TimeUnit.SECONDS);
    gdb.close();
    assertTrue(shim.waitFor(10, TimeUnit.SECONDS), "the program outlived its gdb");
  }

  @Test
  void aProgramThatCannotBeExecutedFailsTheAttach() throws Exception {
    String program = "/nonexistent/program";
    shim = stoppedBeforeExec(program);
    gdb = GdbDebugger.start();
    ExecutionException failed =
        assertThrows(
            ExecutionException.class,
            () -> gdb.attachAtExec(shim.pid(), Path.of(program)).get(30, TimeUnit.SECONDS));
    assertTrue(failed.getCause() instanceof DebuggerException, failed.toString());
    assertTrue(failed.getCause().getMessage().contains("exit code 127"), failed.getMessage());
    // gdb has seen it exit; the JVM reaps it a moment later.
    assertTrue(shim.waitFor(10, TimeUnit.SECONDS), "the shim outlived the failed exec");
  }
}
