package io.sdmfabric.wire;

import com.google.protobuf.ByteString;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.SignalAction;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.model.WatchKind;
import io.sdmfabric.wire.proto.BreakpointIdCmd;
import io.sdmfabric.wire.proto.CliCmd;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.Empty;
import io.sdmfabric.wire.proto.ExpressionCmd;
import io.sdmfabric.wire.proto.FrameCmd;
import io.sdmfabric.wire.proto.HandleSignalCmd;
import io.sdmfabric.wire.proto.InputCmd;
import io.sdmfabric.wire.proto.MemoryReadCmd;
import io.sdmfabric.wire.proto.MemoryWriteCmd;
import io.sdmfabric.wire.proto.StartSessionCmd;
import io.sdmfabric.wire.proto.StepCmd;
import io.sdmfabric.wire.proto.ThreadCmd;
import io.sdmfabric.wire.proto.WatchpointCmd;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Set;

/**
 * Builds every command of the debug command set ({@link CommandBody}, {@code debug.proto}) from
 * model values, so that front-ends never assemble protobuf messages themselves (as CDT's {@code
 * CommandFactory} does for MI commands). One method per kind of the {@code CommandBody} oneof,
 * named after it; each returns a complete, immutable message that may be sent to any number of
 * ranks.
 */
public final class Commands {
  private static final Empty EMPTY = Empty.getDefaultInstance();

  private Commands() {}

  /**
   * Whether {@code body} sets the ranks it addresses running until they stop again (run, continue,
   * and every step: into, over, return), so that their stops are awaited.
   */
  public static boolean resumes(CommandBody body) {
    return body.hasRun() || body.hasGo() || body.hasStep();
  }

  /** Loads {@code launch}'s program (a rank started or attached by others answers what it runs). */
  public static CommandBody startSession(LaunchSpec launch) {
    return CommandBody.newBuilder()
        .setStartSession(StartSessionCmd.newBuilder().setLaunch(Protos.toProto(launch)))
        .build();
  }

  /** Inserts a breakpoint ({@code break}, {@code tbreak}). */
  public static CommandBody setBreakpoint(BreakpointSpec spec) {
    return CommandBody.newBuilder().setSetBreakpoint(Protos.toProto(spec)).build();
  }

  /** Deletes breakpoint {@code id} ({@code delete}). */
  public static CommandBody deleteBreakpoint(int id) {
    return CommandBody.newBuilder().setDeleteBreakpoint(breakpointId(id)).build();
  }

  /** Enables breakpoint {@code id} ({@code enable}). */
  public static CommandBody enableBreakpoint(int id) {
    return CommandBody.newBuilder().setEnableBreakpoint(breakpointId(id)).build();
  }

  /** Disables breakpoint {@code id} ({@code disable}). */
  public static CommandBody disableBreakpoint(int id) {
    return CommandBody.newBuilder().setDisableBreakpoint(breakpointId(id)).build();
  }

  /** Watches {@code expression} for writes, reads or both ({@code watch}). */
  public static CommandBody setWatchpoint(String expression, WatchKind kind) {
    Objects.requireNonNull(expression, "expression");
    return CommandBody.newBuilder()
        .setSetWatchpoint(
            WatchpointCmd.newBuilder().setExpression(expression).setKind(Protos.toProto(kind)))
        .build();
  }

  /** Lists the breakpoints ({@code info breakpoints}). */
  public static CommandBody listBreakpoints() {
    return CommandBody.newBuilder().setListBreakpoints(EMPTY).build();
  }

  /** Runs the loaded program from its start, or continues one that was started stopped. */
  public static CommandBody run() {
    return CommandBody.newBuilder().setRun(EMPTY).build();
  }

  /** Continues a stopped program ({@code continue}). */
  public static CommandBody go() {
    return CommandBody.newBuilder().setGo(EMPTY).build();
  }

  /** Steps into, over or out of ({@code step}, {@code next}, {@code finish}). */
  public static CommandBody step(StepKind kind) {
    return CommandBody.newBuilder()
        .setStep(StepCmd.newBuilder().setKind(Protos.toProto(kind)))
        .build();
  }

  /** Interrupts a running program; it reports a stop ({@code interrupt}). */
  public static CommandBody suspend() {
    return CommandBody.newBuilder().setSuspend(EMPTY).build();
  }

  /** Kills the program ({@code kill}); it reports its exit. */
  public static CommandBody terminate() {
    return CommandBody.newBuilder().setTerminate(EMPTY).build();
  }

  /** The call stack of the selected thread, innermost frame first ({@code bt}). */
  public static CommandBody listFrames() {
    return CommandBody.newBuilder().setListFrames(EMPTY).build();
  }

  /** The call stacks of every thread ({@code bt all}, {@code sdm stacks}). */
  public static CommandBody listAllStacks() {
    return CommandBody.newBuilder().setListAllStacks(EMPTY).build();
  }

  /** What each rank waits for in MPI ({@code waits}, {@code sdm stacks}). */
  public static CommandBody mpiWait() {
    return CommandBody.newBuilder().setMpiWait(EMPTY).build();
  }

