package io.sdmfabric.wire;

import com.google.protobuf.UnsafeByteOperations;
import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.Location;
import io.sdmfabric.model.MpiWait;
import io.sdmfabric.model.ProgramInfo;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.model.WatchKind;
import io.sdmfabric.wire.proto.BreakpointKindProto;
import io.sdmfabric.wire.proto.BreakpointProto;
import io.sdmfabric.wire.proto.BreakpointsEvent;
import io.sdmfabric.wire.proto.EnvVar;
import io.sdmfabric.wire.proto.FrameProto;
import io.sdmfabric.wire.proto.FramesEvent;
import io.sdmfabric.wire.proto.LaunchProto;
import io.sdmfabric.wire.proto.LineLocation;
import io.sdmfabric.wire.proto.MpiPeer;
import io.sdmfabric.wire.proto.MpiWaitEvent;
import io.sdmfabric.wire.proto.ProgramLoadedEvent;
import io.sdmfabric.wire.proto.RankSetProto;
import io.sdmfabric.wire.proto.SetBreakpointCmd;
import io.sdmfabric.wire.proto.SignalProto;
import io.sdmfabric.wire.proto.SignalsEvent;
import io.sdmfabric.wire.proto.StepKindProto;
import io.sdmfabric.wire.proto.StopReasonProto;
import io.sdmfabric.wire.proto.ThreadProto;
import io.sdmfabric.wire.proto.ThreadStacksEvent;
import io.sdmfabric.wire.proto.ThreadsEvent;
import io.sdmfabric.wire.proto.ValueKindProto;
import io.sdmfabric.wire.proto.ValueProto;
import io.sdmfabric.wire.proto.VariablesEvent;
import io.sdmfabric.wire.proto.WatchKindProto;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Converts between the debug model ({@code io.sdmfabric.model}) and the wire messages ({@code
 * io.sdmfabric.wire.proto}), in both directions.
 *
 * <p>Model to proto is total: every model object has exactly one message, and equal objects give
 * equal messages (collections without an order of their own, such as a launch's environment or a
 * set of signal actions, are written sorted), so that their {@linkplain CanonicalBytes canonical
 * bytes} are equal too. Proto to model inverts it exactly: {@code fromProto(toProto(x)).equals(x)}
 * for every {@code x}.
 *
 * <p>Proto to model accepts messages from a newer peer: an enum number this build does not know
 * becomes the model's {@code UNKNOWN} or {@code OTHER} constant rather than an error. Enums whose
 * model has no such constant ({@link StepKind}, {@link WatchKind}) are commands, where guessing
 * would do the wrong thing; those throw. A message that no model object can represent (a negative
 * line, a breakpoint without a location, malformed rank set bytes) throws {@link
 * IllegalArgumentException} naming what is wrong.
 *
 * <p>Whole reply bodies are built by {@link EventBodies}, and read back by {@link Reply}; signal
 * actions as gdb's words are {@link SignalWords}.
 */
public final class Protos {
  private Protos() {}

  // ------------------------------------------------------------------ rank sets

  /** The set in Roaring's portable format, canonical: equal sets give equal messages. */
  public static RankSetProto toProto(RankSet ranks) {
    Objects.requireNonNull(ranks, "ranks");
    // toBytes returns a fresh array that nobody else holds, so wrapping it without a copy is safe.
    return RankSetProto.newBuilder()
        .setRoaring(UnsafeByteOperations.unsafeWrap(ranks.toBytes()))
        .build();
  }

  /**
   * The set a message holds.
   *
   * @throws IllegalArgumentException if the bytes are not exactly one valid Roaring bitmap of ranks
   *     (an unset field, with no bytes at all, is malformed too: even the empty set has a header)
   */
  public static RankSet fromProto(RankSetProto proto) {
    Objects.requireNonNull(proto, "proto");
    if (proto.getRoaring().isEmpty()) {
      throw new IllegalArgumentException("malformed rank set: no bytes (was the field set?)");
    }
    return RankSet.fromBytes(proto.getRoaring().toByteArray());
  }

  // ------------------------------------------------------------------ frames and values

  /** The frame as a message, all six fields. */
  public static FrameProto toProto(Frame frame) {
    Objects.requireNonNull(frame, "frame");
    return FrameProto.newBuilder()
        .setLevel(frame.level())
        .setAddress(frame.address())
        .setFunction(frame.function())
        .setFile(frame.file())
        .setLine(frame.line())
        .setLibrary(frame.library())
        .build();
  }

