package io.sdmfabric.gdbmi;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Debugger;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.JointRequests;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.MpiWait;
import io.sdmfabric.model.ProgramInfo;
import io.sdmfabric.model.SharedDebugger;
import io.sdmfabric.model.SignalAction;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.model.WatchKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The {@link Debugger} SPI on a real gdb, through GDB/MI: one instance debugs one process, one of
 * the programs of a gdb that may debug several ({@link SharedGdb}; {@link #start} makes a gdb of
 * its own). See {@link GdbDriver} for the threads and the cleanup guarantees, {@link Inferior} for
 * how a rank numbers its threads and breakpoints, and {@link InferiorEvents} for how a rank stops
 * as a whole in gdb's non-stop mode.
 *
 * <p>A facade, as Eclipse CDT's DSF-GDB has one service per MI domain: each method is one call to
 * the rank's service for it. {@link GdbProcesses} loads, runs, kills, detaches and closes the
 * program, and {@link GdbAttach} attaches to it; {@link GdbRunControl} continues, steps and
 * interrupts it and sets how gdb handles signals; {@link GdbBreakpoints} keeps its breakpoints and
 * watchpoints; {@link GdbStack} its threads, frames and the frames' variables; {@link GdbData} its
 * values, globals and memory. They share the rank's {@link RankLink}, and every command line they
 * send is built by {@link MiCommands}.
 *
 * <p>Values come from sdm's own gdb command where gdb has Python, from variable objects otherwise
 * ({@link ValueReader}): the printed text is gdb's own, the children go {@value #CHILD_DEPTH}
 * levels deep, at most {@value #MAX_CHILDREN} per level, and pointers are not followed (their
 * target may be garbage; {@code print *p} follows one on purpose).
 *
 * <p>A breakpoint of a rank is a breakpoint of gdb's whose condition names the rank's program
 * ({@code $_inferior == N}, before the user's own condition), so that it stops that rank only; the
 * ranks of a gdb that set a breakpoint alike share one ({@link SharedBreakpoints}). Signal handling
 * ({@code handle}) is gdb's, for all the programs of a gdb.
 */
public final class GdbDebugger implements SharedDebugger {
  static final int CHILD_DEPTH = 2;
  static final int MAX_CHILDREN = 100;
  static final int MAX_GLOBALS = 100;

  private final RankLink link;
  private final GdbProcesses processes;
  private final GdbAttach attach;
  private final GdbRunControl runControl;
  private final GdbBreakpoints breakpoints;
  private final GdbStack stack;
  private final GdbData data;

  GdbDebugger(
      SharedGdb gdb, Inferior inferior, InferiorEvents events, GdbDriver.ProgramTerminal terminal) {
    this.link = new RankLink(gdb, inferior, events);
    this.runControl = new GdbRunControl(link);
    this.processes = new GdbProcesses(link, runControl, terminal);
    this.attach = new GdbAttach(link, processes);
    this.breakpoints = new GdbBreakpoints(link);
    this.stack = new GdbStack(link);
    this.data = new GdbData(link);
  }

  /** Starts gdb with the default options ({@code $SDM_GDB} or {@code gdb}). */
  public static GdbDebugger start() throws IOException {
    return start(GdbOptions.defaults());
  }

  /** Starts a gdb of its own. */
  public static GdbDebugger start(GdbOptions options) throws IOException {
    SharedGdb gdb = SharedGdb.start(options);
    try {
      return gdb.add();
    } catch (IOException e) {
      gdb.driver().close();
      throw e;
    }
  }

  /** The driver underneath, for the few callers that speak MI themselves. */
  public GdbDriver driver() {
    return link.driver;
  }

  /** What this rank's services share. */
  RankLink link() {
    return link;
  }

  /**
   * Its gdb's joint requests ({@link GdbJointRequests}), where gdb has sdm's commands (Python) and
   * the rank has not detached.
   */
  @Override
  public Optional<JointRequests> joint() {
    return link.driver.hasValueCommands() && !link.detached
        ? Optional.of(link.gdb.joint())
        : Optional.empty();
  }

  @Override
  public OptionalLong programPid() {
    return processes.pid();
  }

  @Override
  public void subscribe(Consumer<DebugEvent> listener) {
    link.events.subscriber = listener;
  }

  /**
   * Attaches to process {@code pid}, stopped (SIGSTOP) just before it execs {@code program}, and
   * lets it run up to that exec: the program is then loaded and stopped before its first
   * instruction (a dynamic one in its loader, once the loader has mapped it), as after {@link
   * #load}. From then on {@link #load} answers what was attached (the launcher, not gdb, started
   * it), {@link #run} continues it, and {@link #close} kills it rather than detach. Fails when the
   * process cannot be attached or ends instead of exec'ing (the program could not be found, say).
   *
   * <p>A dynamic program stops at its first shared-library event, which costs no breakpoint number,
   * so that the user's breakpoints are numbered from 1 as when gdb starts the program. A static one
   * (or one that cannot be read here) stops at an exec catchpoint, deleted at once.
   */
  public CompletableFuture<ProgramInfo> attachAtExec(long pid, Path program) {
    return attach.atExec(pid, program);
  }

  /**
   * Attaches to process {@code pid}, which runs already (a rank of a job started without sdm), and
   * stops it where it is. From then on {@link #load} answers what was attached, {@link #run} is
   * refused (the program runs already: {@link #resume} continues it), {@link #kill} ends it, and
   * {@link #detach} and {@link #close} leave it running, as do gdb's death and the JVM's exit (see
   * {@link GdbDriver#leaveProgramRunning}). The attach's own stop is no event: it is the state the
   * attach leaves the process in, and comes before anyone can be told. Fails with gdb's message
   * when the process cannot be attached (it is gone, or traced already, or not the user's).
   */
  public CompletableFuture<ProgramInfo> attach(long pid) {
    return attach.running(pid);
  }

  /**
   * Attaches to process {@code pid}, which the job's launcher started for this session and holds
   * for the debugger (in PMIx_Init, through the PMIx tool interface), and stops it where it is.
   * From then on it is as after {@link #attachAtExec}: {@link #load} answers what was attached,
   * {@link #run} continues it, and {@link #close} kills it rather than detach. Fails with gdb's
   * message when the process cannot be attached.
   *
   * <p>A process held at its exec ({@code PMIX_DEBUG_STOP_ON_EXEC}, for programs that are no PMIx
   * clients) is stopped by job control there: that SIGSTOP means nothing under a debugger and is
   * swallowed, and the stop is ended once gdb holds it, so that the process does not go back to it
   * when gdb lets it go (as after {@link #attachAtExec}).
   */
  public CompletableFuture<ProgramInfo> attachHeld(long pid) {
    return attach.held(pid);
  }

  @Override
  public CompletableFuture<ProgramInfo> load(LaunchSpec spec) {
    return processes.load(spec);
  }

  @Override
  public CompletableFuture<Void> run() {
    return processes.run();
  }

  @Override
  public CompletableFuture<Void> resume() {
    return runControl.resume();
  }

  @Override
  public CompletableFuture<Void> step(StepKind kind) {
    return runControl.step(kind);
  }

  @Override
  public CompletableFuture<Void> interrupt() {
    return runControl.interrupt();
  }

  @Override
  public CompletableFuture<Void> kill() {
    return processes.kill();
  }

  @Override
  public CompletableFuture<Breakpoint> insertBreakpoint(BreakpointSpec spec) {
    return breakpoints.insert(spec);
  }

  @Override
  public CompletableFuture<Breakpoint> insertWatchpoint(String expression, WatchKind kind) {
    return breakpoints.insertWatchpoint(expression, kind);
  }

  @Override
  public CompletableFuture<Void> deleteBreakpoint(int id) {
    return breakpoints.delete(id);
  }

  @Override
  public CompletableFuture<Void> enableBreakpoint(int id, boolean enabled) {
    return breakpoints.enable(id, enabled);
  }

  @Override
  public CompletableFuture<List<Breakpoint>> breakpoints() {
    return breakpoints.list();
  }

  @Override
  public CompletableFuture<List<Frame>> frames() {
    return stack.frames();
  }

  /** Each of the program's threads' frames, asked of gdb thread by thread, selecting none. */
  @Override
  public CompletableFuture<List<List<Frame>>> allStacks() {
    return stack.allStacks();
  }

  @Override
  public CompletableFuture<Frame> selectFrame(int level) {
    return stack.selectFrame(level);
  }

  @Override
  public CompletableFuture<Integer> stackDepth() {
    return stack.depth();
  }

  @Override
  public CompletableFuture<List<Value>> locals() {
    return stack.variables(false);
  }

  @Override
  public CompletableFuture<List<Value>> arguments() {
    return stack.variables(true);
  }

  /** The program's own globals, at most {@value #MAX_GLOBALS} ({@link GdbData#globals}). */
  @Override
  public CompletableFuture<List<Value>> globals() {
    return data.globals();
  }

  @Override
  public CompletableFuture<Value> evaluate(String expression) {
    return data.evaluate(expression);
  }

  @Override
  public CompletableFuture<String> typeOf(String expression) {
    return data.typeOf(expression);
  }

  @Override
  public CompletableFuture<List<ThreadInfo>> threads() {
    return stack.threads();
  }

  @Override
  public CompletableFuture<ThreadInfo> selectThread(int id) {
    return stack.selectThread(id);
  }

  @Override
  public CompletableFuture<List<SignalInfo>> signals() {
    return runControl.signals();
  }

  @Override
  public CompletableFuture<List<SignalInfo>> handleSignal(
      String signal, Set<SignalAction> actions) {
    return runControl.handleSignal(signal, actions);
  }

  @Override
  public CompletableFuture<MpiWait> mpiWait() {
    return data.mpiWait();
  }

  @Override
  public CompletableFuture<byte[]> readMemory(String address, int count) {
    return data.readMemory(address, count);
  }

  @Override
  public CompletableFuture<Void> writeMemory(String address, byte[] bytes) {
    return data.writeMemory(address, bytes);
  }

  @Override
  public CompletableFuture<String> cli(String command) {
    return link.console(command).thenApply(MiReply::console);
  }

  @Override
  public void writeInput(byte[] bytes) {
    processes.writeInput(bytes);
  }

  /**
   * Detaches from a process this debugger {@linkplain #attach attached to}; refuses a process sdm
   * started ({@link #load} and {@link #run}, or {@link #attachAtExec}), which ends with the
   * session.
   */
  @Override
  public CompletableFuture<Void> detach() {
    return processes.detach();
  }

  /**
   * Ends gdb. A program gdb runs, or followed from its exec, ends with it; one it {@linkplain
   * #attach attached to} is detached and runs on.
   */
  @Override
  public void close() {
    processes.close();
  }

  /**
   * Ends gdb leaving the program to run on, even one sdm started or followed from its exec: for an
   * agent cut off from its session, whose job goes on without it (killing its ranks would make
   * their launcher end the whole job).
   */
  public void closeLeavingProgram() {
    processes.closeLeavingProgram();
  }
}
