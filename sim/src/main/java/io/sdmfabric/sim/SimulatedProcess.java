package io.sdmfabric.sim;

import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Debugger;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.ProgramInfo;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.model.ThreadInfo;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * A simulated rank's process and its run control: where the process is ({@link RankState}, its
 * position in the program, the selected frame), how execution requests move it (run, resume, step,
 * interrupt, kill), where it stops on the way (a breakpoint, the crash, the exit), and the events
 * that say so, handed to the executor and dropped when a later request made them stale. It also
 * checks, with gdb's messages, that a request may run in the state the process is in, and shows
 * what a stopped process has: its stack, its thread, the scope its expressions see.
 *
 * <p>These are the only fields a rank holds (with its {@link RankTables} once it uses them): {@link
 * SimulatedDebugger} extends this class, rather than holding one, so that a rank is one object of a
 * few words at 2^20 ranks. Every request comes through {@link SimulatedDebugger}, which fails it
 * before it gets here when the debugger is closed or detached ({@link #checkOpen}). The contract is
 * {@link SimulatedDebugger}'s class comment.
 */
abstract class SimulatedProcess {

  static final int THREAD_ID = 1;

  private static final Consumer<DebugEvent> NO_LISTENER = e -> {};
  private static final DebugEvent RESUMED = new DebugEvent.Resumed();

  final int rank;
  final int size;
  final SimulatedProgram program;
  private final Executor executor;
  private Consumer<DebugEvent> listener = NO_LISTENER;

  /** Breakpoints, changed signals and memory writes; null until one is made. */
  private RankTables tables;

  /** The position of the process (see {@link SimulatedProgram}); meaningful while it lives. */
  private int pos;

  /** Counts execution requests, so that a task of an earlier one can tell it is stale. */
  private int epoch;

  private int selectedFrame;
  private RankState state = RankState.NEW;

  /**
   * Why the debugger ended on its own ({@link #endDebugger}); null while it lives or after close.
   */
  private String endReason;

  SimulatedProcess(SimulatedProgram program, int rank, int size, Executor events) {
    this.program = Objects.requireNonNull(program, "program");
    this.executor = Objects.requireNonNull(events, "events");
    if (rank < 0 || rank >= size) {
      throw new IllegalArgumentException("rank " + rank + " is not in [0, " + size + ")");
    }
    this.rank = rank;
    this.size = size;
  }

  /** Where the events go from now on. */
  void listen(Consumer<DebugEvent> listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  // ---- run control ----

  ProgramInfo loadProgram(LaunchSpec spec) {
    if (state == RankState.NEW) {
      state = RankState.LOADED;
    }
    return new ProgramInfo(spec.program(), true);
  }

  /** Starts the process from the beginning, killing (silently) a process that still lives. */
  void startProcess() {
    if (state == RankState.NEW) {
      throw new DebuggerException(
          "No executable file specified.\nUse the \"file\" or \"exec-file\" command.");
    }
    epoch++;
    advance(-1, program.positions(), StopReason.UNKNOWN, program.output(rank, size));
  }

  /** Continues to the next breakpoint, the crash, or the exit. */
  void resumeProcess() {
    requireStopped();
    if (!leaveSpecialStop()) {
      advance(pos, program.positions(), StopReason.UNKNOWN, null);
    }
  }

  /** Steps as {@link SimulatedDebugger}'s class comment says; {@code finish} in main fails. */
  void stepProcess(StepKind kind) {
    requireStopped();
    if (state == RankState.STOPPED && kind == StepKind.RETURN && effectiveLevel() == 0) {
      throw new DebuggerException("\"finish\" not meaningful in the outermost frame.");
    }
    if (leaveSpecialStop()) {
      return;
    }
    SimulatedProgram.Path path = path();
    int end = program.positions();
    switch (kind) {
      case INTO -> advance(pos, pos + 1, StopReason.END_STEPPING_RANGE, null);
      case OVER -> {
        int level = effectiveLevel();
        int to = pos + 1;
        while (to < end && path.levelAt(to) > level) {
          to++;
        }
        advance(pos, to, StopReason.END_STEPPING_RANGE, null);
      }
      case RETURN -> {
        int level = effectiveLevel();
        int to = pos + 1;
        while (to < end && path.levelAt(to) >= level) {
          to++;
        }
        advance(pos, to, StopReason.FUNCTION_FINISHED, null);
      }
    }
  }

  /**
   * Stops a hung rank in {@value SimulatedProgram#RECV_FUNCTION} (reason {@code INTERRUPTED}). Any
   * other running process has its stop already on the way; a stopped one stays as it is.
   */
  void interruptProcess() {
    requireLive();
    if (state == RankState.HUNG) {
      int e = ++epoch;
      Frame frame = path().recvStack().get(0);
      deliver(
          e,
          RankState.IN_RECV,
          new DebugEvent.Stopped(StopReason.INTERRUPTED, "", frame, THREAD_ID, 0));
    }
  }

  /** Ends the process; an {@code Exited} by {@code SIGKILL} follows. */
  void killProcess() {
    requireLive();
    int e = ++epoch;
    state = RankState.LOADED;
    pos = 0;
    deliver(e, RankState.LOADED, DebugEvent.Exited.bySignal("SIGKILL"));
  }

  /** Leaves the live process to itself; pending events are dropped. */
  void detachProcess() {
    requireLive();
    epoch++;
    state = RankState.DETACHED;
    tables = null;
  }

  /** Ends the process without an event; idempotent. */
  void closeDebugger() {
    state = RankState.CLOSED;
    epoch++;
    tables = null;
  }

  /** Ends as if gdb died: a {@code DebuggerEnded} follows, and requests fail with the reason. */
  void endDebugger(String reason) {
    closeDebugger();
    endReason = reason;
    executor.execute(() -> listener.accept(new DebugEvent.DebuggerEnded(reason)));
  }

  /**
   * Moves the process from {@code from} (the stop it leaves; -1 for a fresh start) towards {@code
   * target}, stopping early at a breakpoint or the crash, and schedules the events. {@code target
   * == program.positions()} means the exit.
   */
  private void advance(int from, int target, StopReason reason, byte[] output) {
    int e = ++epoch;
    selectedFrame = 0;
    DebugEvent resumed = program.resumedEvents() ? RESUMED : null;
    DebugEvent out = output == null ? null : new DebugEvent.Output(output);
    SimulatedProgram.Path path = path();
    if (program.hangs(rank)) {
      state = RankState.HUNG;
      pos = path.mpiCallPosition(0);
      deliver(e, RankState.HUNG, resumed, out);
      return;
    }
    int end = program.positions();
    int first = from + 1;
    int stop = target;
    StopReason why = reason;
    String signal = "";
    String crash = program.crashSignalOrNull(rank);
    if (crash != null) {
      int c = path.mpiCallPosition(0);
      if (c >= Math.max(from, 0) && c < target) {
        stop = c;
        why = StopReason.SIGNAL_RECEIVED;
        signal = crash;
      }
    }
    int breakpointId = 0;
    if (tables != null && tables.hasBreakpoints()) {
      LineCrossings crossings = new LineCrossings(program, path);
      int hit = tables.firstStop(crossings, first);
      if (hit <= stop) {
        stop = hit;
        why = StopReason.BREAKPOINT_HIT;
        signal = "";
      }
      breakpointId =
          tables.pass(crossings, first, Math.min(stop, end - 1), why == StopReason.BREAKPOINT_HIT);
    }
    state = RankState.RUNNING;
    if (stop >= end) {
      pos = 0;
      deliver(e, RankState.LOADED, resumed, out, DebugEvent.Exited.withCode(program.exitCode()));
      return;
    }
    pos = stop;
    Frame frame = path.stack(stop).get(0);
    RankState after = why == StopReason.SIGNAL_RECEIVED ? RankState.SIGNALLED : RankState.STOPPED;
    deliver(
        e,
        after,
        resumed,
        out,
        new DebugEvent.Stopped(why, signal, frame, THREAD_ID, breakpointId));
  }

  /**
   * Handles resuming from a crash stop (the process ends by the signal) or from a hang (it hangs
   * again). Returns whether it did.
   */
  private boolean leaveSpecialStop() {
    DebugEvent resumed = program.resumedEvents() ? RESUMED : null;
    if (state == RankState.SIGNALLED) {
      int e = ++epoch;
      state = RankState.RUNNING;
      pos = 0;
      String signal = program.crashSignalOrNull(rank);
      deliver(e, RankState.LOADED, resumed, DebugEvent.Exited.bySignal(signal));
      return true;
    }
    if (state == RankState.IN_RECV) {
      int e = ++epoch;
      state = RankState.HUNG;
      selectedFrame = 0;
      deliver(e, RankState.HUNG, resumed);
      return true;
    }
    return false;
  }

  /** Runs the events of execution request {@code e} on the executor, unless it became stale. */
  private void deliver(int e, RankState after, DebugEvent... events) {
    executor.execute(
        () -> {
          if (epoch != e || state == RankState.CLOSED || state == RankState.DETACHED) {
            return;
          }
          state = after;
          for (DebugEvent event : events) {
            if (event != null) {
              listener.accept(event);
            }
          }
        });
  }

  /** The level (0 = main) of the selected frame in the call path. */
  private int effectiveLevel() {
    return path().levelAt(pos) - selectedFrame;
  }

  // ---- what the process shows ----

  /** The stack, innermost first: shared by all ranks of a class and immutable. */
  List<Frame> stack() {
    switch (state) {
      case STOPPED, SIGNALLED -> {
        return path().stack(pos);
      }
      case IN_RECV -> {
        return path().recvStack();
      }
      case RUNNING, HUNG -> throw new DebuggerException("Selected thread is running.");
      case CLOSED -> throw closedException();
      default -> throw new DebuggerException("No stack.");
    }
  }

  /** Selects a frame; {@code No frame at level N.} outside the stack. */
  Frame selectFrameAt(int level) {
    List<Frame> stack = stack();
    if (level < 0 || level >= stack.size()) {
      throw new DebuggerException("No frame at level " + level + ".");
    }
    selectedFrame = level;
    return stack.get(level);
  }

  /** One thread, id 1; none without a process. */
  List<ThreadInfo> threadList() {
    return state.live() ? List.of(thread()) : List.of();
  }

  /** Thread 1, the only one; {@code Invalid thread ID: N} for any other. */
  ThreadInfo threadById(int id) {
    if (id != THREAD_ID || !state.live()) {
      throw new DebuggerException("Invalid thread ID: " + id);
    }
    return thread();
  }

  private ThreadInfo thread() {
    boolean stopped = state.stopped();
    String target = "Thread 0x7ffff7d8a740 (LWP " + (10000 + rank) + ")";
    return new ThreadInfo(
        THREAD_ID, target, "sim", stopped, stopped ? stack().get(0) : Frame.UNKNOWN);
  }

  /** The scope of the selected frame, for its locals and arguments. */
  SimulatedScope frameScope() {
    if (state == RankState.LOADED || state == RankState.NEW) {
      throw new DebuggerException("No frame selected.");
    }
    stack();
    return scope();
  }

  /** The scope of expressions: the globals, and the selected frame of a stopped process. */
  SimulatedScope expressionScope() {
    requireSymbols();
    if (state.running()) {
      throw new DebuggerException("Selected thread is running.");
    }
    return scope();
  }

  /** The scope of the globals, which a running process shows too. */
  SimulatedScope globalScope() {
    requireSymbols();
    return scope();
  }

  /**
   * The address {@code expression} names for a memory request of {@code count} bytes, once it is
   * known that it can be accessed: the process lives and is stopped, and the address is not below
   * 0x1000.
   */
  long accessibleAddress(String expression, int count) {
    if (count < 0) {
      throw new DebuggerException("Invalid number of bytes: " + count);
    }
    if (state.running()) {
      throw new DebuggerException("Selected thread is running.");
    }
    long address = scope().address(expression);
    if (!state.live() || address < 0x1000) {
      throw new DebuggerException("Cannot access memory at address 0x" + Long.toHexString(address));
    }
    return address;
  }

  /** What expressions see now: the globals, the selected frame of a stopped process. */
  SimulatedScope scope() {
    int iteration = state.live() ? program.iterationAt(pos) : 0;
    if (!state.stopped()) {
      return new SimulatedScope(program, rank, size, iteration, null, 0);
    }
    List<Frame> stack = stack();
    return new SimulatedScope(
        program, rank, size, iteration, stack.get(selectedFrame), stack.size() - 1 - selectedFrame);
  }

  private SimulatedProgram.Path path() {
    return program.path(program.pathOf(rank));
  }

  // ---- the rank's tables ----

  /** The rank's tables, made now if it had none. */
  RankTables tables() {
    if (tables == null) {
      tables = new RankTables();
    }
    return tables;
  }

  /** The rank's tables to read: {@link RankTables#NONE} while it has none (which makes none). */
  RankTables tablesToRead() {
    return tables == null ? RankTables.NONE : tables;
  }

  // ---- state checks ----

  /** Fails once closed (or ended) with gdb's message (or the end's reason). */
  void checkOpen() {
    if (state == RankState.CLOSED) {
      throw closedException();
    }
  }

  /** Whether the process was detached from: every request fails with {@link Debugger#DETACHED}. */
  boolean detached() {
    return state == RankState.DETACHED;
  }

  void requireSymbols() {
    if (state == RankState.NEW) {
      throw new DebuggerException("No symbol table is loaded.  Use the \"file\" command.");
    }
  }

  private void requireLive() {
    if (!state.live()) {
      throw new DebuggerException("The program is not being run.");
    }
  }

  private void requireStopped() {
    requireLive();
    if (state.running()) {
      throw new DebuggerException(
          "Cannot execute this command while the selected thread is running.");
    }
  }

  private DebuggerException closedException() {
    return new DebuggerException(endReason == null ? "gdb was closed" : endReason);
  }
}