  /**
   * The frame a message holds; the unsigned 64-bit address becomes a {@code long} with the same
   * bits.
   *
   * @throws IllegalArgumentException for a negative level or line
   */
  public static Frame fromProto(FrameProto proto) {
    Objects.requireNonNull(proto, "proto");
    return new Frame(
        proto.getLevel(),
        proto.getAddress(),
        proto.getFunction(),
        proto.getFile(),
        proto.getLine(),
        proto.getLibrary());
  }

  /** The value as a message, with its children, recursively. */
  public static ValueProto toProto(Value value) {
    Objects.requireNonNull(value, "value");
    ValueProto.Builder b =
        ValueProto.newBuilder()
            .setName(value.name())
            .setType(value.type())
            .setKind(toProto(value.kind()))
            .setSize(value.size())
            .setText(value.text())
            .setChildCount(value.childCount());
    for (Value child : value.children()) {
      b.addChildren(toProto(child));
    }
    return b.build();
  }

  /**
   * The value a message holds, with its children, recursively.
   *
   * @throws IllegalArgumentException for a negative size, or more children than {@code child_count}
   *     says exist
   */
  public static Value fromProto(ValueProto proto) {
    Objects.requireNonNull(proto, "proto");
    return new Value(
        proto.getName(),
        proto.getType(),
        fromProto(proto.getKind()),
        proto.getSize(),
        proto.getText(),
        proto.getChildCount(),
        map(proto.getChildrenList(), Protos::fromProto));
  }

  /** The kind's wire constant; {@link Value.Kind#UNKNOWN} is the proto default, 0. */
  public static ValueKindProto toProto(Value.Kind kind) {
    Objects.requireNonNull(kind, "kind");
    return switch (kind) {
      case INTEGER -> ValueKindProto.VALUE_KIND_INTEGER;
      case FLOAT -> ValueKindProto.VALUE_KIND_FLOAT;
      case BOOL -> ValueKindProto.VALUE_KIND_BOOL;
      case CHAR -> ValueKindProto.VALUE_KIND_CHAR;
      case POINTER -> ValueKindProto.VALUE_KIND_POINTER;
      case ARRAY -> ValueKindProto.VALUE_KIND_ARRAY;
      case STRUCT -> ValueKindProto.VALUE_KIND_STRUCT;
      case UNION -> ValueKindProto.VALUE_KIND_UNION;
      case CLASS -> ValueKindProto.VALUE_KIND_CLASS;
      case ENUM -> ValueKindProto.VALUE_KIND_ENUM;
      case FUNCTION -> ValueKindProto.VALUE_KIND_FUNCTION;
      case STRING -> ValueKindProto.VALUE_KIND_STRING;
      case VOID -> ValueKindProto.VALUE_KIND_VOID;
      case UNKNOWN -> ValueKindProto.VALUE_KIND_UNKNOWN;
    };
  }

  /** The model's kind; a number this build does not know is {@link Value.Kind#UNKNOWN}. */
  public static Value.Kind fromProto(ValueKindProto kind) {
    Objects.requireNonNull(kind, "kind");
    return switch (kind) {
      case VALUE_KIND_INTEGER -> Value.Kind.INTEGER;
      case VALUE_KIND_FLOAT -> Value.Kind.FLOAT;
      case VALUE_KIND_BOOL -> Value.Kind.BOOL;
      case VALUE_KIND_CHAR -> Value.Kind.CHAR;
      case VALUE_KIND_POINTER -> Value.Kind.POINTER;
      case VALUE_KIND_ARRAY -> Value.Kind.ARRAY;
      case VALUE_KIND_STRUCT -> Value.Kind.STRUCT;
      case VALUE_KIND_UNION -> Value.Kind.UNION;
      case VALUE_KIND_CLASS -> Value.Kind.CLASS;
      case VALUE_KIND_ENUM -> Value.Kind.ENUM;
      case VALUE_KIND_FUNCTION -> Value.Kind.FUNCTION;
      case VALUE_KIND_STRING -> Value.Kind.STRING;
      case VALUE_KIND_VOID -> Value.Kind.VOID;
      case VALUE_KIND_UNKNOWN, UNRECOGNIZED -> Value.Kind.UNKNOWN;
    };
  }

  // ------------------------------------------------------------------ breakpoints

