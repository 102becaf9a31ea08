package io.sdmfabric.model;

import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The per-rank debugger SPI: one instance debugs one process. Every backend implements it, the real
 * one ({@code GdbDebugger}) and the simulated one used to measure the fabric at scale.
 *
 * <p>Every request returns at once with a future; no method blocks the caller. A future fails with
 * {@link DebuggerException} carrying the debugger's own error text, or when the debugger ends.
 * Events (stops, exits, program output) go to the listener given to {@link #subscribe}, on a thread
 * of the backend; a listener must not block.
 *
 * <p>Execution requests ({@link #run}, {@link #resume}, {@link #step}) complete when the process is
 * running; the stop that follows arrives as a {@link DebugEvent.Stopped} or {@link
 * DebugEvent.Exited} event.
 *
 * <p>A debugger that ends on its own (not through {@link #close}) reports it with a last {@link
 * DebugEvent.DebuggerEnded}; pending and later requests fail with its reason.
 *
 * <p>A debugger either started its process (loaded and ran it, or followed it from its exec) or
 * attached to a process that was already running. A process it started ends with it; one it
 * attached to is never ended by the debugger unless {@link #kill} says so: {@link #detach} and
 * {@link #close} leave it running.
 */
public interface Debugger extends AutoCloseable {

  /**
   * The message every request fails with once the debugger has {@linkplain #detach detached}: the
   * same on every rank, so that the replies of many ranks merge.
   */
  String DETACHED = "detached: the process runs on without a debugger";

  /** Sets the listener for events; replaces any earlier one. */
  void subscribe(Consumer<DebugEvent> listener);

  /** Loads the program with its arguments, environment and working directory, without running. */
  CompletableFuture<ProgramInfo> load(LaunchSpec spec);

  /** Starts the loaded program. */
  CompletableFuture<Void> run();

  /** Continues a stopped program. */
  CompletableFuture<Void> resume();

  /** Steps the stopped program. */
  CompletableFuture<Void> step(StepKind kind);

  /** Stops a running program; a {@link DebugEvent.Stopped} event follows. */
  CompletableFuture<Void> interrupt();

  /** Kills the program; the debugger stays usable and the program can be run again. */
  CompletableFuture<Void> kill();

  /** Inserts a breakpoint. */
  CompletableFuture<Breakpoint> insertBreakpoint(BreakpointSpec spec);

  /** Inserts a watchpoint on an expression. */
  CompletableFuture<Breakpoint> insertWatchpoint(String expression, WatchKind kind);

  /** Deletes a breakpoint or watchpoint. */
  CompletableFuture<Void> deleteBreakpoint(int id);

  /** Enables or disables a breakpoint or watchpoint. */
  CompletableFuture<Void> enableBreakpoint(int id, boolean enabled);

  /** Lists breakpoints and watchpoints. */
  CompletableFuture<List<Breakpoint>> breakpoints();

  /** The frames of the selected thread, innermost first. */
  CompletableFuture<List<Frame>> frames();

  /**
   * The stacks of every thread of the stopped process, each innermost frame first, in the order of
   * the threads' numbers; the selection stays as it was.
   */
  CompletableFuture<List<List<Frame>>> allStacks();

  /**
   * What the stopped process waits for in MPI, from the records sdm's interposition library keeps
   * in it; {@link MpiWait#UNKNOWN} where there are none.
   */
  default CompletableFuture<MpiWait> mpiWait() {
    return CompletableFuture.completedFuture(MpiWait.UNKNOWN);
  }

  /**
   * The operating-system process id of the program while it runs (started or attached to, until it
   * ends); empty before and after, and for a debugger without processes (the simulator's).
   */
  default OptionalLong programPid() {
    return OptionalLong.empty();
  }

  /** Selects a frame of the selected thread for variables and expressions. */
  CompletableFuture<Frame> selectFrame(int level);

  /** The number of frames on the selected thread's stack. */
  CompletableFuture<Integer> stackDepth();

  /** The local variables of the selected frame, without children. */
  CompletableFuture<List<Value>> locals();

  /** The arguments of the selected frame, without children. */
  CompletableFuture<List<Value>> arguments();

  /** The program's global and file-static variables that have debug info, without children. */
  CompletableFuture<List<Value>> globals();

  /** Evaluates an expression in the selected frame into a typed value with its children. */
  CompletableFuture<Value> evaluate(String expression);

  /** The type of an expression, e.g. {@code struct point *}. */
  CompletableFuture<String> typeOf(String expression);

  /** The threads of the process. */
  CompletableFuture<List<ThreadInfo>> threads();

  /** Selects a thread for frames, variables and expressions. */
  CompletableFuture<ThreadInfo> selectThread(int id);

  /** How each signal is handled. */
  CompletableFuture<List<SignalInfo>> signals();

  /** Changes how a signal is handled. */
  CompletableFuture<List<SignalInfo>> handleSignal(String signal, Set<SignalAction> actions);

  /** Reads {@code count} bytes of memory at an address expression. */
  CompletableFuture<byte[]> readMemory(String address, int count);

  /** Writes bytes into memory at an address expression. */
  CompletableFuture<Void> writeMemory(String address, byte[] bytes);

  /** Runs a command of the debugger's own command language and returns what it printed. */
  CompletableFuture<String> cli(String command);

  /** Writes bytes to the program's standard input. */
  void writeInput(byte[] bytes);

  /**
   * Detaches from the process and leaves it running, as if no debugger had been there (breakpoints
   * removed, a stopped process continued). The debugger stays, without a process: every later
   * request, {@code detach} included, fails with {@link #DETACHED}. Fails when there is no process
   * to detach from. An implementation may refuse to detach from a process it started itself ({@code
   * GdbDebugger} does: what sdm starts, sdm ends).
   */
  CompletableFuture<Void> detach();

  /**
   * Ends the debugger at once; never throws. A process the debugger started ends with it; one it
   * attached to is detached and runs on.
   */
  @Override
  void close();
}
