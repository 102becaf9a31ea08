package io.sdmfabric.server;

import io.sdmfabric.model.Debugger;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The {@link RankBackend} of a rank driven through the {@link Debugger} SPI, by gdb or by the
 * simulator: each command of the wire's command set becomes one SPI request, and its result the
 * reply's {@link EventBody}. A debugger's error comes back as an {@code error} reply with the
 * debugger's own text.
 */
public final class DebuggerBackend implements RankBackend {
  private final Debugger debugger;

  /** A backend over {@code debugger}, which it owns and closes. */
  public DebuggerBackend(Debugger debugger) {
    this.debugger = debugger;
  }

  @Override
  public void subscribe(Consumer<EventBody> events) {
    debugger.subscribe(event -> events.accept(Protos.event(event)));
  }

  @Override
  public CompletionStage<EventBody> execute(CommandBody command) {
    CompletableFuture<EventBody> reply;
    try {
      reply = dispatch(command);
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(Protos.error(message(e)));
    }
    return reply.exceptionally(e -> Protos.error(message(e)));
  }

  private CompletableFuture<EventBody> dispatch(CommandBody c) {
    switch (c.getKindCase()) {
      case START_SESSION:
        return debugger
            .load(Protos.fromProto(c.getStartSession().getLaunch()))
            .thenApply(Protos::loaded);
      case SET_BREAKPOINT:
        return debugger
            .insertBreakpoint(Protos.fromProto(c.getSetBreakpoint()))
            .thenApply(Protos::breakpoint);
      case DELETE_BREAKPOINT:
        return ok(debugger.deleteBreakpoint(c.getDeleteBreakpoint().getId()));
      case ENABLE_BREAKPOINT:
        return ok(debugger.enableBreakpoint(c.getEnableBreakpoint().getId(), true));
      case DISABLE_BREAKPOINT:
        return ok(debugger.enableBreakpoint(c.getDisableBreakpoint().getId(), false));
      case SET_WATCHPOINT:
        return debugger
            .insertWatchpoint(
                c.getSetWatchpoint().getExpression(),
                Protos.fromProto(c.getSetWatchpoint().getKind()))
            .thenApply(Protos::breakpoint);
      case LIST_BREAKPOINTS:
        return debugger.breakpoints().thenApply(Protos::breakpoints);
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
        return debugger.frames().thenApply(Protos::frames);
      case SELECT_FRAME:
        return debugger.selectFrame(c.getSelectFrame().getLevel()).thenApply(Protos::frame);
      case STACK_DEPTH:
        return debugger.stackDepth().thenApply(Protos::depth);
      case EVALUATE:
        return debugger.evaluate(c.getEvaluate().getExpression()).thenApply(Protos::value);
      case GET_TYPE:
        return debugger.typeOf(c.getGetType().getExpression()).thenApply(Protos::type);
      case LIST_LOCALS:
        return debugger.locals().thenApply(Protos::variables);
      case LIST_ARGS:
        return debugger.arguments().thenApply(Protos::variables);
      case LIST_GLOBALS:
        return debugger.globals().thenApply(Protos::variables);
      case LIST_THREADS:
        return debugger.threads().thenApply(Protos::threads);
      case SELECT_THREAD:
        return debugger.selectThread(c.getSelectThread().getId()).thenApply(Protos::thread);
      case READ_MEMORY:
        return debugger
            .readMemory(c.getReadMemory().getAddress(), c.getReadMemory().getCount())
            .thenApply(Protos::memory);
      case WRITE_MEMORY:
        return ok(
            debugger.writeMemory(
                c.getWriteMemory().getAddress(), c.getWriteMemory().getBytes().toByteArray()));
      case LIST_SIGNALS:
        return debugger.signals().thenApply(Protos::signals);
      case HANDLE_SIGNAL:
        return debugger
            .handleSignal(
                c.getHandleSignal().getSignal(),
                Protos.signalActions(c.getHandleSignal().getActionsList()))
            .thenApply(Protos::signals);
      case CLI:
        return debugger.cli(c.getCli().getCommand()).thenApply(Protos::text);
      case INPUT:
        debugger.writeInput(c.getInput().getBytes().toByteArray());
        return CompletableFuture.completedFuture(Protos.ok());
      case KIND_NOT_SET:
      default:
        throw new DebuggerException("unknown command: " + c.getKindCase());
    }
  }

  private static CompletableFuture<EventBody> ok(CompletableFuture<Void> done) {
    return done.thenApply(v -> Protos.ok());
  }

  private static CompletableFuture<EventBody> running(CompletableFuture<Void> started) {
    return started.thenApply(v -> Protos.running());
  }

  private static String message(Throwable error) {
    Throwable e = error;
    while (e.getCause() != null && (e.getMessage() == null || !(e instanceof DebuggerException))) {
      e = e.getCause();
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  @Override
  public void close() {
    debugger.close();
  }
}
