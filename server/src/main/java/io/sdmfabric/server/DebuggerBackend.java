package io.sdmfabric.server;

import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Debugger;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Failures;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.JointRequests;
import io.sdmfabric.model.SharedDebugger;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.SignalWords;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The {@link RankBackend} of a rank driven through the {@link Debugger} SPI, by gdb or by the
 * simulator: each command of the wire's command set becomes one SPI request, and its result the
 * reply's {@link EventBody}. A debugger's error comes back as an {@code error} reply with the
 * debugger's own text.
 *
 * <p>When the debugger ends on its own ({@link DebugEvent.DebuggerEnded}), the event goes out like
 * the others, and from then on every command is answered at once with its reason, without asking
 * the debugger.
 */
public final class DebuggerBackend implements RankBackend {
  private final Debugger debugger;
  private final ReplyCache cache;

  /** The error every command gets once the debugger has ended on its own; null until then. */
  private volatile ReplyBody ended;

  /**
   * A backend over {@code debugger}, which it owns and closes, sharing equal replies with the other
   * backends of {@code cache}.
   */
  public DebuggerBackend(Debugger debugger, ReplyCache cache) {
    this.debugger = debugger;
    this.cache = cache;
  }

  /** A backend over {@code debugger} with a cache of its own. */
  public DebuggerBackend(Debugger debugger) {
    this(debugger, new ReplyCache(64));
  }

  /**
   * Program output goes out a line at a time, so that equal lines of many ranks merge; a partial
   * last line goes out when the program stops or ends (a prompt without a newline shows then).
   */
  @Override
  public void subscribe(Consumer<EventBody> events) {
    ByteArrayOutputStream partial = new ByteArrayOutputStream();
    debugger.subscribe(
        event -> {
          if (event instanceof DebugEvent.Output output) {
            byte[] bytes = output.bytes();
            int start = 0;
            for (int i = 0; i < bytes.length; i++) {
              if (bytes[i] == '\n') {
                partial.write(bytes, start, i + 1 - start);
                events.accept(EventBodies.event(new DebugEvent.Output(partial.toByteArray())));
                partial.reset();
                start = i + 1;
              }
            }
            partial.write(bytes, start, bytes.length - start);
            return;
          }
          if (event instanceof DebugEvent.DebuggerEnded end) {
            ended = ReplyBody.of(EventBodies.error(end.reason()));
          }
          if (partial.size() > 0 && !(event instanceof DebugEvent.Resumed)) {
            events.accept(EventBodies.event(new DebugEvent.Output(partial.toByteArray())));
            partial.reset();
          }
          events.accept(EventBodies.event(withoutAddress(event)));
        });
  }

  /**
   * Frames leave a rank without their program counters. Under address-space randomization (a
   * program gdb attached to rather than started: every launched or attached rank) the same function
   * sits at another address in every process, so equal stops and stacks would never merge; and no
   * front-end shows the address, which says nothing the function, file and line do not. ({@code gdb
   * p $pc} still tells it.)
   */
  private static DebugEvent withoutAddress(DebugEvent event) {
    if (event instanceof DebugEvent.Stopped s) {
      return new DebugEvent.Stopped(
          s.reason(), s.signal(), s.frame().withoutAddress(), s.threadId(), s.breakpointId());
    }
    return event;
  }

  @Override
  public CompletionStage<ReplyBody> execute(CommandBody command) {
    ReplyBody end = ended;
    if (end != null) {
      return CompletableFuture.completedFuture(end);
    }
    CompletableFuture<ReplyBody> reply;
    try {
      reply = dispatch(command);
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(error(e));
    }
    return reply.exceptionally(this::error);
  }

  private ReplyBody error(Throwable e) {
    return cache.reply("error", message(e), EventBodies::error);
  }

  private static EventBody framesBody(List<Frame> frames) {
    return EventBodies.frames(frames.stream().map(Frame::withoutAddress).toList());
  }

  /**
   * Where this rank may be asked together with the other ranks of its debugger process (its gdb's),
   * for {@link JointRanks}; empty once the debugger has ended (every command then gets its reason
   * at once) or when it answers alone.
   */
  Optional<JointRequests> joint() {
    return ended == null && debugger instanceof SharedDebugger shared
        ? shared.joint()
        : Optional.empty();
  }

  /** The debugger, when {@link #joint} is not empty. */
  SharedDebugger shared() {
    return (SharedDebugger) debugger;
  }

  /** The reply of a {@code LIST_FRAMES} command {@code c} answered with {@code frames}. */
  ReplyBody frames(CommandBody c, List<Frame> frames) {
    return cache.reply(c.getKindCase().name(), frames, DebuggerBackend::framesBody);
  }

  /** The reply of an {@code EVALUATE} command {@code c} answered with {@code value}. */
  ReplyBody value(CommandBody c, Value value) {
    return cache.reply(c.getKindCase().name(), value, EventBodies::value);
  }

  /** The reply of a command that failed with the debugger's {@code message}. */
  ReplyBody failed(String message) {
    return error(new DebuggerException(message));
  }

  private <T> CompletableFuture<ReplyBody> cached(
      CommandBody c, CompletableFuture<T> result, Function<T, EventBody> convert) {
    return result.thenApply(r -> cache.reply(c.getKindCase().name(), r, convert));
  }

