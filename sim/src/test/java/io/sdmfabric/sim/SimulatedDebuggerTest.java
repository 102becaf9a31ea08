package io.sdmfabric.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalAction;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.model.WatchKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The simulated backend against the Debugger SPI contract, with a direct executor. */
class SimulatedDebuggerTest {
  private static final SimulatedProgram DEFAULT = SimulatedProgram.defaults();

  /** Records events; with the direct executor they arrive inside the request. */
  private static final class Recorder implements Consumer<DebugEvent> {
    final List<DebugEvent> events = new ArrayList<>();

    @Override
    public void accept(DebugEvent e) {
      events.add(e);
    }

    DebugEvent last() {
      return events.get(events.size() - 1);
    }

    DebugEvent.Stopped lastStop() {
      return (DebugEvent.Stopped) last();
    }

    DebugEvent.Exited lastExit() {
      return (DebugEvent.Exited) last();
    }

    List<DebugEvent> drain() {
      List<DebugEvent> out = List.copyOf(events);
      events.clear();
      return out;
    }
  }

  private final Recorder events = new Recorder();

  private SimulatedDebugger start(SimulatedProgram program, int rank, int size) {
    SimulatedDebugger d = SimulatedDebugger.direct(program, rank, size);
    d.subscribe(events);
    get(d.load(LaunchSpec.of("/bin/sim")));
    return d;
  }