  /** The breakpoint as a message, all ten fields. */
  public static BreakpointProto toProto(Breakpoint breakpoint) {
    Objects.requireNonNull(breakpoint, "breakpoint");
    return BreakpointProto.newBuilder()
        .setId(breakpoint.id())
        .setKind(toProto(breakpoint.kind()))
        .setLocation(breakpoint.location())
        .setFile(breakpoint.file())
        .setLine(breakpoint.line())
        .setEnabled(breakpoint.enabled())
        .setTemporary(breakpoint.temporary())
        .setCondition(breakpoint.condition())
        .setIgnoreCount(breakpoint.ignoreCount())
        .setHits(breakpoint.hits())
        .build();
  }

  /** The breakpoint a message holds. */
  public static Breakpoint fromProto(BreakpointProto proto) {
    Objects.requireNonNull(proto, "proto");
    return new Breakpoint(
        proto.getId(),
        fromProto(proto.getKind()),
        proto.getLocation(),
        proto.getFile(),
        proto.getLine(),
        proto.getEnabled(),
        proto.getTemporary(),
        proto.getCondition(),
        proto.getIgnoreCount(),
        proto.getHits());
  }

  /** The kind's wire constant; {@link Breakpoint.Kind#OTHER} is the proto default, 0. */
  public static BreakpointKindProto toProto(Breakpoint.Kind kind) {
    Objects.requireNonNull(kind, "kind");
    return switch (kind) {
      case BREAKPOINT -> BreakpointKindProto.BREAKPOINT_KIND_BREAKPOINT;
      case WATCHPOINT -> BreakpointKindProto.BREAKPOINT_KIND_WATCHPOINT;
      case READ_WATCHPOINT -> BreakpointKindProto.BREAKPOINT_KIND_READ_WATCHPOINT;
      case ACCESS_WATCHPOINT -> BreakpointKindProto.BREAKPOINT_KIND_ACCESS_WATCHPOINT;
      case OTHER -> BreakpointKindProto.BREAKPOINT_KIND_OTHER;
    };
  }

  /** The model's kind; a number this build does not know is {@link Breakpoint.Kind#OTHER}. */
  public static Breakpoint.Kind fromProto(BreakpointKindProto kind) {
    Objects.requireNonNull(kind, "kind");
    return switch (kind) {
      case BREAKPOINT_KIND_BREAKPOINT -> Breakpoint.Kind.BREAKPOINT;
      case BREAKPOINT_KIND_WATCHPOINT -> Breakpoint.Kind.WATCHPOINT;
      case BREAKPOINT_KIND_READ_WATCHPOINT -> Breakpoint.Kind.READ_WATCHPOINT;
      case BREAKPOINT_KIND_ACCESS_WATCHPOINT -> Breakpoint.Kind.ACCESS_WATCHPOINT;
      case BREAKPOINT_KIND_OTHER, UNRECOGNIZED -> Breakpoint.Kind.OTHER;
    };
  }

  /**
   * The command that inserts this breakpoint: a function location travels as {@code function}, a
   * line location as {@code line}, and {@code enabled} as its negation {@code disabled} (so that
   * the proto default, false, means the usual enabled breakpoint).
   */
  public static SetBreakpointCmd toProto(BreakpointSpec spec) {
    Objects.requireNonNull(spec, "spec");
    SetBreakpointCmd.Builder b =
        SetBreakpointCmd.newBuilder()
            .setCondition(spec.condition())
            .setIgnoreCount(spec.ignoreCount())
            .setTemporary(spec.temporary())
            .setDisabled(!spec.enabled());
    // Java 17 has no pattern switch; Location is sealed to these two.
    if (spec.location() instanceof Location.Line line) {
      b.setLine(LineLocation.newBuilder().setFile(line.file()).setLine(line.line()));
    } else {
      b.setFunction(((Location.Function) spec.location()).name());
    }
    return b.build();
  }

  /**
   * The breakpoint a command inserts.
   *
   * @throws IllegalArgumentException without a location, with a blank function or file, a line
   *     below 1, or a negative ignore count
   */
  public static BreakpointSpec fromProto(SetBreakpointCmd proto) {
    Objects.requireNonNull(proto, "proto");
    Location location =
        switch (proto.getLocationCase()) {
          case FUNCTION -> new Location.Function(proto.getFunction());
          case LINE -> new Location.Line(proto.getLine().getFile(), proto.getLine().getLine());
          case LOCATION_NOT_SET ->
              throw new IllegalArgumentException("set breakpoint command without a location");
        };
    return new BreakpointSpec(
        location,
        proto.getCondition(),
        proto.getIgnoreCount(),
        proto.getTemporary(),
        !proto.getDisabled());
  }

