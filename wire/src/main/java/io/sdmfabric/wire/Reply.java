package io.sdmfabric.wire;

import com.google.protobuf.ByteString;
import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.MpiWait;
import io.sdmfabric.model.ProgramInfo;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.ExitEvent;
import io.sdmfabric.wire.proto.SuspendedEvent;
import io.sdmfabric.wire.proto.ValueExtreme;
import io.sdmfabric.wire.proto.ValueSummaryEvent;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What ranks replied or reported, decoded from its {@link EventBody} into model values: one record
 * per kind of the body's oneof ({@code debug.proto}), so that front-ends switch over a sealed Java
 * type instead of probing the message with {@code hasX()} and {@code getX()}. {@link
 * RankReply#reply()} decodes a reply once; {@link #decode} is the one decoder, and {@link
 * EventBodies} builds the bodies it reads.
 *
 * <p>Java 17 has no pattern switch, so consumers test the kinds they show with {@code if (reply
 * instanceof Reply.Frames f)} chains, one chain per consumer; kinds a consumer does not name are
 * left to its last branch.
 *
 * <p>No component of a decoded reply is null, and its lists are immutable. A body of a kind this
 * build does not know (a newer peer's) decodes as {@link Unknown}. A body whose content no model
 * value can hold (a negative line, more children than a value counts) decodes as {@link Malformed},
 * a {@link Failure}: decoding never throws, so that a peer that breaks the protocol costs its ranks
 * an error line and not the front-end its session.
 */
public sealed interface Reply {

  /** The body's reply, decoded; {@link Malformed} for content no model value can hold. */
  static Reply decode(EventBody body) {
    Objects.requireNonNull(body, "body");
    try {
      return decodeKind(body);
    } catch (IllegalArgumentException e) {
      // Protos and the model's records reject what they cannot hold with this one type (RankSet
      // turns corrupt roaring bytes into it too), and each says what was wrong.
      return new Malformed(
          kindName(body), Objects.requireNonNullElse(e.getMessage(), e.toString()));
    }
  }

  /**
   * The name of the body's kind as {@code debug.proto} spells its field ({@code value}, {@code
   * stack_tree}; {@code kind_not_set} for none), for messages about it.
   */
  static String kindName(EventBody body) {
    return body.getKindCase().name().toLowerCase(Locale.ROOT);
  }

  private static Reply decodeKind(EventBody body) {
    return switch (body.getKindCase()) {
      case OK -> new Ok();
      case ERROR -> new Error(body.getError().getMessage());
      case LOADED -> new Loaded(Protos.fromProto(body.getLoaded()));
      case BREAKPOINT -> new NewBreakpoint(Protos.fromProto(body.getBreakpoint()));
      case BREAKPOINTS -> new Breakpoints(Protos.fromProto(body.getBreakpoints()));
      case RUNNING -> new Running();
      case SUSPENDED -> stopped(body.getSuspended());
      case EXIT -> exited(body.getExit());
      case OUTPUT -> new Output(body.getOutput().getBytes().toString(StandardCharsets.UTF_8));
      case FRAMES -> new Frames(Protos.fromProto(body.getFrames()));
      case FRAME -> new SelectedFrame(Protos.fromProto(body.getFrame()));
      case DEPTH -> new Depth(body.getDepth().getDepth());
      case VALUE -> new Evaluated(Protos.fromProto(body.getValue()));
      case TYPE -> new TypeOf(body.getType().getType());
      case VARIABLES -> new Variables(Protos.fromProto(body.getVariables()));
      case THREADS -> new Threads(Protos.fromProto(body.getThreads()));
      case THREAD -> new SelectedThread(Protos.fromProto(body.getThread()));
      case MEMORY -> new Memory(body.getMemory().getBytes());
      case SIGNALS -> new Signals(Protos.fromProto(body.getSignals()));
      case TEXT -> new Text(body.getText().getText());
      case STACK_TREE -> new Stacks(StackTree.fromProto(body.getStackTree()));
      case DEBUGGER_ENDED -> new DebuggerEnded(body.getDebuggerEnded().getReason());
      case DETACHED -> new Detached();
      case LOST -> new Lost(body.getLost().getReason());
      case THREAD_STACKS -> new ThreadStacks(Protos.fromProto(body.getThreadStacks()));
      case MPI_WAIT -> new WaitsInMpi(Protos.fromProto(body.getMpiWait()));
      case PROCESS_INFO ->
          new ProcessInfo(
              body.getProcessInfo().getPid(),
              body.getProcessInfo().getHost(),
              body.getProcessInfo().getServerPid());
      case VALUE_SUMMARY -> summarized(body.getValueSummary());
      case KIND_NOT_SET -> new Unknown();
    };
  }

  // A stop without a frame reads the proto's default frame, as front-ends always have (the
  // debugger always sends one); EventBodies.debugEvent, for the fabric, makes it Frame.UNKNOWN.
  private static Stopped stopped(SuspendedEvent s) {
    return new Stopped(
        Protos.fromProto(s.getReason()),
        s.getSignal(),
        Protos.fromProto(s.getFrame()),
        s.getThreadId(),
        s.getBreakpointId());
  }

  private static ValuesSummarized summarized(ValueSummaryEvent s) {
    if (s.hasLeast() != s.hasGreatest()) {
      throw new IllegalArgumentException("a least value without a greatest, or the reverse");
    }
    return new ValuesSummarized(
        s.getClasses(),
        s.hasLeast() ? List.of(extreme(s.getLeast()), extreme(s.getGreatest())) : List.of());
  }

  private static Extreme extreme(ValueExtreme e) {
    return new Extreme(Protos.fromProto(e.getValue()), Protos.fromProto(e.getRanks()));
  }

  private static Exited exited(ExitEvent x) {
    return new Exited(x.getCode(), x.getSignal(), x.getStatusLost());
  }

  /** A reply that says the command failed on its ranks: an error, or the ranks are lost. */
  sealed interface Failure extends Reply {
    /** What front-ends say of it. */
    String message();
  }

  /** {@code ok}: the command succeeded with nothing to report. */
  record Ok() implements Reply {}

  /** {@code error}: the command failed, with the debugger's message (or sdm's). */
  record Error(String message) implements Failure {}

  /**
   * {@code lost}: the ranks' server is gone and they will not answer again; {@code reason} says why
   * as far as the master knows (empty: it does not know). Shown as the error {@link #message()}.
   */
  record Lost(String reason) implements Failure {
    public Lost {
      Objects.requireNonNull(reason, "reason");
    }

    /** {@value EventBodies#RANK_LOST}, and the reason when there is one. */
    @Override
    public String message() {
      return reason.isEmpty() ? EventBodies.RANK_LOST : EventBodies.RANK_LOST + ": " + reason;
    }
  }

  /** {@code loaded}: the program the ranks debug. */
  record Loaded(ProgramInfo program) implements Reply {}

  /** {@code breakpoint}: the breakpoint or watchpoint a command inserted. */
  record NewBreakpoint(Breakpoint breakpoint) implements Reply {}

  /** {@code breakpoints}: every breakpoint, as {@code info breakpoints} lists them. */
  record Breakpoints(List<Breakpoint> breakpoints) implements Reply {
    public Breakpoints {
      breakpoints = List.copyOf(breakpoints);
    }
  }

  /** {@code running}: the program runs (the reply to run, continue and step). */
  record Running() implements Reply {}

  /** {@code suspended}: the program stopped, why and where. */
  record Stopped(StopReason reason, String signal, Frame frame, int threadId, int breakpointId)
      implements Reply {}

  /**
   * {@code exit}: the program ended with {@code code}, or was killed by {@code signal} (not empty),
   * or ended in a way the debugger did not see ({@code statusLost}).
   */
  record Exited(int code, String signal, boolean statusLost) implements Reply {}

  /**
   * {@code output}: what the program wrote, read as UTF-8 (bytes that are not become U+FFFD), as
   * every front-end shows it.
   */
  record Output(String text) implements Reply {}

  /** {@code frames}: a call stack, innermost frame first. */
  record Frames(List<Frame> frames) implements Reply {
    public Frames {
      frames = List.copyOf(frames);
    }
  }

  /** {@code frame}: the frame a command selected. */
  record SelectedFrame(Frame frame) implements Reply {}

  /** {@code depth}: how many frames the stack has. */
  record Depth(int depth) implements Reply {}

  /** {@code value}: an expression's value. */
  record Evaluated(Value value) implements Reply {}

  /**
   * {@code value_summary}: the classes of values that the tree's nodes did not pass up one by one,
   * past the command's cap ({@link Commands#withValueClasses}), folded into one; the reply's ranks
   * are theirs. {@code classes} is how many classes were folded, as the nodes that folded them
   * counted (a value folded in two subtrees counts in each: at most that many distinct values).
   * {@code extremes} holds the least and the greatest of them that are numbers (integers, floats,
   * pointers), in that order, or nothing when none is a number.
   */
  record ValuesSummarized(long classes, List<Extreme> extremes) implements Reply {
    public ValuesSummarized {
      extremes = List.copyOf(extremes);
      if (classes < 1 || (extremes.size() != 0 && extremes.size() != 2)) {
        throw new IllegalArgumentException(
            "a summary stands for at least one class and has both extremes or none, not "
                + classes
                + " classes and "
                + extremes.size()
                + " extremes");
      }
    }

    /** The least number among the folded values, when one is a number. */
    public Optional<Extreme> least() {
      return extremes.isEmpty() ? Optional.empty() : Optional.of(extremes.get(0));
    }

    /** The greatest number among the folded values, when one is a number. */
    public Optional<Extreme> greatest() {
      return extremes.isEmpty() ? Optional.empty() : Optional.of(extremes.get(1));
    }
  }

  /** A value at one end of a {@link ValuesSummarized}'s range, and the ranks that hold it. */
  record Extreme(Value value, RankSet ranks) {
    public Extreme {
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(ranks, "ranks");
    }
  }

  /** {@code type}: an expression's type, as the program's language writes it. */
  record TypeOf(String type) implements Reply {}

  /** {@code variables}: locals, arguments or globals, in the debugger's order. */
  record Variables(List<Value> variables) implements Reply {
    public Variables {
      variables = List.copyOf(variables);
    }
  }

  /** {@code threads}: the process's threads. */
  record Threads(List<ThreadInfo> threads) implements Reply {
    public Threads {
      threads = List.copyOf(threads);
    }
  }

  /** {@code thread}: the thread a command selected. */
  record SelectedThread(ThreadInfo thread) implements Reply {}

  /** {@code memory}: memory contents, as the wire's immutable bytes. */
  record Memory(ByteString bytes) implements Reply {}

  /** {@code signals}: how each signal is handled. */
  record Signals(List<SignalInfo> signals) implements Reply {
    public Signals {
      signals = List.copyOf(signals);
    }
  }

  /** {@code text}: free text, such as the answer of a command in the debugger's own language. */
  record Text(String text) implements Reply {}

  /** {@code stack_tree}: a merged call-prefix tree. */
  record Stacks(StackTree tree) implements Reply {}

  /** {@code debugger_ended}: the ranks' debugger ended on its own, and why. */
  record DebuggerEnded(String reason) implements Reply {}

  /** {@code detached}: the debugger left the process running. */
  record Detached() implements Reply {}

  /** {@code thread_stacks}: every thread's stack, each innermost frame first. */
  record ThreadStacks(List<List<Frame>> stacks) implements Reply {
    public ThreadStacks {
      stacks = stacks.stream().map(List::copyOf).toList();
    }
  }

  /** {@code mpi_wait}: what the ranks wait for in MPI. */
  record WaitsInMpi(MpiWait mpiWait) implements Reply {}

  /**
   * {@code process_info}: the ranks' operating-system process ({@code pid}, 0 when they have none),
   * the host it runs on, and the pid of the JVM that serves them there.
   */
  record ProcessInfo(int pid, String host, int serverPid) implements Reply {}

  /**
   * A body of a known {@code kind} (as {@link #kindName} spells it) whose content no model value
   * can hold, from a peer that broke the protocol; {@code why} says what was wrong. Shown as the
   * error {@link #message()}, {@code malformed <kind> reply: <why>}, on the ranks that sent it.
   */
  record Malformed(String kind, String why) implements Failure {
    public Malformed {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(why, "why");
    }

    @Override
    public String message() {
      return "malformed " + kind + " reply: " + why;
    }
  }

  /** A body of a kind this build does not know, from a newer peer: front-ends show nothing. */
  record Unknown() implements Reply {}
}
