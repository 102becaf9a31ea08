package io.sdmfabric.sim;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Debugger;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.Location;
import io.sdmfabric.model.ProgramInfo;
import io.sdmfabric.model.SignalAction;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.model.WatchKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A {@link Debugger} of a simulated rank of the program described by a shared {@link
 * SimulatedProgram}, so that the fabric can be measured at 2^20 ranks in one JVM without 2^20 gdbs.
 * Everything it answers depends only on the rank, the job size, the program and the sequence of
 * requests: no randomness, no clock, no threads of its own.
 *
 * <p><b>Timing.</b> Every request completes before it returns (the future is already done).
 * Execution requests ({@link #run}, {@link #resume}, {@link #step}, {@link #kill}, and {@link
 * #interrupt} of a hung rank) leave the process running and hand the events that follow ({@link
 * DebugEvent.Resumed}, {@link DebugEvent.Output}, {@link DebugEvent.Stopped}, {@link
 * DebugEvent.Exited}) to the {@link Executor} given at construction, as one task; the task calls
 * the listener unless a later execution request, a kill or {@link #close} has made it stale. Until
 * the task runs, the process counts as running (frames and values fail with {@code Selected thread
 * is running.}). The fabric passes an executor that sends the task to the rank's actor; {@link
 * #direct} runs it at once, inside the request.
 *
 * <p><b>Threads.</b> Not thread-safe: requests and the executor's tasks must not run concurrently
 * (an actor's confinement guarantees that, and so does the direct executor on one thread).
 *
 * <p><b>Memory.</b> An instance holds a few words (see {@link SimulatedProgram} for what is
 * shared); breakpoints, changed signal handling and written memory are allocated only when used.
 *
 * <p><b>Semantics</b>, as gdb's where it matters (errors carry gdb's message text):
 *
 * <ul>
 *   <li>{@link #load} must come first ({@code No executable file specified.} otherwise); the
 *       program always has debug info.
 *   <li>{@link #run} starts (or restarts) the process at the beginning; it writes the program's
 *       output line, then stops at the first breakpoint it reaches, or at its crash, or exits.
 *       {@link #resume} continues from the stop. A hung rank never stops by itself: {@link
 *       #interrupt} stops it in {@value SimulatedProgram#RECV_FUNCTION}; resuming or stepping it
 *       there hangs again. After a crash stop, resuming or stepping ends the process by the signal.
 *   <li>{@link StepKind#INTO} moves to the next position (into a call when the line calls), {@link
 *       StepKind#OVER} to the next position in the selected frame or its callers, {@link
 *       StepKind#RETURN} to the line after the call in the caller of the selected frame (gdb would
 *       stop on the call line itself), reason {@code FUNCTION_FINISHED}; finish in {@code main}
 *       fails. A breakpoint (or the crash) on the way stops the step early, as in gdb.
 *   <li>Breakpoints honour enable, delete, ignore counts and temporary; conditions are recorded and
 *       ignored (a conditional breakpoint stops as if it had none). A line breakpoint between
 *       functions moves to the next line with code, like gdb's. Breakpoints on functions the rank's
 *       path does not call, and on {@value SimulatedProgram#RECV_FUNCTION}, never hit. Watchpoints
 *       are recorded, listed, enabled and deleted, but never trigger.
 *   <li>{@link #handleSignal} changes this rank's table only; it does not change how the crash
 *       behaves.
 *   <li>Memory: the 4 bytes at {@code &NAME} of an {@code int} global hold its value, little
 *       endian; any other byte at address {@code a} is {@code (a ^ (a >> 8) ^ rank) & 0xff};
 *       addresses below 0x1000 cannot be accessed. Writes are remembered and read back, but do not
 *       change variables.
 *   <li>{@link #cli} knows {@code info breakpoints}, {@code backtrace} ({@code bt}, {@code where}),
 *       {@code print} ({@code p}; always {@code $1}), {@code whatis} and {@code help}.
 *   <li>{@link #writeInput} is ignored: the program reads no input.
 *   <li>{@link #detach} leaves a live process (it needs one, as gdb does): pending events are
 *       dropped and every later request fails with {@link Debugger#DETACHED}.
 *   <li>After {@link #close} every request fails with {@code gdb was closed} and pending events are
 *       dropped; after {@link #end}, with the reason given.
 * </ul>
 */
public final class SimulatedDebugger implements Debugger {

  private static final Consumer<DebugEvent> NO_LISTENER = e -> {};
  private static final Executor DIRECT = Runnable::run;
  private static final DebugEvent RESUMED = new DebugEvent.Resumed();

  private static final int THREAD_ID = 1;

  private final int rank;
  private final int size;
  private final SimulatedProgram program;
  private final Executor executor;
  private Consumer<DebugEvent> listener = NO_LISTENER;

  /** Breakpoints, changed signals and memory writes; null until one is made. */
  private Extras extras;

  /** The position of the process (see {@link SimulatedProgram}); meaningful while it lives. */
  private int pos;

  /** Counts execution requests, so that a task of an earlier one can tell it is stale. */
  private int epoch;

  private int selectedFrame;
  private RankState state = RankState.NEW;

  /** Why the debugger ended on its own ({@link #end}); null while it lives or after close. */
  private String endReason;

  /**
   * A debugger for one rank that delivers its events through {@code events}.
   *
   * @param program the shared program
   * @param rank the rank, {@code 0 <= rank < size}
   * @param size the number of ranks of the job
   * @param events runs the tasks that call the listener (e.g. by sending them to an actor)
   * @throws IllegalArgumentException if the rank is not in {@code [0, size)}
   */
  public SimulatedDebugger(SimulatedProgram program, int rank, int size, Executor events) {
    this.program = Objects.requireNonNull(program, "program");
    this.executor = Objects.requireNonNull(events, "events");
    if (rank < 0 || rank >= size) {
      throw new IllegalArgumentException("rank " + rank + " is not in [0, " + size + ")");
    }
    this.rank = rank;
    this.size = size;
  }

  /**
   * A debugger for one rank that calls the listener at once, inside the request that causes the
   * event (before the request's future is returned).
   */
  public static SimulatedDebugger direct(SimulatedProgram program, int rank, int size) {
    return new SimulatedDebugger(program, rank, size, DIRECT);
  }

  /** The rank this debugger simulates. */
  public int rank() {
    return rank;
  }

  @Override
  public void subscribe(Consumer<DebugEvent> listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /** Accepts any program name; the simulated program always has debug info. */
  @Override
  public CompletableFuture<ProgramInfo> load(LaunchSpec spec) {
    Objects.requireNonNull(spec, "spec");
    return call(
        () -> {
          open();
          if (state == RankState.NEW) {
            state = RankState.LOADED;
          }
          return new ProgramInfo(spec.program(), true);
        });
  }

  /** Starts the process from the beginning, killing (silently) a process that still lives. */
  @Override
  public CompletableFuture<Void> run() {
    return call(
        () -> {
          open();
          if (state == RankState.NEW) {
            throw new DebuggerException(
                "No executable file specified.\nUse the \"file\" or \"exec-file\" command.");
          }
          epoch++;
          advance(-1, program.positions(), StopReason.UNKNOWN, program.output(rank, size));
          return null;
        });
  }

  /** Continues to the next breakpoint, the crash, or the exit. */
  @Override
  public CompletableFuture<Void> resume() {
    return call(
        () -> {
          requireStopped();
          if (!leaveSpecialStop()) {
            advance(pos, program.positions(), StopReason.UNKNOWN, null);
          }
          return null;
        });
  }

  /** Steps as described in the class comment; {@code finish} in {@code main} fails like gdb. */
  @Override
  public CompletableFuture<Void> step(StepKind kind) {
    Objects.requireNonNull(kind, "kind");
    return call(
        () -> {
          requireStopped();
          if (state == RankState.STOPPED && kind == StepKind.RETURN && effectiveLevel() == 0) {
            throw new DebuggerException("\"finish\" not meaningful in the outermost frame.");
          }
          if (leaveSpecialStop()) {
            return null;
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
          return null;
        });
  }

  /**
   * Stops a hung rank in {@value SimulatedProgram#RECV_FUNCTION} (reason {@code INTERRUPTED}). Any
   * other running process has its stop already on the way; a stopped one stays as it is and no
   * event follows.
   */
  @Override
  public CompletableFuture<Void> interrupt() {
    return call(
        () -> {
          requireLive();
          if (state == RankState.HUNG) {
            int e = ++epoch;
            Frame frame = path().recvStack().get(0);
            deliver(
                e,
                RankState.IN_RECV,
                new DebugEvent.Stopped(StopReason.INTERRUPTED, "", frame, THREAD_ID, 0));
          }
          return null;
        });
  }

  /** Ends the process; an {@code Exited} by {@code SIGKILL} follows. */
  @Override
  public CompletableFuture<Void> kill() {
    return call(
        () -> {
          requireLive();
          int e = ++epoch;
          state = RankState.LOADED;
          pos = 0;
          deliver(e, RankState.LOADED, DebugEvent.Exited.bySignal("SIGKILL"));
          return null;
        });
  }

  @Override
  public CompletableFuture<Breakpoint> insertBreakpoint(BreakpointSpec spec) {
    Objects.requireNonNull(spec, "spec");
    return call(
        () -> {
          requireSymbols();
          SimulatedBreakpoint b = new SimulatedBreakpoint();
          if (spec.location() instanceof Location.Function f) {
            b.resolveFunction(program, f.name());
          } else {
            b.resolveLine(program, (Location.Line) spec.location());
          }
          Extras x = extras();
          b.id = x.nextId++;
          b.kind = Breakpoint.Kind.BREAKPOINT;
          b.enabled = spec.enabled();
          b.temporary = spec.temporary();
          b.condition = spec.condition();
          b.ignore = spec.ignoreCount();
          x.breakpoints.add(b);
          return b.toBreakpoint(program);
        });
  }

  /** Records a watchpoint on a known variable; it never triggers (see the class comment). */
  @Override
  public CompletableFuture<Breakpoint> insertWatchpoint(String expression, WatchKind kind) {
    Objects.requireNonNull(expression, "expression");
    Objects.requireNonNull(kind, "kind");
    return call(
        () -> {
          requireSymbols();
          evaluateNow(expression);
          Extras x = extras();
          SimulatedBreakpoint b = new SimulatedBreakpoint();
          b.id = x.nextId++;
          b.kind =
              switch (kind) {
                case WRITE -> Breakpoint.Kind.WATCHPOINT;
                case READ -> Breakpoint.Kind.READ_WATCHPOINT;
                case ACCESS -> Breakpoint.Kind.ACCESS_WATCHPOINT;
              };
          b.expression = expression;
          b.function = -1;
          b.enabled = true;
          b.condition = "";
          x.breakpoints.add(b);
          return b.toBreakpoint(program);
        });
  }

  @Override
  public CompletableFuture<Void> deleteBreakpoint(int id) {
    return call(
        () -> {
          open();
          extras.breakpoints.remove(breakpoint(id));
          return null;
        });
  }

  @Override
  public CompletableFuture<Void> enableBreakpoint(int id, boolean enabled) {
    return call(
        () -> {
          open();
          breakpoint(id).enabled = enabled;
          return null;
        });
  }

  @Override
  public CompletableFuture<List<Breakpoint>> breakpoints() {
    return call(
        () -> {
          open();
          if (extras == null) {
            return List.of();
          }
          List<Breakpoint> out = new ArrayList<>(extras.breakpoints.size());
          for (SimulatedBreakpoint b : extras.breakpoints) {
            out.add(b.toBreakpoint(program));
          }
          return List.copyOf(out);
        });
  }

  /** The stack, innermost first; the list is shared by all ranks of a class and immutable. */
  @Override
  public CompletableFuture<List<Frame>> frames() {
    return call(this::stack);
  }

  /** The stack of the one thread. */
  @Override
  public CompletableFuture<List<List<Frame>>> allStacks() {
    return call(() -> List.of(stack()));
  }

  /** Selects a frame; {@code No frame at level N.} outside the stack. */
  @Override
  public CompletableFuture<Frame> selectFrame(int level) {
    return call(
        () -> {
          List<Frame> stack = stack();
          if (level < 0 || level >= stack.size()) {
            throw new DebuggerException("No frame at level " + level + ".");
          }
          selectedFrame = level;
          return stack.get(level);
        });
  }

  @Override
  public CompletableFuture<Integer> stackDepth() {
    return call(() -> stack().size());
  }

  /** The locals of the selected frame, listed in the class comment of {@link SimulatedProgram}. */
  @Override
  public CompletableFuture<List<Value>> locals() {
    return call(() -> frameVariables(false));
  }

  /** The arguments of the selected frame. */
  @Override
  public CompletableFuture<List<Value>> arguments() {
    return call(() -> frameVariables(true));
  }

  /** The program's globals, without children; before a run, with their initial values. */
  @Override
  public CompletableFuture<List<Value>> globals() {
    return call(
        () -> {
          open();
          if (state == RankState.NEW) {
            throw new DebuggerException("No symbol table is loaded.  Use the \"file\" command.");
          }
          List<Value> out = new ArrayList<>(program.globals().size());
          SimulatedScope scope = scope();
          for (String name : program.globals()) {
            Value v = scope.global(name);
            out.add(Value.scalar(v.name(), v.type(), v.kind(), v.size(), v.text()));
          }
          return out;
        });
  }

  /**
   * Evaluates {@code NAME}, {@code NAME.FIELD}, {@code NAME[INDEX]}, {@code &NAME} or an integer
   * literal. Without a process only globals are known, with their values before the loop.
   */
  @Override
  public CompletableFuture<Value> evaluate(String expression) {
    Objects.requireNonNull(expression, "expression");
    return call(() -> evaluateNow(expression));
  }

  @Override
  public CompletableFuture<String> typeOf(String expression) {
    Objects.requireNonNull(expression, "expression");
    return call(() -> evaluateNow(expression).type());
  }

  /** One thread, id 1; none without a process. */
  @Override
  public CompletableFuture<List<ThreadInfo>> threads() {
    return call(
        () -> {
          open();
          return isLive() ? List.of(thread()) : List.of();
        });
  }

  /** Selects thread 1, the only one; {@code Invalid thread ID: N} for any other. */
  @Override
  public CompletableFuture<ThreadInfo> selectThread(int id) {
    return call(
        () -> {
          open();
          if (id != THREAD_ID || !isLive()) {
            throw new DebuggerException("Invalid thread ID: " + id);
          }
          return thread();
        });
  }

  @Override
  public CompletableFuture<List<SignalInfo>> signals() {
    return call(
        () -> {
          open();
          return extras == null || extras.signals == null
              ? program.signals()
              : List.of(extras.signals);
        });
  }

  /**
   * Changes this rank's handling of a signal, with gdb's implications ({@code stop} implies {@code
   * print}, {@code noprint} implies {@code nostop}); returns the changed entry.
   */
  @Override
  public CompletableFuture<List<SignalInfo>> handleSignal(
      String signal, Set<SignalAction> actions) {
    Objects.requireNonNull(signal, "signal");
    Objects.requireNonNull(actions, "actions");
    return call(
        () -> {
          open();
          if (!SimulatedProgram.knownSignal(signal)) {
            throw new DebuggerException("Unrecognized or ambiguous flag word: \"" + signal + "\".");
          }
          Extras x = extras();
          if (x.signals == null) {
            x.signals = program.signals().toArray(SignalInfo[]::new);
          }
          for (int i = 0; i < x.signals.length; i++) {
            SignalInfo s = x.signals[i];
            if (s.name().equals(signal)) {
              boolean stop = s.stop();
              boolean print = s.print();
              boolean pass = s.pass();
              for (SignalAction a : actions) {
                switch (a) {
                  case STOP -> {
                    stop = true;
                    print = true;
                  }
                  case NOSTOP -> stop = false;
                  case PRINT -> print = true;
                  case NOPRINT -> {
                    print = false;
                    stop = false;
                  }
                  case PASS -> pass = true;
                  case NOPASS -> pass = false;
                }
              }
              x.signals[i] = new SignalInfo(s.name(), stop, print, pass, s.description());
              return List.of(x.signals[i]);
            }
          }
          throw new IllegalStateException("signal table without " + signal);
        });
  }

  /** Reads deterministic bytes, or what was written; see the class comment. */
  @Override
  public CompletableFuture<byte[]> readMemory(String address, int count) {
    Objects.requireNonNull(address, "address");
    return call(
        () -> {
          long a = accessibleAddress(address, count);
          byte[] out = new byte[count];
          SimulatedScope scope = scope();
          for (int i = 0; i < count; i++) {
            out[i] = scope.memoryByte(a + i);
          }
          if (extras != null && extras.writes != null) {
            for (MemoryWrite w : extras.writes) {
              for (int i = 0; i < w.bytes.length; i++) {
                long at = w.address + i;
                if (at >= a && at < a + count) {
                  out[(int) (at - a)] = w.bytes[i];
                }
              }
            }
          }
          return out;
        });
  }

  @Override
  public CompletableFuture<Void> writeMemory(String address, byte[] bytes) {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(bytes, "bytes");
    return call(
        () -> {
          long a = accessibleAddress(address, bytes.length);
          Extras x = extras();
          if (x.writes == null) {
            x.writes = new ArrayList<>(1);
          }
          x.writes.add(new MemoryWrite(a, bytes.clone()));
          return null;
        });
  }

  /** A few gdb commands, see the class comment; others are {@code Undefined command}. */
  @Override
  public CompletableFuture<String> cli(String command) {
    Objects.requireNonNull(command, "command");
    return call(() -> cliNow(command.strip()));
  }

  /** Ignored: the simulated program reads no input. */
  @Override
  public void writeInput(byte[] bytes) {}

  /** Leaves the live process to itself; pending events are dropped. */
  @Override
  public CompletableFuture<Void> detach() {
    return call(
        () -> {
          requireLive();
          epoch++;
          state = RankState.DETACHED;
          extras = null;
          return null;
        });
  }

  /** Ends the process without an event; idempotent. */
  @Override
  public void close() {
    state = RankState.CLOSED;
    epoch++;
    extras = null;
  }

  /**
   * Ends the debugger as if it had died (gdb killed), to see how the fabric copes: the process goes
   * with it, a {@link DebugEvent.DebuggerEnded} with {@code reason} goes to the listener through
   * the executor, and every request fails with {@code reason} from then on.
   */
  public void end(String reason) {
    Objects.requireNonNull(reason, "reason");
    close();
    endReason = reason;
    executor.execute(() -> listener.accept(new DebugEvent.DebuggerEnded(reason)));
  }

  // ---- execution ----

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
    if (extras != null && !extras.breakpoints.isEmpty()) {
      LineCrossings crossings = new LineCrossings(program, path);
      int hit = Integer.MAX_VALUE;
      for (SimulatedBreakpoint b : extras.breakpoints) {
        if (b.enabled && b.kind == Breakpoint.Kind.BREAKPOINT) {
          hit = Math.min(hit, crossings.stoppingOccurrence(b.line, b.ignore, first));
        }
      }
      if (hit <= stop) {
        stop = hit;
        why = StopReason.BREAKPOINT_HIT;
        signal = "";
      }
      List<SimulatedBreakpoint> passed = extras.breakpoints;
      for (int i = 0; i < passed.size(); i++) {
        SimulatedBreakpoint b = passed.get(i);
        if (!b.enabled || b.kind != Breakpoint.Kind.BREAKPOINT) {
          continue;
        }
        int count = crossings.occurrences(b.line, first, Math.min(stop, end - 1));
        b.hits += count;
        boolean stopsHere = why == StopReason.BREAKPOINT_HIT && count > b.ignore;
        b.ignore = Math.max(0, b.ignore - count);
        if (stopsHere) {
          if (breakpointId == 0) {
            breakpointId = b.id;
          }
          if (b.temporary) {
            passed.remove(i--);
          }
        }
      }
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

  // ---- breakpoints ----

  private SimulatedBreakpoint breakpoint(int id) {
    if (extras != null) {
      for (SimulatedBreakpoint b : extras.breakpoints) {
        if (b.id == id) {
          return b;
        }
      }
    }
    throw new DebuggerException("No breakpoint number " + id + ".");
  }

  // ---- stack and values ----

  private List<Frame> stack() {
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

  private ThreadInfo thread() {
    boolean stopped = state.stopped();
    String target = "Thread 0x7ffff7d8a740 (LWP " + (10000 + rank) + ")";
    return new ThreadInfo(
        THREAD_ID, target, "sim", stopped, stopped ? stack().get(0) : Frame.UNKNOWN);
  }

  /** The locals ({@code arguments} false) or the arguments of the selected frame. */
  private List<Value> frameVariables(boolean arguments) {
    if (state == RankState.LOADED || state == RankState.NEW) {
      throw new DebuggerException("No frame selected.");
    }
    stack();
    return scope().frameVariables(arguments);
  }

  private Value evaluateNow(String expression) {
    open();
    if (state == RankState.NEW) {
      throw new DebuggerException("No symbol table is loaded.  Use the \"file\" command.");
    }
    if (state.running()) {
      throw new DebuggerException("Selected thread is running.");
    }
    return scope().evaluate(expression);
  }

  /** What expressions see now: the globals, the selected frame of a stopped process. */
  private SimulatedScope scope() {
    int iteration = state.live() ? program.iterationAt(pos) : 0;
    if (!state.stopped()) {
      return new SimulatedScope(program, rank, size, iteration, null, 0);
    }
    List<Frame> stack = stack();
    return new SimulatedScope(
        program, rank, size, iteration, stack.get(selectedFrame), stack.size() - 1 - selectedFrame);
  }

  // ---- memory ----

  private long accessibleAddress(String expression, int count) {
    open();
    if (count < 0) {
      throw new DebuggerException("Invalid number of bytes: " + count);
    }
    if (state.running()) {
      throw new DebuggerException("Selected thread is running.");
    }
    long address = scope().address(expression);
    if (!isLive() || address < 0x1000) {
      throw new DebuggerException("Cannot access memory at address 0x" + Long.toHexString(address));
    }
    return address;
  }

  // ---- cli ----

  private String cliNow(String command) {
    open();
    if (command.isEmpty()) {
      return "";
    }
    int space = command.indexOf(' ');
    String word = space < 0 ? command : command.substring(0, space);
    String rest = space < 0 ? "" : command.substring(space + 1).strip();
    switch (word) {
      case "info", "i" -> {
        if (rest.equals("breakpoints") || rest.equals("break") || rest.equals("b")) {
          return breakpointTable();
        }
        throw new DebuggerException(
            "Undefined info command: \"" + rest + "\".  Try \"help info\".");
      }
      case "backtrace", "bt", "where" -> {
        StringBuilder out = new StringBuilder();
        for (Frame f : stack()) {
          out.append('#').append(f.level()).append("  ");
          if (f.level() > 0) {
            out.append(String.format("0x%016x in ", f.address()));
          }
          out.append(f.function()).append(" ()");
          if (f.hasSource()) {
            out.append(" at ").append(f.file()).append(':').append(f.line());
          } else if (!f.library().isEmpty()) {
            out.append(" from ").append(f.library());
          }
          out.append('\n');
        }
        return out.toString();
      }
      case "print", "p" -> {
        return "$1 = " + evaluateNow(rest).text() + "\n";
      }
      case "whatis" -> {
        return "type = " + evaluateNow(rest).type() + "\n";
      }
      case "help" -> {
        return "Simulated gdb: info breakpoints, backtrace, print EXPR, whatis EXPR.\n";
      }
      default -> throw new DebuggerException("Undefined command: \"" + word + "\".  Try \"help\".");
    }
  }

  private String breakpointTable() {
    return SimulatedBreakpoint.table(program, extras == null ? List.of() : extras.breakpoints);
  }

  // ---- state checks ----

  private SimulatedProgram.Path path() {
    return program.path(program.pathOf(rank));
  }

  private boolean isLive() {
    return state.live();
  }

  private void open() {
    if (state == RankState.CLOSED) {
      throw closedException();
    }
  }

  private DebuggerException closedException() {
    return new DebuggerException(endReason == null ? "gdb was closed" : endReason);
  }

  private void requireSymbols() {
    open();
    if (state == RankState.NEW) {
      throw new DebuggerException("No symbol table is loaded.  Use the \"file\" command.");
    }
  }

  private void requireLive() {
    open();
    if (!isLive()) {
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

  private Extras extras() {
    if (extras == null) {
      extras = new Extras();
    }
    return extras;
  }

  /**
   * Completes at once with the supplier's result, or fails with its DebuggerException; after {@link
   * #detach}, fails with {@link Debugger#DETACHED} without asking.
   */
  private <T> CompletableFuture<T> call(Supplier<T> request) {
    if (state == RankState.DETACHED) {
      return CompletableFuture.failedFuture(new DebuggerException(Debugger.DETACHED));
    }
    try {
      return CompletableFuture.completedFuture(request.get());
    } catch (DebuggerException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** What a rank allocates only when it uses breakpoints, signal handling or memory writes. */
  private static final class Extras {
    final List<SimulatedBreakpoint> breakpoints = new ArrayList<>(2);
    int nextId = 1;
    SignalInfo[] signals;
    List<MemoryWrite> writes;
  }

  private record MemoryWrite(long address, byte[] bytes) {}
}
