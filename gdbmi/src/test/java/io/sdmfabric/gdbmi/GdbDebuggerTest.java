package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.SignalAction;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.model.WatchKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The Debugger SPI on real gdb 13, against the C programs of the test resources. */
@Tag("gdb")
class GdbDebuggerTest {
  private GdbDebugger gdb;
  private final EventRecorder events = new EventRecorder();

  @BeforeAll
  static void needsGdbAndGcc() {
    TestPrograms.assumeGdbAndGcc();
  }

  @BeforeEach
  void startGdb() throws IOException {
    gdb = GdbDebugger.start();
    gdb.subscribe(events);
  }

  @AfterEach
  void closeGdb() {
    gdb.close();
  }

  private static <T> T get(CompletableFuture<T> f) throws Exception {
    try {
      return f.get(20, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }

  private void load(String program, String... args) throws Exception {
    get(gdb.load(LaunchSpec.of(TestPrograms.get(program).toString(), args)));
  }

  private DebugEvent.Stopped runTo(String location) throws Exception {
    get(gdb.insertBreakpoint(BreakpointSpec.at(location)));
    get(gdb.run());
    return events.nextStop();
  }

  @Test
  void runsToABreakpointAndReportsWhereItStopped() throws Exception {
    load("values");
    Breakpoint b = get(gdb.insertBreakpoint(BreakpointSpec.at("main")));
    assertEquals(Breakpoint.Kind.BREAKPOINT, b.kind());
    assertEquals("values.c", b.file());
    get(gdb.run());
    DebugEvent.Stopped stop = events.nextStop();
    assertEquals(StopReason.BREAKPOINT_HIT, stop.reason());
    assertEquals(b.id(), stop.breakpointId());
    assertEquals("main", stop.frame().function());
    assertEquals("values.c", stop.frame().file());
    assertTrue(stop.frame().line() > 0);
    assertEquals(1, stop.threadId());
  }

  @Test
  void conditionAndIgnoreCountSelectTheHit() throws Exception {
    load("values");
    // square(3) is called from main, then again from twice(3); skip the first hit.
    get(
        gdb.insertBreakpoint(
            BreakpointSpec.at("square").withCondition("v == 3").withIgnoreCount(1)));
    get(gdb.run());
    events.nextStop();
    List<Frame> frames = get(gdb.frames());
    assertEquals(List.of("square", "twice", "main"), frames.stream().map(Frame::function).toList());
    assertEquals(3, get(gdb.stackDepth()));
    assertEquals("twice", get(gdb.selectFrame(1)).function());
    DebuggerException e = assertThrows(DebuggerException.class, () -> get(gdb.selectFrame(9)));
    assertEquals("No frame at level 9.", e.getMessage());
  }

  @Test
  void temporaryBreakpointIsGoneAfterItsStop() throws Exception {
    load("values");
    Breakpoint b = get(gdb.insertBreakpoint(BreakpointSpec.at("square").asTemporary()));
    assertTrue(b.temporary());
    get(gdb.run());
    assertEquals("square", events.nextStop().frame().function());
    assertTrue(get(gdb.breakpoints()).isEmpty());
    get(gdb.resume());
    assertEquals(0, events.nextExit().code());
  }

  @Test
  void disabledAndDeletedBreakpointsDoNotStop() throws Exception {
    load("values");
    Breakpoint square = get(gdb.insertBreakpoint(BreakpointSpec.at("square")));
    Breakpoint twice = get(gdb.insertBreakpoint(BreakpointSpec.at("twice")));
    get(gdb.enableBreakpoint(square.id(), false));
    assertFalse(get(gdb.breakpoints()).get(0).enabled());
    get(gdb.run());
    assertEquals("twice", events.nextStop().frame().function());
    get(gdb.deleteBreakpoint(twice.id()));
    get(gdb.enableBreakpoint(square.id(), true));
    get(gdb.resume());
    assertEquals("square", events.nextStop().frame().function());
    assertEquals(
        List.of(square.id()), get(gdb.breakpoints()).stream().map(Breakpoint::id).toList());
  }

  @Test
  void watchpointStopsWhenTheValueChanges() throws Exception {
    load("values");
    runTo("main");
    // A software watchpoint: some virtual machines (this project's CI kind among them) give gdb
    // hardware watchpoints that never trigger. What is tested is sdm's side: the stop and its id.
    get(gdb.cli("set can-use-hw-watchpoints 0"));
    Breakpoint w = get(gdb.insertWatchpoint("counter", WatchKind.WRITE));
    assertEquals(Breakpoint.Kind.WATCHPOINT, w.kind());
    assertEquals("counter", w.location());
    get(gdb.resume());
    DebugEvent.Stopped stop = events.nextStop();
    assertEquals(StopReason.WATCHPOINT_TRIGGER, stop.reason());
    assertEquals(w.id(), stop.breakpointId());
    assertEquals("22", get(gdb.evaluate("counter")).text());
  }

  @Test
  void stepsIntoOverAndOutOfCalls() throws Exception {
    load("values");
    assertEquals(37, runTo("values.c:37").frame().line());
    get(gdb.step(StepKind.INTO));
    DebugEvent.Stopped in = events.nextStop();
    assertEquals(StopReason.END_STEPPING_RANGE, in.reason());
    assertEquals("square", in.frame().function());
    assertEquals(21, in.frame().line());
    get(gdb.step(StepKind.RETURN));
    DebugEvent.Stopped out = events.nextStop();
    assertEquals(StopReason.FUNCTION_FINISHED, out.reason());
    assertEquals("main", out.frame().function());
    get(gdb.step(StepKind.OVER));
    DebugEvent.Stopped over = events.nextStop();
    assertEquals("main", over.frame().function());
    assertEquals(38, over.frame().line());
  }

  @Test
  void evaluatesExpressionsIntoTypedValues() throws Exception {
    load("values");
    runTo("values.c:37");
    Value p = get(gdb.evaluate("p"));
    assertEquals("point_t", p.type());
    assertEquals(Value.Kind.STRUCT, p.kind());
    assertEquals(3, p.childCount());
    assertEquals("3", p.child("x").orElseThrow().text());
    assertEquals(Value.Kind.INTEGER, p.child("x").orElseThrow().kind());
    assertEquals(Value.Kind.FLOAT, p.child("y").orElseThrow().kind());
    assertEquals(Value.Kind.ARRAY, p.child("name").orElseThrow().kind());
    assertTrue(p.text().startsWith("{x = 3, y = 2.5"), p.text());
    assertTrue(p.size() >= 20, "sizeof(point_t) = " + p.size());

    Value l = get(gdb.evaluate("l"));
    assertEquals("2", l.child("to").orElseThrow().child("x").orElseThrow().text());

    Value arr = get(gdb.evaluate("arr"));
    assertEquals(Value.Kind.ARRAY, arr.kind());
    assertEquals(List.of("1", "2", "3", "4"), arr.children().stream().map(Value::text).toList());
    assertEquals(16, arr.size());

    assertEquals(Value.Kind.POINTER, get(gdb.evaluate("ptr")).kind());
    assertEquals("2", get(gdb.evaluate("*ptr")).text());
    assertEquals(Value.Kind.ENUM, get(gdb.evaluate("c")).kind());
    assertEquals("BLUE", get(gdb.evaluate("c")).text());
    assertEquals(Value.Kind.BOOL, get(gdb.evaluate("flag")).kind());
    assertEquals(Value.Kind.FLOAT, get(gdb.evaluate("f")).kind());
    assertEquals(4, get(gdb.evaluate("f")).size());
    assertEquals(Value.Kind.CHAR, get(gdb.evaluate("letter")).kind());
    assertEquals(Value.Kind.INTEGER, get(gdb.evaluate("big")).kind());
    assertEquals(8, get(gdb.evaluate("big")).size());
    Value greeting = get(gdb.evaluate("greeting"));
    assertEquals(Value.Kind.STRING, greeting.kind());
    assertTrue(greeting.text().endsWith("\"hello\""), greeting.text());
    assertEquals("point_t", get(gdb.typeOf("p")));
    assertEquals("int *", get(gdb.typeOf("ptr")));
  }

  @Test
  void listsLocalsAndArgumentsSeparately() throws Exception {
    load("values");
    runTo("square");
    assertEquals(List.of("v"), get(gdb.arguments()).stream().map(Value::name).toList());
    assertEquals("3", get(gdb.arguments()).get(0).text());
    assertEquals(List.of("result"), get(gdb.locals()).stream().map(Value::name).toList());
    get(gdb.selectFrame(1));
    List<Value> mainLocals = get(gdb.locals());
    Value p = mainLocals.stream().filter(v -> v.name().equals("p")).findFirst().orElseThrow();
    assertEquals(Value.Kind.STRUCT, p.kind());
  }

  @Test
  void listsGlobalsWithTheirValues() throws Exception {
    load("values");
    runTo("main");
    List<Value> globals = get(gdb.globals());
    assertEquals(List.of("counter", "greeting"), globals.stream().map(Value::name).toList());
    assertEquals("7", globals.get(0).text());
    assertEquals(Value.Kind.INTEGER, globals.get(0).kind());
    assertEquals(Value.Kind.STRING, globals.get(1).kind());
  }

  @Test
  void gdbErrorsReachTheCallerIntact() throws Exception {
    load("values");
    runTo("main");
    DebuggerException e =
        assertThrows(DebuggerException.class, () -> get(gdb.evaluate("no_such_variable")));
    assertEquals("No symbol \"no_such_variable\" in current context.", e.getMessage());
    DebuggerException notRunning =
        assertThrows(
            DebuggerException.class,
            () -> get(gdb.step(StepKind.RETURN).thenCompose(x -> gdb.step(StepKind.RETURN))));
    assertTrue(notRunning.getMessage().contains("outermost frame"), notRunning.getMessage());
  }

  @Test
  void listsAndSelectsThreads() throws Exception {
    load("threads");
    runTo("threads.c:9");
    List<ThreadInfo> threads = get(gdb.threads());
    assertTrue(threads.size() >= 2, threads.toString());
    assertTrue(threads.stream().allMatch(ThreadInfo::stopped));
    ThreadInfo other = threads.get(threads.size() - 1);
    assertEquals(other.id(), get(gdb.selectThread(other.id())).id());
    assertFalse(get(gdb.frames()).isEmpty());
  }

  @Test
  void reportsSignalsAndObeysHandle() throws Exception {
    load("signals");
    List<SignalInfo> signals = get(gdb.signals());
    SignalInfo segv =
        signals.stream().filter(s -> s.name().equals("SIGSEGV")).findFirst().orElseThrow();
    assertTrue(segv.stop() && segv.print() && segv.pass());
    assertEquals("Segmentation fault", segv.description());
    get(gdb.run());
    DebugEvent.Stopped usr1 = events.nextStop();
    assertEquals(StopReason.SIGNAL_RECEIVED, usr1.reason());
    assertEquals("SIGUSR1", usr1.signal());

    List<SignalInfo> changed =
        get(gdb.handleSignal("SIGUSR1", EnumSet.of(SignalAction.NOSTOP, SignalAction.NOPRINT)));
    assertEquals(
        List.of(new SignalInfo("SIGUSR1", false, false, true, "User defined signal 1")), changed);
  }

  @Test
  void interruptStopsASpinningProgram() throws Exception {
    load("signals");
    get(gdb.handleSignal("SIGUSR1", EnumSet.of(SignalAction.NOSTOP, SignalAction.NOPRINT)));
    get(gdb.run());
    events.awaitOutput("got 10", Duration.ofSeconds(20));
    get(gdb.interrupt());
    DebugEvent.Stopped stop = events.nextStop();
    assertEquals(StopReason.INTERRUPTED, stop.reason());
    // In its loop, or rarely still returning from the write of "got 10" (seen once: the output
    // can reach the terminal before the write call returns).
    assertTrue(
        get(gdb.frames()).stream().anyMatch(f -> f.function().equals("main")), stop.toString());
  }

  @Test
  void anInterruptThatLandsOnAHelperThreadShowsTheMainThread() throws Exception {
    interruptingAHelperThreadShowsTheMainThread();
  }

  /** Interrupts helper_thread: its stop is shown where the main thread stands, not the helper. */
  private void interruptingAHelperThreadShowsTheMainThread() throws Exception {
    load("helper_thread");
    get(gdb.run());
    events.awaitOutput("ready", Duration.ofSeconds(20));
    get(gdb.interrupt());
    DebugEvent.Stopped stop = events.nextStop();
    assertEquals(StopReason.INTERRUPTED, stop.reason());
    assertEquals(1, stop.threadId());
    List<Frame> frames = get(gdb.frames());
    assertTrue(frames.stream().anyMatch(f -> f.function().equals("main")), frames.toString());
    // Sleeping in main's loop, where the helper is in pause.
    assertEquals(frames.get(0), stop.frame());
  }

  /**
   * gdb reports the stops of an interrupt's threads in the order they stop; in an MPI rank a
   * progress thread often stops first, while the main thread still runs. Here a filter on a real
   * gdb's output holds back the main thread's stop until the helper's has been read, when gdb does
   * not report the helper's first anyway: the stop is still shown where the main thread stands.
   */
  @Test
  void anInterruptWhoseHelperThreadStopsFirstShowsTheMainThreadWhereItStops(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path helperFirst = dir.resolve("gdb-reporting-the-helper-first");
    java.nio.file.Files.writeString(
        helperFirst,
        "#!/bin/bash\n"
            + "exec gdb \"$@\" > >(exec sed -u '"
            // main's stop, unless the helper's has been seen: held (the hold space has it)
            + "/^[*]stopped,reason=\"signal-received\",signal-name=\"0\".*thread-id=\"1\"/"
            + "{x;/^SEEN$/{x;b;};x;h;d}\n"
            // the helper's stop: printed, then main's if held; from now on nothing is held
            + "/^[*]stopped,.*thread-id=\"2\"/{x;/^[*]/{x;G;p;s/.*/SEEN/;x;d};s/.*/SEEN/;x}')\n");
    java.nio.file.Files.setPosixFilePermissions(
        helperFirst, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    gdb.close();
    gdb = GdbDebugger.start(GdbOptions.defaults().withExecutable(helperFirst.toString()));
    gdb.subscribe(events);
    interruptingAHelperThreadShowsTheMainThread();
  }

  @Test
  void segfaultStopsInTheFaultingFrameThenEndsTheProgram() throws Exception {
    load("crash");
    get(gdb.run());
    DebugEvent.Stopped stop = events.nextStop();
    assertEquals(StopReason.SIGNAL_RECEIVED, stop.reason());
    assertEquals("SIGSEGV", stop.signal());
    assertEquals("deref", stop.frame().function());
    assertEquals(4, stop.frame().line());
    assertEquals(
        List.of("deref", "compute", "main"),
        get(gdb.frames()).stream().map(Frame::function).toList());
    get(gdb.resume());
    DebugEvent.Exited exit = events.nextExit();
    assertTrue(exit.signalled());
    assertEquals("SIGSEGV", exit.signal());
  }

  @Test
  void programInputAndOutputGoThroughItsTerminal() throws Exception {
    load("echo");
    get(gdb.run());
    gdb.writeInput("one\n".getBytes(StandardCharsets.UTF_8));
    events.awaitOutput("echo: one\n", Duration.ofSeconds(20));
    gdb.writeInput("two words\n".getBytes(StandardCharsets.UTF_8));
    events.awaitOutput("echo: two words\n", Duration.ofSeconds(20));
    gdb.writeInput(new byte[] {4}); // ^D: end of file on a terminal
    String all = events.awaitOutput("bye\n", Duration.ofSeconds(20));
    assertEquals("echo: one\necho: two words\nbye\n", all);
    assertEquals(0, events.nextExit().code());
  }

  @Test
  void reportsTheExitCode() throws Exception {
    load("values", "with an argument");
    get(gdb.run());
    assertEquals(3, events.nextExit().code());
  }

  @Test
  void argumentsEnvironmentAndWorkingDirectoryReachTheProgram() throws Exception {
    LaunchSpec spec =
        new LaunchSpec(
            "/bin/sh",
            List.of("-c", "echo \"$0|$SDM_TEST|$(pwd)\"", "it's a b"),
            java.util.Map.of("SDM_TEST", "x y"),
            java.nio.file.Path.of("/tmp"));
    get(gdb.load(spec));
    get(gdb.run());
    String out = events.awaitOutput("\n", Duration.ofSeconds(20));
    assertEquals("it's a b|x y|/tmp\n", out);
  }

  @Test
  void readsAndWritesMemory() throws Exception {
    load("values");
    runTo("main");
    assertArrayEquals(new byte[] {7, 0, 0, 0}, get(gdb.readMemory("&counter", 4)));
    get(gdb.writeMemory("&counter", new byte[] {42, 0, 0, 0}));
    assertEquals("42", get(gdb.evaluate("counter")).text());
    assertThrows(DebuggerException.class, () -> get(gdb.readMemory("0", 4)));
  }

  @Test
  void passesCliCommandsThrough() throws Exception {
    load("values");
    get(gdb.insertBreakpoint(BreakpointSpec.at("square")));
    String out = get(gdb.cli("info breakpoints"));
    assertTrue(out.contains("in square at"), out);
    DebuggerException e = assertThrows(DebuggerException.class, () -> get(gdb.cli("frobnicate")));
    assertTrue(e.getMessage().contains("Undefined command: \"frobnicate\""), e.getMessage());
  }

  @Test
  void killEndsTheProgramAndItCanRunAgain() throws Exception {
    load("values");
    runTo("main");
    long pid = gdb.driver().inferiorPid().orElseThrow();
    get(gdb.kill());
    assertEquals("SIGKILL", events.nextExit().signal());
    assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    get(gdb.run());
    assertEquals("main", events.nextStop().frame().function());
  }

  @Test
  void tellsWhetherAProgramHasDebugInfo() throws Exception {
    assertTrue(get(gdb.load(LaunchSpec.of(TestPrograms.get("values").toString()))).hasDebugInfo());
    assertFalse(
        get(gdb.load(LaunchSpec.of(TestPrograms.withoutDebugInfo("values").toString())))
            .hasDebugInfo());
  }

  @Test
  void aMissingProgramIsGdbsError() {
    DebuggerException e =
        assertThrows(
            DebuggerException.class, () -> get(gdb.load(LaunchSpec.of("/no/such/program"))));
    assertTrue(e.getMessage().contains("No such file or directory"), e.getMessage());
  }

  @Test
  void closeEndsGdbAndTheProgram() throws Exception {
    load("values");
    runTo("main");
    ProcessHandle program =
        ProcessHandle.of(gdb.driver().inferiorPid().orElseThrow()).orElseThrow();
    ProcessHandle debugger = ProcessHandle.of(gdb.driver().pid()).orElseThrow();
    gdb.close();
    assertTrue(program.onExit().get(10, TimeUnit.SECONDS) != null);
    assertFalse(debugger.isAlive());
    assertThrows(DebuggerException.class, () -> get(gdb.frames()));
  }

  @Test
  void gdbDyingIsReportedFailsLaterCommandsWithWhyAndKillsTheProgram() throws Exception {
    load("signals");
    get(gdb.handleSignal("SIGUSR1", EnumSet.of(SignalAction.NOSTOP, SignalAction.NOPRINT)));
    get(gdb.run());
    events.awaitOutput("got", Duration.ofSeconds(20));
    ProcessHandle program =
        ProcessHandle.of(gdb.driver().inferiorPid().orElseThrow()).orElseThrow();
    ProcessHandle.of(gdb.driver().pid()).orElseThrow().destroyForcibly();
    get(gdb.driver().whenExited());
    DebugEvent ended = events.next(Duration.ofSeconds(20));
    String why = "gdb exited unexpectedly (killed by SIGKILL)";
    assertTrue(
        ended instanceof DebugEvent.DebuggerEnded d && d.reason().startsWith(why),
        ended.toString());
    DebuggerException e = assertThrows(DebuggerException.class, () -> get(gdb.frames()));
    assertTrue(e.getMessage().startsWith(why), e.getMessage());
    assertTrue(program.onExit().get(10, TimeUnit.SECONDS) != null);
  }
}
