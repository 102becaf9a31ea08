package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Debugger;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.ProgramInfo;
import io.sdmfabric.model.StopReason;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Attaching to a process that runs already, as {@code sdm attach} does to a job's ranks: gdb stops
 * it, debugs it, and leaves it running when it detaches, closes, dies, or its JVM ends; only kill
 * ends it. The program ({@code ticker.c}) says how many ticks it counted when it ends normally.
 */
@Tag("gdb")
class GdbAttachTest {
  /** 200 ticks of 20 ms: about four seconds of running, plus what the test holds it stopped. */
  private static final String TICKS = "200";

  private Process program;
  private CompletableFuture<String> output;
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
    if (program != null) {
      program.destroyForcibly();
    }
  }

  /** Starts the ticker and waits until it ticks in main, so that its stack shows main. */
  private void startTicker() throws Exception {
    startTicker(TestPrograms.get("ticker"));
  }

  private void startTicker(Path executable) throws Exception {
    program = new ProcessBuilder(executable.toString(), TICKS).redirectErrorStream(true).start();
    BufferedReader lines =
        new BufferedReader(new InputStreamReader(program.getInputStream(), StandardCharsets.UTF_8));
    Future<String> first = CompletableFuture.supplyAsync(() -> readLine(lines));
    assertEquals("ticking", first.get(20, TimeUnit.SECONDS));
    output = CompletableFuture.supplyAsync(() -> readLine(lines));
  }

  private static String readLine(BufferedReader lines) {
    try {
      String line = lines.readLine();
      return line == null ? "" : line;
    } catch (java.io.IOException e) {
      return "";
    }
  }

  /** The ticker ran to its end on its own: exit code 0 and every tick counted. */
  private void assertFinishesNormally() throws Exception {
    assertTrue(program.waitFor(60, TimeUnit.SECONDS), "the program did not finish");
    assertEquals(0, program.exitValue(), "the program did not exit normally");
    assertEquals("ticked " + TICKS + " times", output.get(10, TimeUnit.SECONDS));
  }

  private GdbDebugger attached(EventRecorder events) throws Exception {
    gdb = GdbDebugger.start();
    gdb.subscribe(events);
    ProgramInfo info = gdb.attach(program.pid()).get(30, TimeUnit.SECONDS);
    assertEquals(TestPrograms.get("ticker").toString(), info.program());
    assertTrue(info.hasDebugInfo());
    return gdb;
  }

  private static String failure(CompletableFuture<?> f) {
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> f.get(20, TimeUnit.SECONDS));
    assertTrue(e.getCause() instanceof DebuggerException, e.toString());
    return e.getCause().getMessage();
  }

  @Test
  void attachStopsTheProgramWhereItIsAndDetachLeavesItToFinish() throws Exception {
    startTicker();
    EventRecorder events = new EventRecorder();
    ProgramInfo info = attached(events).load(LaunchSpec.of("/elsewhere")).get(10, TimeUnit.SECONDS);
    assertEquals(TestPrograms.get("ticker").toString(), info.program(), "load answers the attach");

    List<Frame> frames = gdb.frames().get(10, TimeUnit.SECONDS);
    assertEquals("main", frames.get(frames.size() - 1).function(), frames.toString());
    assertTrue(program.isAlive());
    assertTrue(failure(gdb.run()).contains("use continue"));

    // A breakpoint stops it; detaching at the breakpoint takes it out and lets the program go.
    assertEquals(1, gdb.insertBreakpoint(BreakpointSpec.at("tick")).get(10, TimeUnit.SECONDS).id());
    gdb.resume().get(10, TimeUnit.SECONDS);
    DebugEvent.Stopped stop = events.nextStop();
    assertEquals(StopReason.BREAKPOINT_HIT, stop.reason());
    assertEquals("tick", stop.frame().function());

    gdb.detach().get(10, TimeUnit.SECONDS);
    assertEquals(Debugger.DETACHED, failure(gdb.frames()));
    assertEquals(Debugger.DETACHED, failure(gdb.resume()));
    assertEquals(Debugger.DETACHED, failure(gdb.load(LaunchSpec.of("/elsewhere"))));
    assertEquals(Debugger.DETACHED, failure(gdb.detach()));
    assertTrue(gdb.driver().isAlive(), "gdb stays, without a program");
    assertFinishesNormally();
    assertThrows(AssertionError.class, () -> events.next(Duration.ofMillis(200)), "no event");
  }

  /**
   * gdb 13 can die here of a SIGTERM (a failed internal assertion while it checks the condition,
   * and a core dump); closing sends none, so gdb detaches and exits with status 0.
   */
  @Test
  void anAttachSaysWhetherTheProgramItselfHasDebugInfo() throws Exception {
    // The C library's debug info may be installed: only the program's own counts.
    startTicker(TestPrograms.withoutDebugInfo("ticker"));
    gdb = GdbDebugger.start();
    ProgramInfo info = gdb.attach(program.pid()).get(30, TimeUnit.SECONDS);
    assertEquals(TestPrograms.withoutDebugInfo("ticker").toString(), info.program());
    assertFalse(info.hasDebugInfo());
    gdb.detach().get(10, TimeUnit.SECONDS);
    assertFinishesNormally();
  }

  @Test
  void closingDetachesFromARunningProgramAndNeverKillsIt() throws Exception {
    startTicker();
    attached(new EventRecorder());
    gdb.insertBreakpoint(BreakpointSpec.at("tick").withCondition("ticks < 0"))
        .get(10, TimeUnit.SECONDS);
    gdb.resume().get(10, TimeUnit.SECONDS);
    gdb.close();
    assertFalse(gdb.driver().isAlive());
    assertEquals(OptionalInt.of(0), gdb.driver().exitValue(), "gdb did not exit with status 0");
    assertFinishesNormally();
  }

  @Test
  void killEndsTheAttachedProgram() throws Exception {
    startTicker();
    EventRecorder events = new EventRecorder();
    attached(events).kill().get(10, TimeUnit.SECONDS);
    assertEquals("SIGKILL", events.nextExit().signal());
    assertTrue(program.waitFor(10, TimeUnit.SECONDS), "the program outlived kill");
    assertEquals(128 + 9, program.exitValue());
  }

  @Test
  void whenGdbDiesTheProgramRunsOn() throws Exception {
    startTicker();
    EventRecorder events = new EventRecorder();
    attached(events);
    ProcessHandle.of(gdb.driver().pid()).ifPresent(ProcessHandle::destroyForcibly);
    DebugEvent ended = events.next(Duration.ofSeconds(20));
    assertTrue(ended instanceof DebugEvent.DebuggerEnded, ended.toString());
    assertFinishesNormally();
  }

  @Test
  void aProcessThatIsNotThereCannotBeAttached() throws Exception {
    startTicker();
    program.destroyForcibly();
    program.waitFor(10, TimeUnit.SECONDS);
    gdb = GdbDebugger.start();
    String why = failure(gdb.attach(program.pid()));
    assertTrue(why.contains("No such process"), why);
  }

  @Test
  void aProgramSdmStartedIsNotDetachedFrom() throws Exception {
    gdb = GdbDebugger.start();
    gdb.load(LaunchSpec.of(TestPrograms.get("ticker").toString())).get(10, TimeUnit.SECONDS);
    gdb.insertBreakpoint(BreakpointSpec.at("main")).get(10, TimeUnit.SECONDS);
    EventRecorder events = new EventRecorder();
    gdb.subscribe(events);
    gdb.run().get(10, TimeUnit.SECONDS);
    events.nextStop();
    assertTrue(failure(gdb.detach()).contains("kill ends it"));
  }

  @Test
  void aJvmThatExitsWithoutClosingLeavesTheStoppedProgramRunning() throws Exception {
    assertTheProgramOutlivesItsJvm("stopped-exit", false);
  }

  @Test
  void aJvmThatExitsWithoutClosingLeavesTheRunningProgramRunning() throws Exception {
    assertTheProgramOutlivesItsJvm("running-exit", false);
  }

  @Test
  void aJvmKilledWithSigkillLeavesTheRunningProgramRunning() throws Exception {
    assertTheProgramOutlivesItsJvm("running-wait", true);
  }

  /** A JVM attaches, then ends: gdb must end too, and the program must finish on its own. */
  private void assertTheProgramOutlivesItsJvm(String mode, boolean kill) throws Exception {
    startTicker();
    Process child =
        new ProcessBuilder(
                java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                AttachWithoutClose.class.getName(),
                Long.toString(program.pid()),
                mode)
            .redirectErrorStream(true)
            .start();
    try {
      BufferedReader lines =
          new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      String gdbPid = "";
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.matches("\\d+")) {
          gdbPid = line;
          break;
        }
      }
      assertFalse(gdbPid.isEmpty(), "the child printed no pid");
      if (kill) {
        child.destroyForcibly();
      }
      assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM did not exit");
      Optional<ProcessHandle> g = ProcessHandle.of(Long.parseLong(gdbPid));
      if (g.isPresent()) {
        g.get().onExit().get(10, TimeUnit.SECONDS);
      }
      assertFinishesNormally();
    } finally {
      child.destroyForcibly();
    }
  }
}