  // ------------------------------------------------------------------ threads and signals

  /** The thread as a message; its frame is always written, also {@link Frame#UNKNOWN}. */
  public static ThreadProto toProto(ThreadInfo thread) {
    Objects.requireNonNull(thread, "thread");
    return ThreadProto.newBuilder()
        .setId(thread.id())
        .setTargetId(thread.targetId())
        .setName(thread.name())
        .setStopped(thread.stopped())
        .setFrame(toProto(thread.frame()))
        .build();
  }

  /** The thread a message holds; an absent frame is {@link Frame#UNKNOWN}. */
  public static ThreadInfo fromProto(ThreadProto proto) {
    Objects.requireNonNull(proto, "proto");
    return new ThreadInfo(
        proto.getId(),
        proto.getTargetId(),
        proto.getName(),
        proto.getStopped(),
        frameOrUnknown(proto.hasFrame(), proto.getFrame()));
  }

  /** The signal's handling as a message. */
  public static SignalProto toProto(SignalInfo signal) {
    Objects.requireNonNull(signal, "signal");
    return SignalProto.newBuilder()
        .setName(signal.name())
        .setStop(signal.stop())
        .setPrint(signal.print())
        .setPass(signal.pass())
        .setDescription(signal.description())
        .build();
  }

  /** The signal handling a message holds. */
  public static SignalInfo fromProto(SignalProto proto) {
    Objects.requireNonNull(proto, "proto");
    return new SignalInfo(
        proto.getName(),
        proto.getStop(),
        proto.getPrint(),
        proto.getPass(),
        proto.getDescription());
  }

  // ------------------------------------------------------------------ stop reasons, steps, watches

  /** The reason's wire constant; {@link StopReason#UNKNOWN} is the proto default, 0. */
  public static StopReasonProto toProto(StopReason reason) {
    Objects.requireNonNull(reason, "reason");
    return switch (reason) {
      case BREAKPOINT_HIT -> StopReasonProto.STOP_REASON_BREAKPOINT_HIT;
      case WATCHPOINT_TRIGGER -> StopReasonProto.STOP_REASON_WATCHPOINT_TRIGGER;
      case READ_WATCHPOINT_TRIGGER -> StopReasonProto.STOP_REASON_READ_WATCHPOINT_TRIGGER;
      case ACCESS_WATCHPOINT_TRIGGER -> StopReasonProto.STOP_REASON_ACCESS_WATCHPOINT_TRIGGER;
      case WATCHPOINT_SCOPE -> StopReasonProto.STOP_REASON_WATCHPOINT_SCOPE;
      case FUNCTION_FINISHED -> StopReasonProto.STOP_REASON_FUNCTION_FINISHED;
      case LOCATION_REACHED -> StopReasonProto.STOP_REASON_LOCATION_REACHED;
      case END_STEPPING_RANGE -> StopReasonProto.STOP_REASON_END_STEPPING_RANGE;
      case SIGNAL_RECEIVED -> StopReasonProto.STOP_REASON_SIGNAL_RECEIVED;
      case INTERRUPTED -> StopReasonProto.STOP_REASON_INTERRUPTED;
      case EXEC -> StopReasonProto.STOP_REASON_EXEC;
      case FORK -> StopReasonProto.STOP_REASON_FORK;
      case VFORK -> StopReasonProto.STOP_REASON_VFORK;
      case SYSCALL -> StopReasonProto.STOP_REASON_SYSCALL;
      case SOLIB_EVENT -> StopReasonProto.STOP_REASON_SOLIB_EVENT;
      case UNKNOWN -> StopReasonProto.STOP_REASON_UNKNOWN;
    };
  }

