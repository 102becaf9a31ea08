package io.sdmfabric.wire;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.Location;
import io.sdmfabric.model.MpiWait;
import io.sdmfabric.model.ProgramInfo;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalAction;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.model.WatchKind;
import io.sdmfabric.wire.proto.BreakpointKindProto;
import io.sdmfabric.wire.proto.BreakpointProto;
import io.sdmfabric.wire.proto.BreakpointsEvent;
import io.sdmfabric.wire.proto.DebuggerEndedEvent;
import io.sdmfabric.wire.proto.DepthEvent;
import io.sdmfabric.wire.proto.Empty;
import io.sdmfabric.wire.proto.EnvVar;
import io.sdmfabric.wire.proto.ErrorEvent;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.ExitEvent;
import io.sdmfabric.wire.proto.FrameProto;
import io.sdmfabric.wire.proto.FramesEvent;
import io.sdmfabric.wire.proto.HandleSignalCmd;
import io.sdmfabric.wire.proto.LaunchProto;
import io.sdmfabric.wire.proto.LineLocation;
import io.sdmfabric.wire.proto.MemoryEvent;
import io.sdmfabric.wire.proto.MpiPeer;
import io.sdmfabric.wire.proto.MpiWaitEvent;
import io.sdmfabric.wire.proto.OutputEvent;
import io.sdmfabric.wire.proto.ProgramLoadedEvent;
import io.sdmfabric.wire.proto.RankLostEvent;
import io.sdmfabric.wire.proto.RankSetProto;
import io.sdmfabric.wire.proto.SetBreakpointCmd;
import io.sdmfabric.wire.proto.SignalProto;
import io.sdmfabric.wire.proto.SignalsEvent;
import io.sdmfabric.wire.proto.StepKindProto;
import io.sdmfabric.wire.proto.StopReasonProto;
import io.sdmfabric.wire.proto.SuspendedEvent;
import io.sdmfabric.wire.proto.TextEvent;
import io.sdmfabric.wire.proto.ThreadProto;
import io.sdmfabric.wire.proto.ThreadStacksEvent;
import io.sdmfabric.wire.proto.ThreadsEvent;
import io.sdmfabric.wire.proto.TypeEvent;
import io.sdmfabric.wire.proto.ValueKindProto;
import io.sdmfabric.wire.proto.ValueProto;
import io.sdmfabric.wire.proto.VariablesEvent;
import io.sdmfabric.wire.proto.WatchKindProto;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
 * <p>The {@link EventBody} factories ({@link #ok()}, {@link #frames(List)}, ...) build a reply of
 * each kind from model objects.
 */
public final class Protos {

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

  /**
   * gdb's words for the actions ({@code stop}, {@code nopass}, ...), in the order of {@link
   * SignalAction}'s constants, so that equal sets give equal lists.
   */
  public static List<String> signalActionWords(Set<SignalAction> actions) {
    Objects.requireNonNull(actions, "actions");
    EnumSet<SignalAction> sorted =
        actions.isEmpty() ? EnumSet.noneOf(SignalAction.class) : EnumSet.copyOf(actions);
    return sorted.stream().map(SignalAction::word).toList();
  }

  /**
   * The actions named by gdb's words, in any order, repeats allowed.
   *
   * @throws IllegalArgumentException for a word that is not one of gdb's six
   */
  public static Set<SignalAction> signalActions(List<String> words) {
    Objects.requireNonNull(words, "words");
    EnumSet<SignalAction> actions = EnumSet.noneOf(SignalAction.class);
    for (String word : words) {
      actions.add(signalAction(word));
    }
    return Collections.unmodifiableSet(actions);
  }

  private static SignalAction signalAction(String word) {
    for (SignalAction action : SignalAction.values()) {
      if (action.word().equals(word)) {
        return action;
      }
    }
    throw new IllegalArgumentException(
        "unknown signal action \""
            + word
            + "\"; gdb's are stop, nostop, print, noprint, pass, nopass");
  }

  /** The command {@code handle SIGNAL ACTIONS}, with the actions in canonical order. */
  public static HandleSignalCmd handleSignal(String signal, Set<SignalAction> actions) {
    Objects.requireNonNull(signal, "signal");
    return HandleSignalCmd.newBuilder()
        .setSignal(signal)
        .addAllActions(signalActionWords(actions))
        .build();
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
              .setReason(toProto(s.reason()))
              .setSignal(s.signal())
              .setFrame(toProto(s.frame()))
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
            fromProto(s.getReason()),
            s.getSignal(),
            frameOrUnknown(s.hasFrame(), s.getFrame()),
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
    return EventBody.newBuilder().setLoaded(toProto(info)).build();
  }

  /** The reply with one breakpoint, e.g. the one just inserted. */
  public static EventBody breakpoint(Breakpoint breakpoint) {
    return EventBody.newBuilder().setBreakpoint(toProto(breakpoint)).build();
  }

  /** The reply with a list of breakpoints, in the order given. */
  public static EventBody breakpoints(List<Breakpoint> breakpoints) {
    BreakpointsEvent.Builder b = BreakpointsEvent.newBuilder();
    breakpoints.forEach(bp -> b.addBreakpoints(toProto(bp)));
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
    return lost.getReason().isEmpty() ? RANK_LOST : RANK_LOST + ": " + lost.getReason();
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
    frames.forEach(f -> b.addFrames(toProto(f)));
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
                  frames.forEach(f -> b.addFrames(toProto(f)));
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

  /** The stacks of a thread stacks event, each innermost frame first. */
  public static List<List<Frame>> fromProto(ThreadStacksEvent proto) {
    return map(Objects.requireNonNull(proto, "proto").getStacksList(), Protos::fromProto);
  }

  /** The reply with what a rank waits for in MPI. */
  public static EventBody mpiWait(MpiWait wait) {
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
    return EventBody.newBuilder().setMpiWait(b).build();
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

  /** The reply with one frame, e.g. the one just selected. */
  public static EventBody frame(Frame frame) {
    return EventBody.newBuilder().setFrame(toProto(frame)).build();
  }

  /** The reply with the depth of the call stack. */
  public static EventBody depth(int depth) {
    return EventBody.newBuilder().setDepth(DepthEvent.newBuilder().setDepth(depth)).build();
  }

  /** The reply with an expression's value. */
  public static EventBody value(Value value) {
    return EventBody.newBuilder().setValue(toProto(value)).build();
  }

  /** The reply with an expression's type, as the program's language writes it. */
  public static EventBody type(String type) {
    Objects.requireNonNull(type, "type");
    return EventBody.newBuilder().setType(TypeEvent.newBuilder().setType(type)).build();
  }

  /** The reply with a list of variables (locals, arguments or globals), in the order given. */
  public static EventBody variables(List<Value> variables) {
    VariablesEvent.Builder b = VariablesEvent.newBuilder();
    variables.forEach(v -> b.addVariables(toProto(v)));
    return EventBody.newBuilder().setVariables(b).build();
  }

  /** The reply with the process's threads, in the order given. */
  public static EventBody threads(List<ThreadInfo> threads) {
    ThreadsEvent.Builder b = ThreadsEvent.newBuilder();
    threads.forEach(t -> b.addThreads(toProto(t)));
    return EventBody.newBuilder().setThreads(b).build();
  }

  /** The reply with one thread, e.g. the one just selected. */
  public static EventBody thread(ThreadInfo thread) {
    return EventBody.newBuilder().setThread(toProto(thread)).build();
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
    signals.forEach(s -> b.addSignals(toProto(s)));
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