  /** Each rank's operating-system process and host ({@code procs}, the model's nodes). */
  public static CommandBody processInfo() {
    return CommandBody.newBuilder().setProcessInfo(EMPTY).build();
  }

  /**
   * Selects the frame at {@code level}, 0 the innermost ({@code frame}, {@code up}, {@code down}).
   */
  public static CommandBody selectFrame(int level) {
    return CommandBody.newBuilder().setSelectFrame(FrameCmd.newBuilder().setLevel(level)).build();
  }

  /** The depth of the selected thread's call stack. */
  public static CommandBody stackDepth() {
    return CommandBody.newBuilder().setStackDepth(EMPTY).build();
  }

  /** The value of {@code expression} in the selected frame ({@code print}). */
  public static CommandBody evaluate(String expression) {
    return CommandBody.newBuilder().setEvaluate(expression(expression)).build();
  }

  /**
   * {@code command} asking each node of the tree to pass up at most {@code classes} classes of
   * value replies one by one, and to fold the others into one summary ({@link
   * Reply.ValuesSummarized}); 0 leaves the session's default. A front-end raises it to see the
   * classes a summary stood for.
   *
   * @throws IllegalArgumentException for a negative count
   */
  public static CommandBody withValueClasses(CommandBody command, int classes) {
    Objects.requireNonNull(command, "command");
    if (classes < 0) {
      throw new IllegalArgumentException("value classes must be >= 0, not " + classes);
    }
    return command.toBuilder().setValueClasses(classes).build();
  }

  /** The type of {@code expression}, as the program's language writes it. */
  public static CommandBody getType(String expression) {
    return CommandBody.newBuilder().setGetType(expression(expression)).build();
  }

  /** The local variables of the selected frame ({@code locals}). */
  public static CommandBody listLocals() {
    return CommandBody.newBuilder().setListLocals(EMPTY).build();
  }

  /** The arguments of the selected frame ({@code args}). */
  public static CommandBody listArgs() {
    return CommandBody.newBuilder().setListArgs(EMPTY).build();
  }

  /** The program's global variables. */
  public static CommandBody listGlobals() {
    return CommandBody.newBuilder().setListGlobals(EMPTY).build();
  }

  /** The program's threads ({@code info threads}). */
  public static CommandBody listThreads() {
    return CommandBody.newBuilder().setListThreads(EMPTY).build();
  }

  /** Selects thread {@code id} ({@code thread}). */
  public static CommandBody selectThread(int id) {
    return CommandBody.newBuilder().setSelectThread(ThreadCmd.newBuilder().setId(id)).build();
  }

  /** Reads {@code count} bytes at {@code address}, an expression ({@code x/N}). */
  public static CommandBody readMemory(String address, int count) {
    Objects.requireNonNull(address, "address");
    return CommandBody.newBuilder()
        .setReadMemory(MemoryReadCmd.newBuilder().setAddress(address).setCount(count))
        .build();
  }

  /** Writes {@code bytes} (copied) at {@code address}, an expression. */
  public static CommandBody writeMemory(String address, byte[] bytes) {
    Objects.requireNonNull(address, "address");
    return CommandBody.newBuilder()
        .setWriteMemory(
            MemoryWriteCmd.newBuilder().setAddress(address).setBytes(ByteString.copyFrom(bytes)))
        .build();
  }

  /** How each signal is handled ({@code info signals}). */
  public static CommandBody listSignals() {
    return CommandBody.newBuilder().setListSignals(EMPTY).build();
  }

  /** Changes how {@code signal} is handled ({@code handle}); the actions in canonical order. */
  public static CommandBody handleSignal(String signal, Set<SignalAction> actions) {
    Objects.requireNonNull(signal, "signal");
    return CommandBody.newBuilder()
        .setHandleSignal(
            HandleSignalCmd.newBuilder()
                .setSignal(signal)
                .addAllActions(SignalWords.words(actions)))
        .build();
  }

  /** A command in the debugger's own language ({@code gdb RAW}, {@code ptype}); answers text. */
  public static CommandBody cli(String command) {
    Objects.requireNonNull(command, "command");
    return CommandBody.newBuilder().setCli(CliCmd.newBuilder().setCommand(command)).build();
  }

  /** Bytes (copied) for the program's standard input. */
  public static CommandBody input(byte[] bytes) {
    return CommandBody.newBuilder()
        .setInput(InputCmd.newBuilder().setBytes(ByteString.copyFrom(bytes)))
        .build();
  }

  /**
   * One line of text for the program's standard input, in UTF-8 with its newline ({@code input}).
   */
  public static CommandBody inputLine(String line) {
    Objects.requireNonNull(line, "line");
    return input((line + "\n").getBytes(StandardCharsets.UTF_8));
  }

  /** Leaves the process running without a debugger ({@code detach}); answers {@code detached}. */
  public static CommandBody detach() {
    return CommandBody.newBuilder().setDetach(EMPTY).build();
  }

  private static BreakpointIdCmd breakpointId(int id) {
    return BreakpointIdCmd.newBuilder().setId(id).build();
  }

  private static ExpressionCmd expression(String expression) {
    Objects.requireNonNull(expression, "expression");
    return ExpressionCmd.newBuilder().setExpression(expression).build();
  }
}