  /** The model's reason; a number this build does not know is {@link StopReason#UNKNOWN}. */
  public static StopReason fromProto(StopReasonProto reason) {
    Objects.requireNonNull(reason, "reason");
    return switch (reason) {
      case STOP_REASON_BREAKPOINT_HIT -> StopReason.BREAKPOINT_HIT;
      case STOP_REASON_WATCHPOINT_TRIGGER -> StopReason.WATCHPOINT_TRIGGER;
      case STOP_REASON_READ_WATCHPOINT_TRIGGER -> StopReason.READ_WATCHPOINT_TRIGGER;
      case STOP_REASON_ACCESS_WATCHPOINT_TRIGGER -> StopReason.ACCESS_WATCHPOINT_TRIGGER;
      case STOP_REASON_WATCHPOINT_SCOPE -> StopReason.WATCHPOINT_SCOPE;
      case STOP_REASON_FUNCTION_FINISHED -> StopReason.FUNCTION_FINISHED;
      case STOP_REASON_LOCATION_REACHED -> StopReason.LOCATION_REACHED;
      case STOP_REASON_END_STEPPING_RANGE -> StopReason.END_STEPPING_RANGE;
      case STOP_REASON_SIGNAL_RECEIVED -> StopReason.SIGNAL_RECEIVED;
      case STOP_REASON_INTERRUPTED -> StopReason.INTERRUPTED;
      case STOP_REASON_EXEC -> StopReason.EXEC;
      case STOP_REASON_FORK -> StopReason.FORK;
      case STOP_REASON_VFORK -> StopReason.VFORK;
      case STOP_REASON_SYSCALL -> StopReason.SYSCALL;
      case STOP_REASON_SOLIB_EVENT -> StopReason.SOLIB_EVENT;
      case STOP_REASON_UNKNOWN, UNRECOGNIZED -> StopReason.UNKNOWN;
    };
  }

  /** The step kind's wire constant. */
  public static StepKindProto toProto(StepKind kind) {
    Objects.requireNonNull(kind, "kind");
    return switch (kind) {
      case INTO -> StepKindProto.STEP_KIND_INTO;
      case OVER -> StepKindProto.STEP_KIND_OVER;
      case RETURN -> StepKindProto.STEP_KIND_RETURN;
    };
  }

  /**
   * The model's step kind.
   *
   * @throws IllegalArgumentException for a number this build does not know: a step is a command,
   *     and taking a different step than asked for would be worse than refusing it
   */
  public static StepKind fromProto(StepKindProto kind) {
    Objects.requireNonNull(kind, "kind");
    return switch (kind) {
      case STEP_KIND_INTO -> StepKind.INTO;
      case STEP_KIND_OVER -> StepKind.OVER;
      case STEP_KIND_RETURN -> StepKind.RETURN;
      case UNRECOGNIZED -> throw new IllegalArgumentException("unknown step kind");
    };
  }

  /** The watch kind's wire constant. */
  public static WatchKindProto toProto(WatchKind kind) {
    Objects.requireNonNull(kind, "kind");
    return switch (kind) {
      case WRITE -> WatchKindProto.WATCH_KIND_WRITE;
      case READ -> WatchKindProto.WATCH_KIND_READ;
      case ACCESS -> WatchKindProto.WATCH_KIND_ACCESS;
    };
  }

  /**
   * The model's watch kind.
   *
   * @throws IllegalArgumentException for a number this build does not know: a watchpoint is a
   *     command, and watching other accesses than asked for would be worse than refusing it
   */
  public static WatchKind fromProto(WatchKindProto kind) {
    Objects.requireNonNull(kind, "kind");
    return switch (kind) {
      case WATCH_KIND_WRITE -> WatchKind.WRITE;
      case WATCH_KIND_READ -> WatchKind.READ;
      case WATCH_KIND_ACCESS -> WatchKind.ACCESS;
      case UNRECOGNIZED -> throw new IllegalArgumentException("unknown watch kind");
    };
  }

  // ------------------------------------------------------------------ launching and loading

