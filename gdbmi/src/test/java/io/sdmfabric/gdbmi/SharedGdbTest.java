package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.model.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several programs of one real gdb, each a rank of its own: each stops, runs, steps and ends on its
 * own, sees only its own breakpoints and threads, numbered from 1, and has its own arguments,
 * environment and terminal.
 */
@Tag("gdb")
class SharedGdbTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private final List<GdbDebugger> ranks = new ArrayList<>();
  private final List<EventRecorder> events = new ArrayList<>();
  private SharedGdb gdb;

  @BeforeAll
  static void needsGdbAndGcc() {
    TestPrograms.assumeGdbAndGcc();
  }

  @AfterEach
  void closeAll() {
    ranks.forEach(GdbDebugger::close);
  }

  /** {@code n} programs of one gdb, each loaded with {@code program}, rank r with SDM_RANK=r. */
  private void start(int n, String program, String... args) throws Exception {
    gdb = SharedGdb.start(GdbOptions.defaults());
    for (int r = 0; r < n; r++) {
      GdbDebugger rank = addRank();
      get(
          rank.load(
              new LaunchSpec(
                  TestPrograms.get(program).toString(),
                  List.of(args),
                  Map.of("SDM_RANK", Integer.toString(r)),
                  Path.of("").toAbsolutePath())));
    }
  }

  /** One more program of {@link #gdb}, its events recorded. */
  private GdbDebugger addRank() throws java.io.IOException {
    GdbDebugger rank = gdb.add();
    EventRecorder recorder = new EventRecorder();
    rank.subscribe(recorder);
    ranks.add(rank);
    events.add(recorder);
    return rank;
  }

  private static <T> T get(CompletableFuture<T> f) throws Exception {
    try {
      return f.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }

  /**
   * Launched ranks read their libraries' symbols when they stop, not as the libraries load: a
   * breakpoint in the C library set while they are stopped in main finds it in each.
   */
  @Test
  void aBreakpointInALibrarySetWhileTheRanksAreStoppedStopsEachThere() throws Exception {
    start(2, "echo");
    for (GdbDebugger r : ranks) {
      get(r.insertBreakpoint(BreakpointSpec.at("main")));
      get(r.run());
    }
    for (EventRecorder e : events) {
      assertEquals("main", e.nextStop().frame().function());
    }
    for (GdbDebugger r : ranks) {
      get(r.insertBreakpoint(BreakpointSpec.at("fgets")));
      get(r.resume());
    }
    for (EventRecorder e : events) {
      DebugEvent.Stopped stop = e.nextStop();
      assertEquals(StopReason.BREAKPOINT_HIT, stop.reason());
      assertTrue(stop.frame().function().contains("fgets"), stop.toString());
    }
  }

  @Test
  void aBreakpointOfSomeRanksStopsThoseOnlyAndEachRankNumbersItsOwnFrom1() throws Exception {
    start(3, "values");
    Breakpoint b = get(ranks.get(1).insertBreakpoint(BreakpointSpec.at("square")));
    assertEquals(1, b.id());
    assertEquals("values.c", b.file());
    assertEquals("", b.condition(), "the rank's own condition is not shown");
    Breakpoint main2 = get(ranks.get(2).insertBreakpoint(BreakpointSpec.at("main")));
    assertEquals(1, main2.id(), "rank 2 numbers its own breakpoints");
    assertEquals(List.of(), get(ranks.get(0).breakpoints()));
    assertEquals(List.of(1), get(ranks.get(1).breakpoints()).stream().map(Breakpoint::id).toList());

    for (GdbDebugger r : ranks) {
      get(r.run());
    }
    assertEquals("", events.get(0).nextExit().signal(), "rank 0 has no breakpoint: it ends");
    DebugEvent.Stopped atSquare = events.get(1).nextStop();
    assertEquals(StopReason.BREAKPOINT_HIT, atSquare.reason());
    assertEquals("square", atSquare.frame().function());
    assertEquals(1, atSquare.breakpointId());
    assertEquals(1, atSquare.threadId());
    DebugEvent.Stopped atMain = events.get(2).nextStop();
    assertEquals("main", atMain.frame().function());
    // Each rank's frames are its own, while another rank of the same gdb is stopped elsewhere.
    assertEquals("square", get(ranks.get(1).frames()).get(0).function());
    assertEquals("main", get(ranks.get(2).frames()).get(0).function());
    assertEquals(1, get(ranks.get(1).breakpoints()).get(0).hits());

    get(ranks.get(2).resume());
    events.get(2).nextExit();
    get(ranks.get(1).deleteBreakpoint(1));
    get(ranks.get(1).resume());
    events.get(1).nextExit();
  }

  @Test
  void aCommandForOneWholeRankLeavesTheNextCommandOfAnotherRankInThatRanksOwnProgram()
      throws Exception {
    // gdb 13 picks, for a command naming a whole program (--thread-group), the thread selected
    // before if it is stopped, though it is another program's, and keeps that program's symbols
    // selected: the other rank's next command (--thread) then read its memory with them.
    start(2, "values");
    for (GdbDebugger r : ranks) {
      get(r.insertBreakpoint(BreakpointSpec.at("main")));
      get(r.run());
    }
    events.get(0).nextStop();
    events.get(1).nextStop();
    String own = get(ranks.get(1).evaluate("$_inferior")).text();
    assertFalse(own.equals(get(ranks.get(0).evaluate("$_inferior")).text()));
    get(ranks.get(1).evaluate("$_inferior")); // rank 1's thread is gdb's selected one
    get(ranks.get(0).interrupt()); // a command for rank 0 as a whole (its threads are stopped)
    assertEquals(own, get(ranks.get(1).evaluate("$_inferior")).text());
    for (GdbDebugger r : ranks) {
      get(r.resume());
    }
    events.get(0).nextExit();
    events.get(1).nextExit();
  }

  @Test
  void ranksThatSetABreakpointAlikeShareOneOfGdbsYetEachEnablesDeletesAndCountsItsOwn()
      throws Exception {
    start(4, "values");
    for (GdbDebugger r : ranks) {
      Breakpoint b = get(r.insertBreakpoint(BreakpointSpec.at("square")));
      assertEquals(1, b.id());
      assertEquals(21, b.line());
      assertTrue(b.enabled());
    }
    assertEquals(1, gdbBreakpoints(), "one breakpoint of gdb's for the four ranks");
    // Rank 1 sets it once more: a second breakpoint of its own, as in a gdb of its own.
    assertEquals(2, get(ranks.get(1).insertBreakpoint(BreakpointSpec.at("square"))).id());
    get(ranks.get(1).deleteBreakpoint(2));
    get(ranks.get(2).enableBreakpoint(1, false));
    get(ranks.get(3).deleteBreakpoint(1));
    assertFalse(get(ranks.get(2).breakpoints()).get(0).enabled());
    assertTrue(get(ranks.get(0).breakpoints()).get(0).enabled());
    assertEquals(List.of(), get(ranks.get(3).breakpoints()));
    for (GdbDebugger r : ranks) {
      get(r.run());
    }
    // square is called twice: ranks 0 and 1 stop at each call; 2 (disabled) and 3 (deleted) end.
    assertEquals(0, events.get(2).nextExit().code());
    assertEquals(0, events.get(3).nextExit().code());
    for (int r = 0; r < 2; r++) {
      assertEquals(1, events.get(r).nextStop().breakpointId(), "rank " + r);
      get(ranks.get(r).resume());
      assertEquals(1, events.get(r).nextStop().breakpointId(), "rank " + r);
    }
    assertEquals(2, get(ranks.get(0).breakpoints()).get(0).hits(), "the rank's own hits");
    get(ranks.get(0).deleteBreakpoint(1));
    assertEquals(1, gdbBreakpoints(), "rank 1 still has it");
    get(ranks.get(1).deleteBreakpoint(1));
    assertEquals(1, gdbBreakpoints(), "rank 2 still has it, disabled");
    get(ranks.get(2).deleteBreakpoint(1));
    assertEquals(0, gdbBreakpoints());
    for (int r = 0; r < 2; r++) {
      get(ranks.get(r).resume());
      assertEquals(0, events.get(r).nextExit().code(), "rank " + r);
    }
  }

  private int gdbBreakpoints() throws Exception {
    return get(gdb.driver().send("-break-list"))
        .results()
        .tuple("BreakpointTable")
        .list("body")
        .items()
        .size();
  }

  @Test
  void eachRankHasItsOwnArgumentsEnvironmentAndTerminalAndStandardInput() throws Exception {
    start(3, "echo");
    for (GdbDebugger r : ranks) {
      get(r.run());
    }
    ranks.get(1).writeInput("to one\n".getBytes(StandardCharsets.UTF_8));
    events.get(1).awaitOutput("echo: to one", WAIT);
    ranks.get(2).writeInput("to two\n".getBytes(StandardCharsets.UTF_8));
    events.get(2).awaitOutput("echo: to two", WAIT);
    // A terminal's output arrives in the order it was written: once a rank has echoed the line
    // written to it last, whatever it printed before has arrived too. Rank 1 shows no line of
    // rank 2's, and rank 0, written to for the first time now, printed nothing before its echo.
    ranks.get(1).writeInput("again\n".getBytes(StandardCharsets.UTF_8));
    ranks.get(0).writeInput("to zero\n".getBytes(StandardCharsets.UTF_8));
    assertEquals("echo: to one\necho: again\n", events.get(1).awaitOutput("echo: again", WAIT));
    assertEquals("echo: to zero\n", events.get(0).awaitOutput("echo: to zero", WAIT));
  }

  @Test
  void oneRankCrashesWhileTheOthersRunOnAndEnd() throws Exception {
    start(2, "crash");
    GdbDebugger other = ranks.get(1);
    get(other.insertBreakpoint(BreakpointSpec.at("main")));
    get(ranks.get(0).run());
    DebugEvent.Stopped crash = events.get(0).nextStop();
    assertEquals(StopReason.SIGNAL_RECEIVED, crash.reason());
    assertEquals("SIGSEGV", crash.signal());
    assertEquals("deref", crash.frame().function());
    get(other.run());
    assertEquals("main", events.get(1).nextStop().frame().function());
    get(ranks.get(0).resume());
    assertEquals("SIGSEGV", events.get(0).nextExit().signal());
    // The crashed rank's end is its own: the other is still stopped at main.
    assertEquals("main", get(other.frames()).get(0).function());
  }

  /**
   * gdb 13 running several programs sometimes reports the end of one as its last thread's alone
   * ("[process N exited]", {@code =thread-exited}) and never says the program exited. Here a real
   * gdb's output loses the first program's end that way (a filter drops its {@code
   * =thread-group-exited} and the {@code *stopped} right after it): its rank is reported ended all
   * the same, once its process is gone, and the other rank's end is reported as gdb says it.
   */
  @Test
  void aRankWhoseEndGdbNeverReportsIsReportedEndedOnceItsProcessIsGone(@TempDir Path dir)
      throws Exception {
    Path gdbLosingEnds = dir.resolve("gdb-losing-the-first-programs-end");
    Files.writeString(
        gdbLosingEnds,
        "#!/bin/bash\n"
            + "exec gdb \"$@\" > >(exec sed -u '/^=thread-group-exited,id=\"i1\"/"
            + "{N;/\\n[*]stopped,reason=\"exited/d}')\n");
    Files.setPosixFilePermissions(gdbLosingEnds, PosixFilePermissions.fromString("rwx------"));
    gdb = SharedGdb.start(GdbOptions.defaults().withExecutable(gdbLosingEnds.toString()));
    for (int r = 0; r < 2; r++) {
      get(
          addRank()
              .load(
                  new LaunchSpec(
                      TestPrograms.get("exit_code").toString(),
                      List.of("3"),
                      Map.of(),
                      Path.of("").toAbsolutePath())));
    }
    get(ranks.get(0).run());
    assertEquals(DebugEvent.Exited.withStatusLost(), events.get(0).nextExit());
    get(ranks.get(1).run());
    assertEquals(DebugEvent.Exited.withCode(3), events.get(1).nextExit());
  }

  @Test
  void aMultiThreadedRankStopsAsAWholeAndItsThreadsAreNumberedFrom1() throws Exception {
    start(2, "spinners");
    get(ranks.get(1).insertBreakpoint(BreakpointSpec.at("ready")));
    get(ranks.get(0).insertBreakpoint(BreakpointSpec.at("ready")));
    get(ranks.get(1).run());
    DebugEvent.Stopped stop = events.get(1).nextStop();
    assertEquals(StopReason.BREAKPOINT_HIT, stop.reason());
    assertEquals(1, stop.threadId());
    List<ThreadInfo> threads = awaitAllStopped(ranks.get(1), 3);
    assertEquals(
        List.of(1, 2, 3), threads.stream().map(ThreadInfo::id).sorted().toList(), "" + threads);
    assertEquals(List.of(), get(ranks.get(0).threads()), "rank 0 has not started");
  }

  /** The rank's threads once all {@code n} are stopped (the others' stop follows the first). */
  private static List<ThreadInfo> awaitAllStopped(GdbDebugger rank, int n) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      List<ThreadInfo> threads = get(rank.threads());
      if (threads.size() == n && threads.stream().allMatch(ThreadInfo::stopped)) {
        return threads;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not all " + n + " threads stopped: " + threads);
      }
      Thread.sleep(20);
    }
  }

  @Test
  void whenTheGdbDiesExactlyItsRanksHearWhy() throws Exception {
    start(2, "ticker", "1000");
    SharedGdb other = SharedGdb.start(GdbOptions.defaults());
    GdbDebugger elsewhere = other.add();
    ranks.add(elsewhere);
    EventRecorder elsewhereEvents = new EventRecorder();
    elsewhere.subscribe(elsewhereEvents);
    for (GdbDebugger r : ranks) {
      get(r.load(io.sdmfabric.model.LaunchSpec.of(TestPrograms.get("ticker").toString(), "1000")));
      get(r.run());
    }
    ProcessHandle.of(gdb.driver().pid()).orElseThrow().destroyForcibly();
    for (int r = 0; r < 2; r++) {
      DebugEvent e = events.get(r).next(WAIT);
      assertTrue(e instanceof DebugEvent.DebuggerEnded, "rank " + r + ": " + e);
    }
    assertTrue(elsewhere.driver().isAlive());
    elsewhereEvents.awaitOutput("ticking", WAIT);
    get(elsewhere.interrupt());
    assertEquals(StopReason.INTERRUPTED, elsewhereEvents.nextStop().reason());
  }

  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void endProcesses() {
    processes.forEach(Process::destroyForcibly);
  }

  /** A ticker running {@code ticks} ticks of 20 ms, once it has said so. */
  private Process ticker(String ticks) throws Exception {
    Process p =
        new ProcessBuilder(TestPrograms.get("ticker").toString(), ticks)
            .redirectErrorStream(true)
            .start();
    processes.add(p);
    byte[] first = new byte[8];
    assertEquals(8, p.getInputStream().readNBytes(first, 0, 8));
    assertEquals("ticking\n", new String(first, StandardCharsets.UTF_8));
    return p;
  }

  @Test
  void severalRunningProcessesAreAttachedAndDetachedInOneGdbAndRunOn() throws Exception {
    gdb = SharedGdb.start(GdbOptions.defaults());
    List<Process> running = List.of(ticker("150"), ticker("150"), ticker("150"));
    List<CompletableFuture<io.sdmfabric.model.ProgramInfo>> attaching = new ArrayList<>();
    for (Process p : running) {
      GdbDebugger rank = addRank();
      attaching.add(rank.attach(p.pid()));
    }
    for (CompletableFuture<io.sdmfabric.model.ProgramInfo> a : attaching) {
      assertEquals(TestPrograms.get("ticker").toString(), get(a).program());
    }
    for (GdbDebugger rank : ranks) {
      List<String> stack = get(rank.frames()).stream().map(f -> f.function()).toList();
      assertTrue(stack.contains("main"), stack.toString());
      assertEquals(List.of(1), get(rank.threads()).stream().map(ThreadInfo::id).toList());
    }
    // Rank 1 runs on while the others stay stopped; then each is let go.
    get(ranks.get(1).resume());
    get(ranks.get(1).interrupt());
    assertEquals(StopReason.INTERRUPTED, events.get(1).nextStop().reason());
    for (GdbDebugger rank : ranks) {
      get(rank.detach());
    }
    for (Process p : running) {
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), "a detached process did not run to its end");
      assertEquals(0, p.exitValue());
    }
    assertTrue(gdb.driver().isAlive(), "gdb stays, without programs");
  }

  /** The first line {@code p} writes, awaited for {@link #WAIT} at most. */
  private static String firstLine(Process p) throws Exception {
    java.io.BufferedReader out =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    return get(
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return out.readLine();
              } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            }));
  }

  /** {@code program} under a shell that stops itself and then execs it, as the rank shim does. */
  private Process stoppedBeforeExec(String program) throws Exception {
    Process p =
        new ProcessBuilder("sh", "-c", "kill -STOP $$; exec \"$@\"", "shim", program)
            .redirectErrorStream(true)
            .start();
    processes.add(p);
    for (int i = 0; i < 500 && !stoppedProcess(p.pid()); i++) {
      Thread.sleep(10);
    }
    assertTrue(stoppedProcess(p.pid()), "the shim did not stop itself");
    return p;
  }

  private static boolean stoppedProcess(long pid) throws Exception {
    String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + pid + "/stat"));
    return stat.substring(stat.lastIndexOf(')') + 2).startsWith("T");
  }

  /** Waits until process {@code pid} sleeps in the kernel's nanosleep (its wait channel). */
  private static void awaitSleeping(long pid) throws Exception {
    java.nio.file.Path wchan = java.nio.file.Path.of("/proc/" + pid + "/wchan");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!java.nio.file.Files.readString(wchan).contains("nanosleep")) {
      assertTrue(System.nanoTime() < deadline, "process " + pid + " never slept");
      Thread.sleep(5);
    }
  }

  @Test
  void ranksAttachedAtTheirExecReadLibrarySymbolsWhenTheyStopAndFindPendingBreakpoints()
      throws Exception {
    gdb = SharedGdb.start(GdbOptions.defaults());
    String program = TestPrograms.get("ticker").toString();
    List<Process> shims = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      Process shim = stoppedBeforeExec(program);
      shims.add(shim);
      GdbDebugger rank = addRank();
      get(rank.attachAtExec(shim.pid(), java.nio.file.Path.of(program)));
    }
    assertTrue(gdb.lazySymbols(), "libraries' symbols are read when a rank stops");
    // Rank 0 stops inside libc, whose symbols gdb never read as it loaded: they are read now.
    // Once it has said "ticking" it spends its time in usleep.
    get(ranks.get(0).run());
    assertEquals("ticking", firstLine(shims.get(0)));
    // Said, but perhaps still in the write's return: interrupted there, its stack is fflush's.
    awaitSleeping(shims.get(0).pid());
    get(ranks.get(0).interrupt());
    events.get(0).nextStop();
    List<String> stack = get(ranks.get(0).frames()).stream().map(f -> f.function()).toList();
    assertTrue(stack.contains("tick") && stack.contains("main"), stack.toString());
    assertTrue(
        stack.get(0).contains("sleep"), "the top frame is libc's, by name: " + stack.toString());
    // usleep is found in rank 0's libc only (rank 1 has not loaded libc yet): the breakpoint has
    // no location in rank 1's program, so symbols are read as libraries load from then on, and
    // rank 1 stops there.
    Breakpoint usleep = get(ranks.get(1).insertBreakpoint(BreakpointSpec.at("usleep")));
    assertFalse(gdb.lazySymbols(), "a pending breakpoint needs symbols as libraries load");
    get(ranks.get(1).run());
    DebugEvent.Stopped stop = events.get(1).nextStop();
    assertEquals(usleep.id(), stop.breakpointId(), stop.toString());
  }

  @Test
  void severalRanksAttachedAtTheirExecAtOnceEachStartFromTheBeginning() throws Exception {
    gdb = SharedGdb.start(GdbOptions.defaults());
    String program = TestPrograms.get("values").toString();
    List<CompletableFuture<io.sdmfabric.model.ProgramInfo>> attaching = new ArrayList<>();
    for (int r = 0; r < 4; r++) {
      Process shim = stoppedBeforeExec(program);
      GdbDebugger rank = addRank();
      attaching.add(rank.attachAtExec(shim.pid(), java.nio.file.Path.of(program)));
    }
    for (CompletableFuture<io.sdmfabric.model.ProgramInfo> a : attaching) {
      assertEquals(program, get(a).program());
    }
    for (int r = 0; r < 4; r++) {
      // Each rank's breakpoint is where a gdb of its own puts it, past the prologue.
      Breakpoint b = get(ranks.get(r).insertBreakpoint(BreakpointSpec.at("square").asTemporary()));
      assertEquals(1, b.id());
      assertEquals(21, b.line(), "rank " + r + ": " + b);
    }
    for (int r = 0; r < 4; r++) {
      get(ranks.get(r).run());
      DebugEvent.Stopped stop = events.get(r).nextStop();
      assertEquals("square", stop.frame().function(), "rank " + r);
      assertEquals(21, stop.frame().line(), "rank " + r);
      get(ranks.get(r).resume());
      assertEquals(0, events.get(r).nextExit().code(), "rank " + r);
    }
  }

  @Test
  void ranksAttachedAtTheirExecAreLeftRunningWhenTheirDebuggersCloseLeavingThem() throws Exception {
    // An agent cut off from its session leaves its ranks to their launcher.
    gdb = SharedGdb.start(GdbOptions.defaults());
    String program = TestPrograms.get("values").toString();
    List<Process> shims = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      Process shim = stoppedBeforeExec(program);
      shims.add(shim);
      GdbDebugger rank = addRank();
      get(rank.attachAtExec(shim.pid(), java.nio.file.Path.of(program)));
      get(rank.insertBreakpoint(BreakpointSpec.at("square")));
      get(rank.run());
      assertEquals("square", events.get(r).nextStop().frame().function());
    }
    ranks.parallelStream().forEach(GdbDebugger::closeLeavingProgram);
    ranks.clear();
    for (Process shim : shims) {
      assertTrue(shim.waitFor(20, TimeUnit.SECONDS), "the program runs on to its end");
      assertEquals(0, shim.exitValue());
    }
  }
}