  private CompletableFuture<ReplyBody> dispatch(CommandBody c) {
    switch (c.getKindCase()) {
      case START_SESSION:
        return cached(
            c,
            debugger.load(Protos.fromProto(c.getStartSession().getLaunch())),
            EventBodies::loaded);
      case SET_BREAKPOINT:
        return cached(
            c,
            debugger.insertBreakpoint(Protos.fromProto(c.getSetBreakpoint())),
            EventBodies::breakpoint);
      case DELETE_BREAKPOINT:
        return ok(debugger.deleteBreakpoint(c.getDeleteBreakpoint().getId()));
      case ENABLE_BREAKPOINT:
        return ok(debugger.enableBreakpoint(c.getEnableBreakpoint().getId(), true));
      case DISABLE_BREAKPOINT:
        return ok(debugger.enableBreakpoint(c.getDisableBreakpoint().getId(), false));
      case SET_WATCHPOINT:
        return cached(
            c,
            debugger.insertWatchpoint(
                c.getSetWatchpoint().getExpression(),
                Protos.fromProto(c.getSetWatchpoint().getKind())),
            EventBodies::breakpoint);
      case LIST_BREAKPOINTS:
        return cached(c, debugger.breakpoints(), EventBodies::breakpoints);
      case RUN:
        return running(debugger.run());
      case GO:
        return running(debugger.resume());
      case STEP:
        return running(debugger.step(Protos.fromProto(c.getStep().getKind())));
      case SUSPEND:
        return ok(debugger.interrupt());
      case TERMINATE:
        return ok(debugger.kill());
      case LIST_FRAMES:
        return cached(c, debugger.frames(), DebuggerBackend::framesBody);
      case LIST_ALL_STACKS:
        return cached(
            c,
            debugger.allStacks(),
            stacks ->
                EventBodies.threadStacks(
                    stacks.stream()
                        .map(frames -> frames.stream().map(Frame::withoutAddress).toList())
                        .toList()));
      case MPI_WAIT:
        return cached(c, debugger.mpiWait(), EventBodies::mpiWait);
      case PROCESS_INFO:
        return CompletableFuture.completedFuture(
            ReplyBody.of(
                EventBodies.processInfo(
                    (int) debugger.programPid().orElse(0), ThisHost.NAME, ThisHost.SERVER_PID)));
      case SELECT_FRAME:
        return cached(
            c,
            debugger.selectFrame(c.getSelectFrame().getLevel()),
            frame -> EventBodies.frame(frame.withoutAddress()));
      case STACK_DEPTH:
        return cached(c, debugger.stackDepth(), EventBodies::depth);
      case EVALUATE:
        return cached(c, debugger.evaluate(c.getEvaluate().getExpression()), EventBodies::value);
      case GET_TYPE:
        return cached(c, debugger.typeOf(c.getGetType().getExpression()), EventBodies::type);
      case LIST_LOCALS:
        return cached(c, debugger.locals(), EventBodies::variables);
      case LIST_ARGS:
        return cached(c, debugger.arguments(), EventBodies::variables);
      case LIST_GLOBALS:
        return cached(c, debugger.globals(), EventBodies::variables);
      case LIST_THREADS:
        return cached(c, debugger.threads(), EventBodies::threads);
      case SELECT_THREAD:
        return cached(c, debugger.selectThread(c.getSelectThread().getId()), EventBodies::thread);
      case READ_MEMORY:
        return debugger
            .readMemory(c.getReadMemory().getAddress(), c.getReadMemory().getCount())
            .thenApply(b -> ReplyBody.of(EventBodies.memory(b)));
      case WRITE_MEMORY:
        return ok(
            debugger.writeMemory(
                c.getWriteMemory().getAddress(), c.getWriteMemory().getBytes().toByteArray()));
      case LIST_SIGNALS:
        return cached(c, debugger.signals(), EventBodies::signals);
      case HANDLE_SIGNAL:
        return cached(
            c,
            debugger.handleSignal(
                c.getHandleSignal().getSignal(),
                SignalWords.actions(c.getHandleSignal().getActionsList())),
            EventBodies::signals);
      case CLI:
        return cached(c, debugger.cli(c.getCli().getCommand()), EventBodies::text);
      case INPUT:
        debugger.writeInput(c.getInput().getBytes().toByteArray());
        return CompletableFuture.completedFuture(OK);
      case DETACH:
        return debugger.detach().thenApply(v -> DETACHED);
      case KIND_NOT_SET:
      default:
        throw new DebuggerException("unknown command: " + c.getKindCase());
    }
  }

  private static final ReplyBody OK = ReplyBody.of(EventBodies.ok());
  private static final ReplyBody RUNNING = ReplyBody.of(EventBodies.running());
  private static final ReplyBody DETACHED = ReplyBody.of(EventBodies.detached());

  private static CompletableFuture<ReplyBody> ok(CompletableFuture<Void> done) {
    return done.thenApply(v -> OK);
  }

  private static CompletableFuture<ReplyBody> running(CompletableFuture<Void> started) {
    return started.thenApply(v -> RUNNING);
  }

  /**
   * The debugger's own words: the first {@link DebuggerException} with a message along the causes,
   * else the innermost cause's message ({@link Failures#message}), so that what gdb said is not
   * hidden behind the exceptions that carried it.
   */
  private static String message(Throwable error) {
    Throwable e = error;
    while (e.getCause() != null && (e.getMessage() == null || !(e instanceof DebuggerException))) {
      e = e.getCause();
    }
    return Failures.message(e);
  }

  @Override
  public void close() {
    debugger.close();
  }
}
