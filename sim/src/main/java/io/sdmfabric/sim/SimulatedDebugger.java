package io.sdmfabric.sim;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Debugger;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.ProgramInfo;
import io.sdmfabric.model.SignalAction;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.model.WatchKind;
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
 *
 * <p><b>Its parts.</b> This class is the facade: each request checks its arguments and hands the
 * work to one of the parts in a line, completing the future. {@link SimulatedProcess}, which this
 * class extends so that a rank stays one object, holds the rank's state and its run control; {@link
 * RankTables} its breakpoints, signal handling and written memory; {@link SimulatedScope} what
 * expressions and memory show; {@link SimulatedCli} the CLI commands.
 */
public final class SimulatedDebugger extends SimulatedProcess implements Debugger {

  private static final Executor DIRECT = Runnable::run;

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
    super(program, rank, size, events);
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
    listen(listener);
  }

  // ---- execution ----

  /** Accepts any program name; the simulated program always has debug info. */
  @Override
  public CompletableFuture<ProgramInfo> load(LaunchSpec spec) {
    Objects.requireNonNull(spec, "spec");
    return call(() -> loadProgram(spec));
  }

  /** Starts the process from the beginning, killing (silently) a process that still lives. */
  @Override
  public CompletableFuture<Void> run() {
    return act(this::startProcess);
  }

  /** Continues to the next breakpoint, the crash, or the exit. */
  @Override
  public CompletableFuture<Void> resume() {
    return act(this::resumeProcess);
  }

  /** Steps as described in the class comment; {@code finish} in {@code main} fails like gdb. */
  @Override
  public CompletableFuture<Void> step(StepKind kind) {
    Objects.requireNonNull(kind, "kind");
    return act(() -> stepProcess(kind));
  }

  /**
   * Stops a hung rank in {@value SimulatedProgram#RECV_FUNCTION} (reason {@code INTERRUPTED}). Any
   * other running process has its stop already on the way; a stopped one stays as it is and no
   * event follows.
   */
  @Override
  public CompletableFuture<Void> interrupt() {
    return act(this::interruptProcess);
  }

  /** Ends the process; an {@code Exited} by {@code SIGKILL} follows. */
  @Override
  public CompletableFuture<Void> kill() {
    return act(this::killProcess);
  }

  /** Leaves the live process to itself; pending events are dropped. */
  @Override
  public CompletableFuture<Void> detach() {
    return act(this::detachProcess);
  }

  /** Ends the process without an event; idempotent. */
  @Override
  public void close() {
    closeDebugger();
  }

  /**
   * Ends the debugger as if it had died (gdb killed), to see how the fabric copes: the process goes
   * with it, a {@link DebugEvent.DebuggerEnded} with {@code reason} goes to the listener through
   * the executor, and every request fails with {@code reason} from then on.
   */
  public void end(String reason) {
    Objects.requireNonNull(reason, "reason");
    endDebugger(reason);
  }

  // ---- breakpoints ----

  @Override
  public CompletableFuture<Breakpoint> insertBreakpoint(BreakpointSpec spec) {
    Objects.requireNonNull(spec, "spec");
    return call(
        () -> {
          requireSymbols();
          SimulatedBreakpoint b = SimulatedBreakpoint.of(program, spec);
          return tables().add(program, b);
        });
  }

  /** Records a watchpoint on a known variable; it never triggers (see the class comment). */
  @Override
  public CompletableFuture<Breakpoint> insertWatchpoint(String expression, WatchKind kind) {
    Objects.requireNonNull(expression, "expression");
    Objects.requireNonNull(kind, "kind");
    return call(
        () -> {
          expressionScope().evaluate(expression);
          return tables().add(program, SimulatedBreakpoint.watching(expression, kind));
        });
  }

  @Override
  public CompletableFuture<Void> deleteBreakpoint(int id) {
    return act(() -> tablesToRead().delete(id));
  }

  @Override
  public CompletableFuture<Void> enableBreakpoint(int id, boolean enabled) {
    return act(() -> tablesToRead().enable(id, enabled));
  }

  @Override
  public CompletableFuture<List<Breakpoint>> breakpoints() {
    return call(() -> tablesToRead().list(program));
  }

  // ---- stack and threads ----

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
    return call(() -> selectFrameAt(level));
  }

  @Override
  public CompletableFuture<Integer> stackDepth() {
    return call(() -> stack().size());
  }

  /** One thread, id 1; none without a process. */
  @Override
  public CompletableFuture<List<ThreadInfo>> threads() {
    return call(this::threadList);
  }

  /** Selects thread 1, the only one; {@code Invalid thread ID: N} for any other. */
  @Override
  public CompletableFuture<ThreadInfo> selectThread(int id) {
    return call(() -> threadById(id));
  }

  // ---- values ----

  /** The locals of the selected frame, listed in the class comment of {@link SimulatedProgram}. */
  @Override
  public CompletableFuture<List<Value>> locals() {
    return call(() -> frameScope().frameVariables(false));
  }

  /** The arguments of the selected frame. */
  @Override
  public CompletableFuture<List<Value>> arguments() {
    return call(() -> frameScope().frameVariables(true));
  }

  /** The program's globals, without children; before a run, with their initial values. */
  @Override
  public CompletableFuture<List<Value>> globals() {
    return call(() -> globalScope().globals());
  }

  /**
   * Evaluates {@code NAME}, {@code NAME.FIELD}, {@code NAME[INDEX]}, {@code &NAME} or an integer
   * literal. Without a process only globals are known, with their values before the loop.
   */
  @Override
  public CompletableFuture<Value> evaluate(String expression) {
    Objects.requireNonNull(expression, "expression");
    return call(() -> expressionScope().evaluate(expression));
  }

  @Override
  public CompletableFuture<String> typeOf(String expression) {
    Objects.requireNonNull(expression, "expression");
    return call(() -> expressionScope().evaluate(expression).type());
  }

  // ---- signals ----

  @Override
  public CompletableFuture<List<SignalInfo>> signals() {
    return call(() -> tablesToRead().signals(program));
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
          RankTables.requireKnown(signal);
          return tables().handle(program, signal, actions);
        });
  }

  // ---- memory ----

  /** Reads deterministic bytes, or what was written; see the class comment. */
  @Override
  public CompletableFuture<byte[]> readMemory(String address, int count) {
    Objects.requireNonNull(address, "address");
    return call(
        () -> {
          long a = accessibleAddress(address, count);
          byte[] out = scope().memory(a, count);
          tablesToRead().overlayWrites(a, out);
          return out;
        });
  }

  @Override
  public CompletableFuture<Void> writeMemory(String address, byte[] bytes) {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(bytes, "bytes");
    return act(() -> tables().write(accessibleAddress(address, bytes.length), bytes));
  }

  // ---- the CLI and the program's input ----

  /** A few gdb commands, see the class comment; others are {@code Undefined command}. */
  @Override
  public CompletableFuture<String> cli(String command) {
    Objects.requireNonNull(command, "command");
    return call(() -> SimulatedCli.execute(this, command.strip()));
  }

  /** Ignored: the simulated program reads no input. */
  @Override
  public void writeInput(byte[] bytes) {}

  // ---- completing requests ----

  /**
   * Completes at once with the request's result, or fails with its DebuggerException; after {@link
   * #detach}, fails with {@link Debugger#DETACHED} without asking, and after {@link #close} (or
   * {@link #end}) with {@code gdb was closed} (or the reason).
   */
  private <T> CompletableFuture<T> call(Supplier<T> request) {
    if (detached()) {
      return CompletableFuture.failedFuture(new DebuggerException(Debugger.DETACHED));
    }
    try {
      checkOpen();
      return CompletableFuture.completedFuture(request.get());
    } catch (DebuggerException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** {@link #call} for a request that answers nothing. */
  private CompletableFuture<Void> act(Runnable request) {
    return call(
        () -> {
          request.run();
          return null;
        });
  }
}