  /**
   * The launch as a message: the environment sorted by name (so that equal specs give equal bytes),
   * the working directory as its path string.
   */
  public static LaunchProto toProto(LaunchSpec launch) {
    Objects.requireNonNull(launch, "launch");
    LaunchProto.Builder b =
        LaunchProto.newBuilder()
            .setProgram(launch.program())
            .addAllArgs(launch.args())
            .setWorkingDirectory(launch.workingDirectory().toString());
    launch.environment().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e -> b.addEnvironment(EnvVar.newBuilder().setName(e.getKey()).setValue(e.getValue())));
    return b.build();
  }

  /**
   * The launch a message holds; the environment may come in any order.
   *
   * @throws IllegalArgumentException for a blank program, a variable named twice, or a working
   *     directory that is not a valid path on this system
   */
  public static LaunchSpec fromProto(LaunchProto proto) {
    Objects.requireNonNull(proto, "proto");
    Map<String, String> env = new HashMap<>();
    for (EnvVar var : proto.getEnvironmentList()) {
      if (env.putIfAbsent(var.getName(), var.getValue()) != null) {
        throw new IllegalArgumentException(
            "launch sets environment variable " + var.getName() + " twice");
      }
    }
    Path directory;
    try {
      directory = Path.of(proto.getWorkingDirectory());
    } catch (java.nio.file.InvalidPathException e) {
      throw new IllegalArgumentException("bad working directory: " + e.getMessage(), e);
    }
    return new LaunchSpec(proto.getProgram(), proto.getArgsList(), env, directory);
  }

  /** What was loaded, as the event that reports it. */
  public static ProgramLoadedEvent toProto(ProgramInfo info) {
    Objects.requireNonNull(info, "info");
    return ProgramLoadedEvent.newBuilder()
        .setProgram(info.program())
        .setHasDebugInfo(info.hasDebugInfo())
        .build();
  }

  /** What a loaded event reports. */
  public static ProgramInfo fromProto(ProgramLoadedEvent proto) {
    Objects.requireNonNull(proto, "proto");
    return new ProgramInfo(proto.getProgram(), proto.getHasDebugInfo());
  }

  // ------------------------------------------------------------------ lists in events

  /** The frames of a frames event, innermost first as they were sent. */
  public static List<Frame> fromProto(FramesEvent proto) {
    return map(Objects.requireNonNull(proto, "proto").getFramesList(), Protos::fromProto);
  }

  /** The breakpoints of a breakpoints event. */
  public static List<Breakpoint> fromProto(BreakpointsEvent proto) {
    return map(Objects.requireNonNull(proto, "proto").getBreakpointsList(), Protos::fromProto);
  }

  /** The values of a variables event. */
  public static List<Value> fromProto(VariablesEvent proto) {
    return map(Objects.requireNonNull(proto, "proto").getVariablesList(), Protos::fromProto);
  }

  /** The threads of a threads event. */
  public static List<ThreadInfo> fromProto(ThreadsEvent proto) {
    return map(Objects.requireNonNull(proto, "proto").getThreadsList(), Protos::fromProto);
  }

  /** The signals of a signals event. */
  public static List<SignalInfo> fromProto(SignalsEvent proto) {
    return map(Objects.requireNonNull(proto, "proto").getSignalsList(), Protos::fromProto);
  }

  /** The stacks of a thread stacks event, each innermost frame first. */
  public static List<List<Frame>> fromProto(ThreadStacksEvent proto) {
    return map(Objects.requireNonNull(proto, "proto").getStacksList(), Protos::fromProto);
  }

  /** What a rank waits for in MPI, as its event. */
  public static MpiWaitEvent toProto(MpiWait wait) {
    Objects.requireNonNull(wait, "wait");
    MpiWaitEvent.Builder b =
        MpiWaitEvent.newBuilder()
            .setState(MpiWaitEvent.State.forNumber(wait.state().ordinal()))
            .setCall(wait.call())
            .setPolling(wait.polling())
            .setAny(wait.any())
            .setCommKey(wait.comm().key())
            .setCommSize(wait.comm().size())
            .setCommMembers(toProto(wait.comm().members()))
            .setCommWorld(wait.comm().world())
            .setSequence(wait.sequence());
    wait.peers()
        .forEach(
            p ->
                b.addPeers(
                    MpiPeer.newBuilder().setRank(p.rank()).setTag(p.tag()).setCall(p.call())));
    return b.build();
  }

  /** What a rank waits for in MPI, from its event. */
  public static MpiWait fromProto(MpiWaitEvent proto) {
    Objects.requireNonNull(proto, "proto");
    return new MpiWait(
        MpiWait.State.values()[proto.getStateValue()],
        proto.getCall(),
        proto.getPolling(),
        proto.getAny(),
        map(proto.getPeersList(), p -> new MpiWait.Peer(p.getRank(), p.getTag(), p.getCall())),
        new MpiWait.Comm(
            proto.getCommKey(),
            proto.getCommSize(),
            fromProto(proto.getCommMembers()),
            proto.getCommWorld()),
        proto.getSequence());
  }

  // ------------------------------------------------------------------ helpers

  private static Frame frameOrUnknown(boolean present, FrameProto frame) {
    return present ? fromProto(frame) : Frame.UNKNOWN;
  }

  private static <P, M> List<M> map(Collection<P> protos, Function<P, M> convert) {
    List<M> out = new ArrayList<>(protos.size());
    for (P p : protos) {
      out.add(convert.apply(p));
    }
    return List.copyOf(out);
  }
}
