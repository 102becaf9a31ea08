package io.sdmfabric.wire;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.MpiWait;
import io.sdmfabric.model.ProgramInfo;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.proto.BreakpointsEvent;
import io.sdmfabric.wire.proto.DebuggerEndedEvent;
import io.sdmfabric.wire.proto.DepthEvent;
import io.sdmfabric.wire.proto.Empty;
import io.sdmfabric.wire.proto.ErrorEvent;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.ExitEvent;
import io.sdmfabric.wire.proto.FramesEvent;
import io.sdmfabric.wire.proto.MemoryEvent;
import io.sdmfabric.wire.proto.OutputEvent;
import io.sdmfabric.wire.proto.ProcessInfoEvent;
import io.sdmfabric.wire.proto.RankLostEvent;
import io.sdmfabric.wire.proto.SignalsEvent;
import io.sdmfabric.wire.proto.SuspendedEvent;
import io.sdmfabric.wire.proto.TextEvent;
import io.sdmfabric.wire.proto.ThreadStacksEvent;
import io.sdmfabric.wire.proto.ThreadsEvent;
import io.sdmfabric.wire.proto.TypeEvent;
import io.sdmfabric.wire.proto.ValueExtreme;
import io.sdmfabric.wire.proto.ValueSummaryEvent;
import io.sdmfabric.wire.proto.VariablesEvent;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Builds every reply and event body ({@link EventBody}, {@code debug.proto}) from model values: the
 * twin of {@link Commands}, and the one place an {@code EventBody} is built. One method per kind of
 * the {@code EventBody} oneof, named after it ({@link #rankLost()} for {@code lost}, {@link
 * #event(DebugEvent)} for the five kinds a debugger reports on its own); each returns a complete,
 * immutable message whose {@linkplain CanonicalBytes canonical bytes} are equal for equal
 * arguments, so that equal replies of different ranks merge. Front-ends read them back decoded
 * once, as a {@link Reply}.
 */
public final class EventBodies {

  /**
   * How front-ends describe a {@linkplain #rankLost() lost rank} to users, as text and in JSON: the
   * error {@value}.
   */
  public static final String RANK_LOST = "rank lost";

  /**
   * The error with which ranks of a job that a session did not attach to answer every command (one
   * text for all of them, so that their replies merge).
   */
  public static final String NOT_ATTACHED = "not attached";

  private EventBodies() {}

  // ------------------------------------------------------------------ unsolicited events

  /**
   * The reply body of a model event: {@link DebugEvent.Stopped} is {@code suspended}, {@link
   * DebugEvent.Resumed} {@code running}, {@link DebugEvent.Exited} {@code exit}, {@link
   * DebugEvent.Output} {@code output}, {@link DebugEvent.DebuggerEnded} {@code debugger_ended}.
   * {@link #debugEvent} inverts it.
   */
  public static EventBody event(DebugEvent event) {
    Objects.requireNonNull(event, "event");
    EventBody.Builder b = EventBody.newBuilder();
    // Java 17 has no pattern switch; DebugEvent is sealed to these five.
    if (event instanceof DebugEvent.Stopped s) {
      b.setSuspended(
          SuspendedEvent.newBuilder()
              .setReason(Protos.toProto(s.reason()))
              .setSignal(s.signal())
              .setFrame(Protos.toProto(s.frame()))
              .setThreadId(s.threadId())
              .setBreakpointId(s.breakpointId()));
    } else if (event instanceof DebugEvent.Resumed) {
      b.setRunning(Empty.getDefaultInstance());
    } else if (event instanceof DebugEvent.Exited x) {
      b.setExit(
          ExitEvent.newBuilder()
              .setCode(x.code())
              .setSignal(x.signal())
              .setStatusLost(x.statusLost()));
    } else if (event instanceof DebugEvent.DebuggerEnded d) {
      b.setDebuggerEnded(DebuggerEndedEvent.newBuilder().setReason(d.reason()));
    } else {
      // Output.bytes() returns a fresh copy, so wrapping it without another copy is safe.
      byte[] bytes = ((DebugEvent.Output) event).bytes();
      b.setOutput(OutputEvent.newBuilder().setBytes(UnsafeByteOperations.unsafeWrap(bytes)));
    }
    return b.build();
  }

  /**
   * The model event a body of kind {@code suspended}, {@code running}, {@code exit}, {@code output}
   * or {@code debugger_ended} reports. A suspended event without a frame stopped at {@link
   * Frame#UNKNOWN}.
   *
   * @throws IllegalArgumentException for a body of any other kind: those are replies to commands,
   *     not events
   */
  public static DebugEvent debugEvent(EventBody body) {
    Objects.requireNonNull(body, "body");
    return switch (body.getKindCase()) {
      case SUSPENDED -> {
        SuspendedEvent s = body.getSuspended();
        yield new DebugEvent.Stopped(
            Protos.fromProto(s.getReason()),
            s.getSignal(),
            s.hasFrame() ? Protos.fromProto(s.getFrame()) : Frame.UNKNOWN,
            s.getThreadId(),
            s.getBreakpointId());
      }
      case RUNNING -> new DebugEvent.Resumed();
      case EXIT ->
          new DebugEvent.Exited(
              body.getExit().getCode(), body.getExit().getSignal(), body.getExit().getStatusLost());
      case OUTPUT -> new DebugEvent.Output(body.getOutput().getBytes().toByteArray());
      case DEBUGGER_ENDED -> new DebugEvent.DebuggerEnded(body.getDebuggerEnded().getReason());
      default ->
          throw new IllegalArgumentException(
              "event body of kind " + body.getKindCase() + " is not a debug event");
    };
  }

  // ------------------------------------------------------------------ reply factories

  /** The reply of a command that succeeded with nothing to report. */
  public static EventBody ok() {
    return EventBody.newBuilder().setOk(Empty.getDefaultInstance()).build();
  }

  /** The reply of a command that failed, with the debugger's message. */
  public static EventBody error(String message) {
    Objects.requireNonNull(message, "message");
    return EventBody.newBuilder().setError(ErrorEvent.newBuilder().setMessage(message)).build();
  }

  /** The report that a program was loaded. */
  public static EventBody loaded(ProgramInfo info) {
    return EventBody.newBuilder().setLoaded(Protos.toProto(info)).build();
  }

  /** The reply with one breakpoint, e.g. the one just inserted. */
  public static EventBody breakpoint(Breakpoint breakpoint) {
    return EventBody.newBuilder().setBreakpoint(Protos.toProto(breakpoint)).build();
  }

  /** The reply with a list of breakpoints, in the order given. */
  public static EventBody breakpoints(List<Breakpoint> breakpoints) {
    BreakpointsEvent.Builder b = BreakpointsEvent.newBuilder();
    breakpoints.forEach(bp -> b.addBreakpoints(Protos.toProto(bp)));
    return EventBody.newBuilder().setBreakpoints(b).build();
  }

  /**
   * The reply and the event of a rank whose server is gone: it answers the commands it still owed
   * and every later one with this, and front-ends show it as the error {@value #RANK_LOST}.
   */
  public static EventBody rankLost() {
    return EventBody.newBuilder().setLost(RankLostEvent.getDefaultInstance()).build();
  }

  /** {@link #rankLost()} saying why ({@code reason}; empty: no reason known). */
  public static EventBody rankLost(String reason) {
    return EventBody.newBuilder().setLost(RankLostEvent.newBuilder().setReason(reason)).build();
  }

  /** What front-ends say of a lost rank: {@value #RANK_LOST}, and the reason when there is one. */
  public static String lostText(RankLostEvent lost) {
    return new Reply.Lost(lost.getReason()).message();
  }

  /**
   * Why ranks are lost whose server was the actor at {@code address} (a Pekko address, {@code
   * pekko://sdm@HOST:PORT}): the node at HOST; no reason for one in this JVM, which has no host.
   */
  public static String lostReason(java.util.Optional<String> host) {
    return host.map(
            h ->
                "the server of their node at "
                    + h
                    + " stopped (its agent ended, or the node stopped answering)")
        .orElse("");
  }

  /** The reply of a debugger that detached from its process and left it running. */
  public static EventBody detached() {
    return EventBody.newBuilder().setDetached(Empty.getDefaultInstance()).build();
  }

  /** The report that the process runs. Same as {@code event(new DebugEvent.Resumed())}. */
  public static EventBody running() {
    return EventBody.newBuilder().setRunning(Empty.getDefaultInstance()).build();
  }

  /** The reply with a call stack, innermost frame first. */
  public static EventBody frames(List<Frame> frames) {
    FramesEvent.Builder b = FramesEvent.newBuilder();
    frames.forEach(f -> b.addFrames(Protos.toProto(f)));
    return EventBody.newBuilder().setFrames(b).build();
  }

  /**
   * The reply with every thread's stack, in a canonical order (by the stacks' frames, not by
   * thread), so that ranks whose threads stand in the same places merge.
   */
  public static EventBody threadStacks(List<List<Frame>> stacks) {
    List<FramesEvent> sorted =
        stacks.stream()
            .map(
                frames -> {
                  FramesEvent.Builder b = FramesEvent.newBuilder();
                  frames.forEach(f -> b.addFrames(Protos.toProto(f)));
                  return b.build();
                })
            .sorted(
                Comparator.comparing(
                    FramesEvent::toByteString, ByteString.unsignedLexicographicalComparator()))
            .toList();
    return EventBody.newBuilder()
        .setThreadStacks(ThreadStacksEvent.newBuilder().addAllStacks(sorted))
        .build();
  }

  /** The reply with what a rank waits for in MPI. */
  public static EventBody mpiWait(MpiWait wait) {
    return EventBody.newBuilder().setMpiWait(Protos.toProto(wait)).build();
  }

  /**
   * The reply with a rank's process: its pid (0 when it has none), its host, and the pid of the JVM
   * that serves it.
   */
  public static EventBody processInfo(int pid, String host, int serverPid) {
    return EventBody.newBuilder()
        .setProcessInfo(
            ProcessInfoEvent.newBuilder().setPid(pid).setHost(host).setServerPid(serverPid))
        .build();
  }

  /** The reply with one frame, e.g. the one just selected. */
  public static EventBody frame(Frame frame) {
    return EventBody.newBuilder().setFrame(Protos.toProto(frame)).build();
  }

  /** The reply with the depth of the call stack. */
  public static EventBody depth(int depth) {
    return EventBody.newBuilder().setDepth(DepthEvent.newBuilder().setDepth(depth)).build();
  }

  /** The reply with an expression's value. */
  public static EventBody value(Value value) {
    return EventBody.newBuilder().setValue(Protos.toProto(value)).build();
  }

  /**
   * The summary of value classes a node of the tree folded together ({@link
   * Reply.ValuesSummarized}): how many, and the least and the greatest number among them with their
   * ranks ({@code extremes}: those two in that order, or none).
   */
  public static EventBody valueSummary(long classes, List<Reply.Extreme> extremes) {
    Reply.ValuesSummarized checked = new Reply.ValuesSummarized(classes, extremes);
    ValueSummaryEvent.Builder b = ValueSummaryEvent.newBuilder().setClasses(classes);
    checked.least().ifPresent(e -> b.setLeast(extreme(e)));
    checked.greatest().ifPresent(e -> b.setGreatest(extreme(e)));
    return EventBody.newBuilder().setValueSummary(b).build();
  }

  private static ValueExtreme extreme(Reply.Extreme e) {
    return ValueExtreme.newBuilder()
        .setValue(Protos.toProto(e.value()))
        .setRanks(Protos.toProto(e.ranks()))
        .build();
  }

  /** The reply with an expression's type, as the program's language writes it. */
  public static EventBody type(String type) {
    Objects.requireNonNull(type, "type");
    return EventBody.newBuilder().setType(TypeEvent.newBuilder().setType(type)).build();
  }

  /** The reply with a list of variables (locals, arguments or globals), in the order given. */
  public static EventBody variables(List<Value> variables) {
    VariablesEvent.Builder b = VariablesEvent.newBuilder();
    variables.forEach(v -> b.addVariables(Protos.toProto(v)));
    return EventBody.newBuilder().setVariables(b).build();
  }

  /** The reply with the process's threads, in the order given. */
  public static EventBody threads(List<ThreadInfo> threads) {
    ThreadsEvent.Builder b = ThreadsEvent.newBuilder();
    threads.forEach(t -> b.addThreads(Protos.toProto(t)));
    return EventBody.newBuilder().setThreads(b).build();
  }

  /** The reply with one thread, e.g. the one just selected. */
  public static EventBody thread(ThreadInfo thread) {
    return EventBody.newBuilder().setThread(Protos.toProto(thread)).build();
  }

  /** The reply with memory contents; the array is copied. */
  public static EventBody memory(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    return EventBody.newBuilder()
        .setMemory(MemoryEvent.newBuilder().setBytes(ByteString.copyFrom(bytes)))
        .build();
  }

  /** The reply with the handling of signals, in the order given. */
  public static EventBody signals(List<SignalInfo> signals) {
    SignalsEvent.Builder b = SignalsEvent.newBuilder();
    signals.forEach(s -> b.addSignals(Protos.toProto(s)));
    return EventBody.newBuilder().setSignals(b).build();
  }

  /** The reply with free text, e.g. the output of a console command. */
  public static EventBody text(String text) {
    Objects.requireNonNull(text, "text");
    return EventBody.newBuilder().setText(TextEvent.newBuilder().setText(text)).build();
  }

  /** The reply with a merged call-prefix tree. */
  public static EventBody stackTree(StackTree tree) {
    Objects.requireNonNull(tree, "tree");
    return EventBody.newBuilder().setStackTree(tree.toProto()).build();
  }
}