  private static <T> T get(CompletableFuture<T> f) {
    assertTrue(f.isDone(), "the request did not complete at once");
    try {
      return f.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof DebuggerException d) {
        throw d;
      }
      throw e;
    }
  }

  private static String error(CompletableFuture<?> f) {
    return assertThrows(DebuggerException.class, () -> get(f)).getMessage();
  }

  private static List<String> functions(List<Frame> frames) {
    return frames.stream().map(Frame::function).toList();
  }

  private static int line(String function, int offset) {
    return DEFAULT.functionStartLine(function).orElseThrow() + offset;
  }

  @Test
  void twoInstancesOfTheSameRankAnswerTheSame() {
    Recorder other = new Recorder();
    SimulatedDebugger a = start(DEFAULT, 5, 16);
    SimulatedDebugger b = SimulatedDebugger.direct(DEFAULT, 5, 16);
    b.subscribe(other);
    get(b.load(LaunchSpec.of("/bin/sim")));
    for (SimulatedDebugger d : List.of(a, b)) {
      get(d.insertBreakpoint(BreakpointSpec.at("exchange").withIgnoreCount(1)));
      get(d.run());
      get(d.step(StepKind.INTO));
    }
    assertEquals(events.events, other.events);
    assertEquals(get(a.frames()), get(b.frames()));
    for (String e : List.of("rank", "x", "distinct", "state", "arr", "iteration", "residual")) {
      assertEquals(get(a.evaluate(e)), get(b.evaluate(e)), e);
    }
    assertEquals(get(a.breakpoints()), get(b.breakpoints()));
    assertArrayEquals(get(a.readMemory("0x7000", 16)), get(b.readMemory("0x7000", 16)));
  }

  @Test
  void globalsListEveryGlobalWithItsRanksValue() {
    SimulatedDebugger d = start(DEFAULT, 5, 16);
    List<Value> globals = get(d.globals());
    Value rank = globals.stream().filter(v -> v.name().equals("rank")).findFirst().orElseThrow();
    assertEquals("5", rank.text());
    assertTrue(globals.stream().allMatch(v -> v.children().isEmpty()));
    assertTrue(globals.stream().anyMatch(v -> v.name().equals("state")));
  }

  @Test
  void ranksOfOneClassShareAStackAndOtherClassesDiffer() {
    List<List<Frame>> stacks = new ArrayList<>();
    for (int rank = 0; rank < 8; rank++) {
      SimulatedDebugger d = start(DEFAULT, rank, 8);
      get(d.insertBreakpoint(BreakpointSpec.at("compute")));
      get(d.insertBreakpoint(BreakpointSpec.at("exchange")));
      get(d.run());
      assertEquals(StopReason.BREAKPOINT_HIT, events.lastStop().reason());
      stacks.add(get(d.frames()));
    }
    assertEquals(stacks.get(0), stacks.get(4));
    assertEquals(stacks.get(3), stacks.get(7));
    assertNotEquals(stacks.get(0), stacks.get(1));
    assertNotEquals(stacks.get(0), stacks.get(2));
    assertEquals(
        List.of("compute", "f_0_3", "f_0_2", "solver_loop", "main"), functions(stacks.get(0)));
    assertEquals(
        List.of("exchange", "f_1_3", "f_1_2", "solver_loop", "main"), functions(stacks.get(1)));
    assertEquals(DEFAULT.callPath(1), functions(stacks.get(1)));
    Frame top = stacks.get(0).get(0);
    assertEquals("sim.c", top.file());
    assertEquals(line("compute", 0), top.line());
    assertEquals(List.of(0, 1, 2, 3, 4), stacks.get(0).stream().map(Frame::level).toList());
  }

  @Test
  void stackShapeGivesDistinctPathsOfTheConfiguredDepth() {
    SimulatedProgram program = SimulatedProgram.builder().withStackShape(10, 30).build();
    Set<List<Frame>> distinct = new HashSet<>();
    for (int rank = 0; rank < 100; rank++) {
      SimulatedDebugger d = start(program, rank, 100);
      get(d.insertBreakpoint(BreakpointSpec.at("compute")));
      get(d.insertBreakpoint(BreakpointSpec.at("exchange")));
      get(d.run());
      List<Frame> frames = get(d.frames());
      assertEquals(30, frames.size());
      assertEquals(30, get(d.stackDepth()));
      assertEquals("main", frames.get(29).function());
      assertEquals("f_" + rank % 10 + "_28", frames.get(1).function());
      assertEquals(program.callPath(rank % 10), functions(frames));
      distinct.add(frames);
    }
    assertEquals(10, distinct.size());
  }

  @Test
  void aBreakpointStopsEveryRankOfASmallJob() {
    for (int rank = 0; rank < 8; rank++) {
      SimulatedDebugger d = start(DEFAULT, rank, 8);
      Breakpoint b = get(d.insertBreakpoint(BreakpointSpec.at("solver_loop")));
      assertEquals("solver_loop at sim.c:" + line("solver_loop", 0), b.location());
      get(d.run());
      List<DebugEvent> got = events.drain();
      assertEquals(2, got.size());
      assertEquals(new DebugEvent.Resumed(), got.get(0));
      DebugEvent.Stopped stop = (DebugEvent.Stopped) got.get(1);
      assertEquals(StopReason.BREAKPOINT_HIT, stop.reason());
      assertEquals(b.id(), stop.breakpointId());
      assertEquals(1, stop.threadId());
      assertEquals("solver_loop", stop.frame().function());
      assertEquals(1, get(d.breakpoints()).get(0).hits());
    }
  }

  @Test
  void withoutBreakpointsTheProgramRunsToItsExitCode() {
    SimulatedProgram program = SimulatedProgram.builder().withExitCode(3).build();
    SimulatedDebugger d = start(program, 0, 1);
    get(d.run());
    assertEquals(DebugEvent.Exited.withCode(3), events.lastExit());
    assertEquals("The program is not being run.", error(d.resume()));
    assertEquals("No stack.", error(d.frames()));
  }

  @Test
  void ignoreCountsPassOverHitsAndTemporaryBreakpointsGoAway() {
    SimulatedDebugger d = start(DEFAULT, 0, 4);
    Breakpoint b = get(d.insertBreakpoint(BreakpointSpec.at("compute").withIgnoreCount(2)));
    get(d.run());
    assertEquals(b.id(), events.lastStop().breakpointId());
    assertEquals("2", get(d.evaluate("iteration")).text());
    Breakpoint listed = get(d.breakpoints()).get(0);
    assertEquals(3, listed.hits());
    assertEquals(0, listed.ignoreCount());

    Breakpoint t = get(d.insertBreakpoint(BreakpointSpec.at("sim.c:" + line("f_0_2", 0))));
    get(d.deleteBreakpoint(t.id()));
    Breakpoint temp = get(d.insertBreakpoint(BreakpointSpec.at("f_0_2").asTemporary()));
    get(d.resume());
    assertEquals(temp.id(), events.lastStop().breakpointId());
    assertEquals("3", get(d.evaluate("iteration")).text());
    assertEquals(List.of(b.id()), get(d.breakpoints()).stream().map(Breakpoint::id).toList());
    get(d.resume());
    assertEquals("compute", events.lastStop().frame().function());
    assertEquals(4, get(d.breakpoints()).get(0).hits());
  }

  @Test
  void disabledDeletedAndOtherClassesBreakpointsDoNotStop() {
    SimulatedDebugger d = start(DEFAULT, 0, 4);
    Breakpoint compute = get(d.insertBreakpoint(BreakpointSpec.at("compute")));
    get(d.insertBreakpoint(BreakpointSpec.at("exchange")));
    get(d.insertBreakpoint(BreakpointSpec.at("f_1_2")));
    Breakpoint disabled = get(d.insertBreakpoint(BreakpointSpec.at("main").asDisabled()));
    assertFalse(disabled.enabled());
    get(d.enableBreakpoint(compute.id(), false));
    get(d.run());
    assertEquals(DebugEvent.Exited.withCode(0), events.lastExit());
    get(d.enableBreakpoint(compute.id(), true));
    get(d.deleteBreakpoint(compute.id()));
    get(d.run());
    assertEquals(DebugEvent.Exited.withCode(0), events.lastExit());
    assertEquals("No breakpoint number 99.", error(d.deleteBreakpoint(99)));
    assertEquals("No breakpoint number 99.", error(d.enableBreakpoint(99, true)));
  }

  @Test
  void lineBreakpointsResolveLikeGdb() {
    SimulatedDebugger d = start(DEFAULT, 0, 4);
    int call = line("solver_loop", 2);
    Breakpoint b = get(d.insertBreakpoint(BreakpointSpec.at("sim.c:" + call)));
    assertEquals("sim.c", b.file());
    assertEquals(call, b.line());
    Breakpoint header = get(d.insertBreakpoint(BreakpointSpec.at("sim.c:" + line("compute", -1))));
    assertEquals(line("compute", 0), header.line());
    assertEquals("compute at sim.c:" + line("compute", 0), header.location());
    assertEquals(
        "No source file named other.c.", error(d.insertBreakpoint(BreakpointSpec.at("other.c:3"))));
    assertEquals(
        "No line 99999 in file \"sim.c\".",
        error(d.insertBreakpoint(BreakpointSpec.at("sim.c:99999"))));
    assertEquals(
        "Function \"nosuch\" not defined.", error(d.insertBreakpoint(BreakpointSpec.at("nosuch"))));
    get(d.run());
    assertEquals(call, events.lastStop().frame().line());
  }

  @Test
  void hungRanksIgnoreBreakpointsAndStopInMpiRecvWhenInterrupted() {
    SimulatedProgram program = SimulatedProgram.builder().withHang(RankSet.of(3)).build();
    SimulatedDebugger ok = start(program, 2, 4);
    get(ok.insertBreakpoint(BreakpointSpec.at("main")));
    get(ok.run());
    assertEquals(StopReason.BREAKPOINT_HIT, events.lastStop().reason());
    events.drain();

    SimulatedDebugger hung = start(program, 3, 4);
    get(hung.insertBreakpoint(BreakpointSpec.at("main")));
    get(hung.insertBreakpoint(BreakpointSpec.at("exchange")));
    get(hung.run());
    assertEquals(List.of(new DebugEvent.Resumed()), events.drain());
    assertEquals("Selected thread is running.", error(hung.frames()));
    get(hung.interrupt());
    DebugEvent.Stopped stop = events.lastStop();
    assertEquals(StopReason.INTERRUPTED, stop.reason());
    assertEquals("MPI_Recv", stop.frame().function());
    assertEquals("libmpi.so.40", stop.frame().library());
    List<Frame> frames = get(hung.frames());
    assertEquals(
        List.of("MPI_Recv", "exchange", "f_3_3", "f_3_2", "solver_loop", "main"),
        functions(frames));
    assertEquals(line("exchange", 1), frames.get(1).line());
    assertEquals("0", get(hung.evaluate("iteration")).text());
    events.drain();
    get(hung.resume());
    assertEquals(List.of(new DebugEvent.Resumed()), events.drain());
    get(hung.interrupt());
    get(hung.step(StepKind.RETURN));
    assertEquals(new DebugEvent.Resumed(), events.last());
  }

  @Test
  void aCrashingRankStopsWithTheSignalThenEndsByIt() {
    SimulatedProgram program = SimulatedProgram.builder().withCrash(2, "SIGSEGV").build();
    SimulatedDebugger d = start(program, 2, 4);
    get(d.run());
    DebugEvent.Stopped stop = events.lastStop();
    assertEquals(StopReason.SIGNAL_RECEIVED, stop.reason());
    assertEquals("SIGSEGV", stop.signal());
    assertEquals("compute", stop.frame().function());
    assertEquals(line("compute", 1), stop.frame().line());
    assertEquals(5, get(d.stackDepth()));
    get(d.resume());
    assertEquals(DebugEvent.Exited.bySignal("SIGSEGV"), events.lastExit());

    SimulatedDebugger healthy = start(program, 1, 4);
    get(healthy.run());
    assertEquals(DebugEvent.Exited.withCode(0), events.lastExit());
  }

  @Test
  void aBreakpointBeforeTheCrashStopsFirst() {
    SimulatedProgram program = SimulatedProgram.builder().withCrash(0, "SIGFPE").build();
    SimulatedDebugger d = start(program, 0, 1);
    get(d.insertBreakpoint(BreakpointSpec.at("compute")));
    get(d.run());
    assertEquals(StopReason.BREAKPOINT_HIT, events.lastStop().reason());
    get(d.step(StepKind.OVER));
    assertEquals(StopReason.END_STEPPING_RANGE, events.lastStop().reason());
    assertEquals(line("compute", 1), events.lastStop().frame().line());
    get(d.step(StepKind.OVER));
    assertEquals(StopReason.SIGNAL_RECEIVED, events.lastStop().reason());
    assertEquals("SIGFPE", events.lastStop().signal());
    assertEquals(line("compute", 1), events.lastStop().frame().line());
    get(d.step(StepKind.INTO));
    assertEquals("SIGFPE", events.lastExit().signal());
  }

  @Test
  void aValueDiffersOnlyOnTheConfiguredRank() {
    SimulatedProgram program =
        SimulatedProgram.builder()
            .withDifferentValue("x", 37, "-1")
            .withVariable("nx", 128)
            .build();
    Set<String> distinct = new HashSet<>();
    for (int rank = 0; rank < 64; rank++) {
      SimulatedDebugger d = start(program, rank, 64);
      get(d.insertBreakpoint(BreakpointSpec.at("solver_loop")));
      get(d.run());
      assertEquals(rank == 37 ? "-1" : "42", get(d.evaluate("x")).text());
      assertEquals("128", get(d.evaluate("nx")).text());
      assertEquals(Integer.toString(rank), get(d.evaluate("rank")).text());
      assertEquals("64", get(d.evaluate("size")).text());
      distinct.add(get(d.evaluate("distinct")).text());
    }
    assertEquals(64, distinct.size());
    assertThrows(
        IllegalArgumentException.class,
        () -> SimulatedProgram.builder().withDifferentValue("nosuch", 1, "2").build());
  }

  @Test
  void evaluatesStructsArraysPointersAndTypes() {
    SimulatedDebugger d = start(DEFAULT, 3, 4);
    get(d.insertBreakpoint(BreakpointSpec.at("f_3_2").withIgnoreCount(1)));
    get(d.run());
    Value state = get(d.evaluate("state"));
    assertEquals(Value.Kind.STRUCT, state.kind());
    assertEquals("struct sim_state", state.type());
    assertEquals("{rank = 3, iteration = 1, residual = 0.5}", state.text());
    assertEquals(3, state.childCount());
    assertEquals(Value.Kind.FLOAT, state.child("residual").orElseThrow().kind());
    assertEquals("1", get(d.evaluate("state.iteration")).text());
    Value arr = get(d.evaluate("arr"));
    assertEquals(Value.Kind.ARRAY, arr.kind());
    assertEquals(List.of("1", "2", "3", "4"), arr.children().stream().map(Value::text).toList());
    assertEquals("3", get(d.evaluate("arr[2]")).text());
    assertEquals(Value.Kind.POINTER, get(d.evaluate("&x")).kind());
    assertEquals("int *", get(d.typeOf("&x")));
    assertEquals("int", get(d.typeOf("x")));
    assertEquals("7", get(d.evaluate("7")).text());
    assertEquals("There is no member named z.", error(d.evaluate("state.z")));
    assertEquals("A syntax error in expression, near `+'.", error(d.evaluate("x +")));
  }

  @Test
  void unknownSymbolsFailWithGdbsMessage() {
    SimulatedDebugger d = start(DEFAULT, 0, 1);
    get(d.insertBreakpoint(BreakpointSpec.at("main")));
    get(d.run());
    assertEquals("No symbol \"nosuch\" in current context.", error(d.evaluate("nosuch")));
    assertEquals("No symbol \"nosuch\" in current context.", error(d.typeOf("nosuch")));
    assertEquals(
        "No symbol \"nosuch\" in current context.",
        error(d.insertWatchpoint("nosuch", WatchKind.WRITE)));
  }

  @Test
  void requestsWithoutAProcessFailLikeGdb() {
    SimulatedDebugger fresh = SimulatedDebugger.direct(DEFAULT, 0, 1);
    assertEquals(
        "No executable file specified.\nUse the \"file\" or \"exec-file\" command.",
        error(fresh.run()));
    SimulatedDebugger d = start(DEFAULT, 0, 1);
    assertEquals("The program is not being run.", error(d.resume()));
    assertEquals("The program is not being run.", error(d.step(StepKind.INTO)));
    assertEquals("The program is not being run.", error(d.interrupt()));
    assertEquals("The program is not being run.", error(d.kill()));
    assertEquals("No stack.", error(d.frames()));
    assertEquals("No frame selected.", error(d.locals()));
    assertEquals("Invalid thread ID: 1", error(d.selectThread(1)));
    assertTrue(get(d.threads()).isEmpty());
    assertEquals("42", get(d.evaluate("x")).text());
    assertTrue(events.events.isEmpty());
  }

  @Test
  void stepsIntoOverAndOutOfCalls() {
    SimulatedDebugger d = start(DEFAULT, 0, 4);
    int call = line("solver_loop", 2);
    get(d.insertBreakpoint(BreakpointSpec.at("sim.c:" + call)));
    get(d.run());
    assertEquals(call, events.lastStop().frame().line());

    get(d.step(StepKind.INTO));
    DebugEvent.Stopped in = events.lastStop();
    assertEquals(StopReason.END_STEPPING_RANGE, in.reason());
    assertEquals("f_0_2", in.frame().function());
    assertEquals(line("f_0_2", 0), in.frame().line());
    assertEquals(3, get(d.stackDepth()));

    get(d.step(StepKind.OVER));
    assertEquals(line("f_0_2", 1), events.lastStop().frame().line());
    get(d.step(StepKind.OVER));
    assertEquals("f_0_2", events.lastStop().frame().function());
    assertEquals(line("f_0_2", 2), events.lastStop().frame().line());

    get(d.step(StepKind.RETURN));
    DebugEvent.Stopped out = events.lastStop();
    assertEquals(StopReason.FUNCTION_FINISHED, out.reason());
    assertEquals("solver_loop", out.frame().function());
    assertEquals(line("solver_loop", 3), out.frame().line());

    get(d.step(StepKind.OVER));
    assertEquals(line("solver_loop", 1), events.lastStop().frame().line());
    assertEquals("1", get(d.evaluate("iteration")).text());
    get(d.step(StepKind.OVER));
    assertEquals(StopReason.BREAKPOINT_HIT, events.lastStop().reason());
  }

  @Test
  void finishFromAnOuterFrameAndFromMainFollowGdb() {
    SimulatedDebugger d = start(DEFAULT, 0, 4);
    get(d.insertBreakpoint(BreakpointSpec.at("compute")));
    get(d.run());
    assertEquals("f_0_2", get(d.selectFrame(2)).function());
    get(d.step(StepKind.RETURN));
    assertEquals("solver_loop", events.lastStop().frame().function());
    assertEquals(2, get(d.stackDepth()));
    assertEquals("main", get(d.selectFrame(1)).function());
    assertEquals(
        "\"finish\" not meaningful in the outermost frame.", error(d.step(StepKind.RETURN)));
    assertEquals("No frame at level 2.", error(d.selectFrame(2)));
    assertEquals("No frame at level -1.", error(d.selectFrame(-1)));
  }

  @Test
  void stepsPastTheEndOfMainExitTheProgram() {
    SimulatedProgram program = SimulatedProgram.builder().withIterations(1).build();
    SimulatedDebugger d = start(program, 0, 1);
    int finalize = program.functionStartLine("main").orElseThrow() + 2;
    get(d.insertBreakpoint(BreakpointSpec.at("sim.c:" + finalize)));
    get(d.run());
    assertEquals(finalize, events.lastStop().frame().line());
    assertEquals("1", get(d.evaluate("iteration")).text());
    get(d.step(StepKind.OVER));
    assertEquals(finalize + 1, events.lastStop().frame().line());
    get(d.step(StepKind.OVER));
    assertEquals(DebugEvent.Exited.withCode(0), events.lastExit());
  }

  @Test
  void killEndsTheProcessWithSigkillAndItCanRunAgain() {
    SimulatedDebugger d = start(DEFAULT, 1, 2);
    get(d.insertBreakpoint(BreakpointSpec.at("exchange")));
    get(d.run());
    get(d.kill());
    assertEquals(DebugEvent.Exited.bySignal("SIGKILL"), events.lastExit());
    assertEquals("No stack.", error(d.frames()));
    get(d.run());
    assertEquals("exchange", events.lastStop().frame().function());
    assertEquals("0", get(d.evaluate("iteration")).text());
  }

  @Test
  void interruptingAStoppedProcessChangesNothing() {
    SimulatedDebugger d = start(DEFAULT, 0, 1);
    get(d.insertBreakpoint(BreakpointSpec.at("main")));
    get(d.run());
    int before = events.events.size();
    get(d.interrupt());
    assertEquals(before, events.events.size());
    assertEquals("main", get(d.frames()).get(0).function());
  }

  @Test
  void eventsWaitForTheExecutorAndStaleOnesAreDropped() {
    ArrayDeque<Runnable> queue = new ArrayDeque<>();
    SimulatedDebugger d = new SimulatedDebugger(DEFAULT, 0, 1, queue::add);
    d.subscribe(events);
    get(d.load(LaunchSpec.of("sim")));
    get(d.insertBreakpoint(BreakpointSpec.at("main")));
    get(d.run());
    assertTrue(events.events.isEmpty());
    assertEquals("Selected thread is running.", error(d.frames()));
    assertEquals(
        "Cannot execute this command while the selected thread is running.", error(d.resume()));
    queue.poll().run();
    assertEquals(StopReason.BREAKPOINT_HIT, events.lastStop().reason());
    assertEquals("main", get(d.frames()).get(0).function());

    get(d.resume());
    get(d.kill());
    assertEquals(2, queue.size());
    queue.forEach(Runnable::run);
    queue.clear();
    assertEquals(List.of(DebugEvent.Exited.bySignal("SIGKILL")), events.events.subList(2, 3));
    assertEquals(3, events.events.size());

    get(d.run());
    d.close();
    queue.forEach(Runnable::run);
    assertEquals(3, events.events.size());
  }

  @Test
  void aClosedDebuggerFailsEveryRequest() {
    SimulatedDebugger d = start(DEFAULT, 0, 1);
    get(d.insertBreakpoint(BreakpointSpec.at("main")));
    get(d.run());
    d.close();
    d.close();
    for (CompletableFuture<?> f :
        List.of(
            d.frames(),
            d.run(),
            d.resume(),
            d.evaluate("x"),
            d.breakpoints(),
            d.load(LaunchSpec.of("sim")),
            d.cli("bt"),
            d.signals(),
            d.readMemory("&x", 4))) {
      assertEquals("gdb was closed", error(f));
    }
  }

  @Test
  void aDetachedDebuggerDropsPendingEventsAndFailsEveryLaterRequest() {
    ArrayDeque<Runnable> queue = new ArrayDeque<>();
    SimulatedDebugger d = new SimulatedDebugger(DEFAULT, 0, 1, queue::add);
    d.subscribe(events);
    get(d.load(LaunchSpec.of("sim")));
    assertEquals("The program is not being run.", error(d.detach()));
    get(d.insertBreakpoint(BreakpointSpec.at("main")));
    get(d.run());
    get(d.detach());
    queue.forEach(Runnable::run);
    assertTrue(events.events.isEmpty(), events.events.toString());
    for (CompletableFuture<?> f :
        List.of(
            d.frames(),
            d.run(),
            d.resume(),
            d.kill(),
            d.evaluate("x"),
            d.load(LaunchSpec.of("sim")),
            d.cli("bt"),
            d.detach())) {
      assertEquals(io.sdmfabric.model.Debugger.DETACHED, error(f));
    }
    d.close();
    assertEquals("gdb was closed", error(d.frames()));
  }

  @Test
  void runWritesTheConfiguredOutputFirst() {
    SimulatedProgram program =
        SimulatedProgram.builder().withOutput("hello from rank {rank} of {size}\n").build();
    SimulatedDebugger d = start(program, 7, 9);
    get(d.run());
    assertEquals(
        List.of(
            new DebugEvent.Resumed(),
            new DebugEvent.Output("hello from rank 7 of 9\n".getBytes(StandardCharsets.UTF_8)),
            DebugEvent.Exited.withCode(0)),
        events.events);
  }

  @Test
  void resumedEventsCanBeTurnedOff() {
    SimulatedProgram program = SimulatedProgram.builder().withResumedEvents(false).build();
    SimulatedDebugger d = start(program, 0, 1);
    get(d.run());
    assertEquals(List.of(DebugEvent.Exited.withCode(0)), events.events);
  }

  @Test
  void hasOneThreadThatCanBeSelected() {
    SimulatedDebugger d = start(DEFAULT, 0, 1);
    get(d.insertBreakpoint(BreakpointSpec.at("compute")));
    get(d.run());
    List<ThreadInfo> threads = get(d.threads());
    assertEquals(1, threads.size());
    assertTrue(threads.get(0).stopped());
    assertEquals("compute", threads.get(0).frame().function());
    assertEquals(1, get(d.selectThread(1)).id());
    assertEquals("Invalid thread ID: 2", error(d.selectThread(2)));
  }

  @Test
  void listsLocalsAndArgumentsOfTheSelectedFrame() {
    SimulatedDebugger d = start(DEFAULT, 2, 4);
    get(d.insertBreakpoint(BreakpointSpec.at("compute")));
    get(d.run());
    assertEquals(List.of(Value.scalar("tmp", "int", Value.Kind.INTEGER, 4, "6")), get(d.locals()));
    assertEquals(List.of("level"), get(d.arguments()).stream().map(Value::name).toList());
    get(d.selectFrame(3));
    assertEquals("i", get(d.locals()).get(0).name());
    assertEquals("10", get(d.evaluate("n")).text());
    get(d.selectFrame(4));
    assertEquals(List.of("argc", "argv"), get(d.arguments()).stream().map(Value::name).toList());
  }

  @Test
  void handleChangesOnlyThisRanksSignals() {
    SimulatedDebugger a = start(DEFAULT, 0, 2);
    SimulatedDebugger b = start(DEFAULT, 1, 2);
    SignalInfo segv =
        get(a.signals()).stream().filter(s -> s.name().equals("SIGSEGV")).findFirst().orElseThrow();
    assertEquals(new SignalInfo("SIGSEGV", true, true, true, "Segmentation fault"), segv);
    assertEquals(
        List.of(new SignalInfo("SIGUSR1", false, false, true, "User defined signal 1")),
        get(a.handleSignal("SIGUSR1", EnumSet.of(SignalAction.NOSTOP, SignalAction.NOPRINT))));
    assertTrue(
        get(a.signals())
            .contains(new SignalInfo("SIGUSR1", false, false, true, "User defined signal 1")));
    assertSame(DEFAULT.signals(), get(b.signals()));
    assertEquals(
        "Unrecognized or ambiguous flag word: \"SIGFOO\".",
        error(a.handleSignal("SIGFOO", Set.of(SignalAction.STOP))));
  }

  @Test
  void memoryIsDeterministicAndRemembersWrites() {
    SimulatedDebugger d = start(DEFAULT, 5, 8);
    get(d.insertBreakpoint(BreakpointSpec.at("main")));
    assertEquals("Cannot access memory at address 0x7000", error(d.readMemory("0x7000", 4)));
    get(d.run());
    assertArrayEquals(new byte[] {42, 0, 0, 0}, get(d.readMemory("&x", 4)));
    assertArrayEquals(new byte[] {5, 0, 0, 0}, get(d.readMemory("&rank", 4)));
    get(d.writeMemory("0x7002", new byte[] {9, 9}));
    byte[] read = get(d.readMemory("0x7000", 4));
    assertEquals(9, read[2]);
    assertEquals(9, read[3]);
    assertEquals((byte) (0x7000 ^ 0x70 ^ 5), read[0]);
    assertEquals("Cannot access memory at address 0x0", error(d.readMemory("0", 4)));
  }

  @Test
  void cliKnowsAFewCommands() {
    SimulatedDebugger d = start(DEFAULT, 0, 1);
    assertEquals("No breakpoints or watchpoints.\n", get(d.cli("info breakpoints")));
    get(d.insertBreakpoint(BreakpointSpec.at("compute")));
    get(d.run());
    String table = get(d.cli("info breakpoints"));
    assertTrue(table.contains("in compute at sim.c:" + line("compute", 0)), table);
    assertTrue(table.contains("breakpoint already hit 1 time"), table);
    String bt = get(d.cli("bt"));
    assertTrue(bt.startsWith("#0  compute () at sim.c:"), bt);
    assertTrue(bt.contains("#4  0x"), bt);
    assertEquals("$1 = 42\n", get(d.cli("print x")));
    assertEquals(
        "Undefined command: \"frobnicate\".  Try \"help\".", error(d.cli("frobnicate now")));
  }

  @Test
  void watchpointsAreRecordedButNeverTrigger() {
    SimulatedDebugger d = start(DEFAULT, 0, 1);
    get(d.insertBreakpoint(BreakpointSpec.at("main")));
    get(d.run());
    Breakpoint w = get(d.insertWatchpoint("x", WatchKind.ACCESS));
    assertEquals(Breakpoint.Kind.ACCESS_WATCHPOINT, w.kind());
    assertEquals("x", w.location());
    assertEquals(2, get(d.breakpoints()).size());
    get(d.resume());
    assertEquals(DebugEvent.Exited.withCode(0), events.lastExit());
  }

  @Test
  void anInstanceTakesFewBytes() {
    int n = 100_000;
    SimulatedProgram program = SimulatedProgram.builder().withStackShape(10, 30).build();
    Object[] keep = new Object[n];
    Runtime rt = Runtime.getRuntime();
    long before = usedMemory(rt);
    for (int i = 0; i < n; i++) {
      keep[i] = new SimulatedDebugger(program, i, n, Runnable::run);
    }
    long after = usedMemory(rt);
    double perInstance = (after - before) / (double) n;
    System.out.printf(
        "SimulatedDebugger: %.1f bytes per instance (%d instances)%n", perInstance, n);
    assertTrue(perInstance < 500, perInstance + " bytes per instance");

    BreakpointSpec spec = BreakpointSpec.at("compute");
    for (Object o : keep) {
      SimulatedDebugger d = (SimulatedDebugger) o;
      get(d.load(LaunchSpec.of("sim")));
      get(d.insertBreakpoint(spec));
      get(d.run());
    }
    double stopped = (usedMemory(rt) - before) / (double) n;
    System.out.printf(
        "SimulatedDebugger: %.1f bytes per instance with a breakpoint, stopped%n", stopped);
    assertTrue(stopped < 500, stopped + " bytes per instance with a breakpoint");
    assertEquals(n, keep.length);
  }

  private static long usedMemory(Runtime rt) {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return rt.totalMemory() - rt.freeMemory();
  }
}
