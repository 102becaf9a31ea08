package io.sdmfabric.frontend.dap;

import io.sdmfabric.model.StepKind;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.eclipse.lsp4j.debug.Capabilities;
import org.eclipse.lsp4j.debug.ConfigurationDoneArguments;
import org.eclipse.lsp4j.debug.ContinueArguments;
import org.eclipse.lsp4j.debug.ContinueResponse;
import org.eclipse.lsp4j.debug.DataBreakpointInfoArguments;
import org.eclipse.lsp4j.debug.DataBreakpointInfoResponse;
import org.eclipse.lsp4j.debug.DisconnectArguments;
import org.eclipse.lsp4j.debug.EvaluateArguments;
import org.eclipse.lsp4j.debug.EvaluateResponse;
import org.eclipse.lsp4j.debug.ExceptionInfoArguments;
import org.eclipse.lsp4j.debug.ExceptionInfoResponse;
import org.eclipse.lsp4j.debug.InitializeRequestArguments;
import org.eclipse.lsp4j.debug.NextArguments;
import org.eclipse.lsp4j.debug.PauseArguments;
import org.eclipse.lsp4j.debug.ScopesArguments;
import org.eclipse.lsp4j.debug.ScopesResponse;
import org.eclipse.lsp4j.debug.SetBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetBreakpointsResponse;
import org.eclipse.lsp4j.debug.SetDataBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetDataBreakpointsResponse;
import org.eclipse.lsp4j.debug.SetExceptionBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetExceptionBreakpointsResponse;
import org.eclipse.lsp4j.debug.SetFunctionBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetFunctionBreakpointsResponse;
import org.eclipse.lsp4j.debug.SetVariableArguments;
import org.eclipse.lsp4j.debug.SetVariableResponse;
import org.eclipse.lsp4j.debug.StackTraceArguments;
import org.eclipse.lsp4j.debug.StackTraceResponse;
import org.eclipse.lsp4j.debug.StepInArguments;
import org.eclipse.lsp4j.debug.StepOutArguments;
import org.eclipse.lsp4j.debug.ThreadsResponse;
import org.eclipse.lsp4j.debug.VariablesArguments;
import org.eclipse.lsp4j.debug.VariablesResponse;
import org.eclipse.lsp4j.debug.launch.DSPLauncher;
import org.eclipse.lsp4j.debug.services.IDebugProtocolClient;
import org.eclipse.lsp4j.debug.services.IDebugProtocolServer;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.jsonrpc.services.JsonRequest;

/**
 * sdm as a debug adapter: a DAP client's requests become the session's commands, its events DAP
 * events. Threads are rank groups ({@link RankGroups}); a group's stack is the stack its ranks
 * share; values are shown per class of ranks ({@link PerRankValues}); the Debug Console takes the
 * console language ({@code [3] print x}, {@code procs}, {@code bt}) and shows what the console
 * would print. A rank that ends never ends the session while others live.
 *
 * <p>Each request is one line that hands it to the part that knows it: {@link SessionStarter}
 * (launch, attach, configurationDone, disconnect), {@link RankThreads} and {@link GroupStacks}
 * (threads, stacks, frame ids), {@link RankExecution} (continue, step, pause), {@link
 * ClientBreakpoints}, {@link SignalFilters} (exception breakpoints), {@link GroupVariables}
 * (scopes, variables) and {@link Evaluator}; the session's events reach the client through {@link
 * EventMapper}. The parts of a session are made together when it opens ({@link DapSession}). Three
 * requests are sdm's own, for the editor's views: {@code sdmRanks} and {@code sdmFocus} ({@link
 * RanksView}), {@code sdmStacks} ({@link StacksView}).
 *
 * <p>Requests run one at a time on the DAP library's thread (launch and attach on a pool's, since
 * they wait for the ranks); events reach the client from the session's thread. Both use the rank
 * table of the console, which is thread-safe.
 */
public final class SdmDebugAdapter implements IDebugProtocolServer {
  private final SessionOpener opener;
  private SessionStarter starter;
  private volatile DapSession session; // null until launch or attach opens one

  /** An adapter that opens its sessions with {@code opener}. */
  public SdmDebugAdapter(SessionOpener opener) {
    this.opener = opener;
  }

  /** The client to send events to: set before the first request. */
  public void connect(IDebugProtocolClient client) {
    this.starter = new SessionStarter(opener, new DapOutput(client));
  }

  /**
   * Serves one DAP client on {@code in} and {@code out} until it goes, then ends the session if it
   * is still open.
   */
  public static void serve(InputStream in, OutputStream out, SessionOpener opener)
      throws Exception {
    SdmDebugAdapter adapter = new SdmDebugAdapter(opener);
    Launcher<IDebugProtocolClient> launcher = DSPLauncher.createServerLauncher(adapter, in, out);
    adapter.connect(launcher.getRemoteProxy());
    try {
      launcher.startListening().get();
    } finally {
      adapter.close();
    }
  }

  /** What this adapter supports, the same for every client. */
  public static Capabilities capabilities() {
    Capabilities c = new Capabilities();
    c.setSupportsConfigurationDoneRequest(true);
    c.setSupportsConditionalBreakpoints(true);
    c.setSupportsHitConditionalBreakpoints(true);
    c.setSupportsLogPoints(true);
    c.setSupportsFunctionBreakpoints(true);
    c.setSupportsDataBreakpoints(true);
    c.setSupportsEvaluateForHovers(true);
    c.setSupportsSetVariable(true);
    c.setSupportsExceptionInfoRequest(true);
    c.setSupportsSingleThreadExecutionRequests(true);
    c.setSupportTerminateDebuggee(true);
    c.setSupportsTerminateRequest(false);
    c.setExceptionBreakpointFilters(SignalFilters.filters());
    return c;
  }

  @Override
  public CompletableFuture<Capabilities> initialize(InitializeRequestArguments args) {
    return done(capabilities());
  }

  @Override
  public CompletableFuture<Void> launch(Map<String, Object> args) {
    return CompletableFuture.runAsync(() -> starter.launch(args, this::opened));
  }

  @Override
  public CompletableFuture<Void> attach(Map<String, Object> args) {
    return CompletableFuture.runAsync(() -> starter.attach(args, this::opened));
  }

  @Override
  public CompletableFuture<Void> configurationDone(ConfigurationDoneArguments args) {
    return run(() -> starter.configurationDone(session()));
  }

  @Override
  public CompletableFuture<SetBreakpointsResponse> setBreakpoints(SetBreakpointsArguments args) {
    return done(session().breakpoints().setSource(args, session().threads().all()));
  }

  @Override
  public CompletableFuture<SetFunctionBreakpointsResponse> setFunctionBreakpoints(
      SetFunctionBreakpointsArguments args) {
    return done(session().breakpoints().setFunctions(args, session().threads().all()));
  }

  /** A data breakpoint watches an expression: a variable's, or the name itself. */
  @Override
  public CompletableFuture<DataBreakpointInfoResponse> dataBreakpointInfo(
      DataBreakpointInfoArguments args) {
    return done(
        ClientBreakpoints.dataInfo(
            session().variables().expression(args.getVariablesReference(), args.getName())));
  }

  /** Data breakpoints go to every stopped rank, each watching in its own selected frame. */
  @Override
  public CompletableFuture<SetDataBreakpointsResponse> setDataBreakpoints(
      SetDataBreakpointsArguments args) {
    return done(session().breakpoints().setData(args, session().threads().stopped()));
  }

  @Override
  public CompletableFuture<SetExceptionBreakpointsResponse> setExceptionBreakpoints(
      SetExceptionBreakpointsArguments args) {
    return done(session().signals().choose(args.getFilters(), session().threads().live()));
  }

  /** The signals that stopped thread {@code threadId}'s ranks, and where. */
  @Override
  public CompletableFuture<ExceptionInfoResponse> exceptionInfo(ExceptionInfoArguments args) {
    return done(session().signals().exceptionInfo(session().threads().group(args.getThreadId())));
  }

  @Override
  public CompletableFuture<ThreadsResponse> threads() {
    return done(session().threads().threads());
  }

  @Override
  public CompletableFuture<StackTraceResponse> stackTrace(StackTraceArguments args) {
    return done(session().stacks().stackTrace(args.getThreadId()));
  }

  @Override
  public CompletableFuture<ScopesResponse> scopes(ScopesArguments args) {
    return done(session().variables().scopes(session().stacks().frame(args.getFrameId())));
  }

  @Override
  public CompletableFuture<VariablesResponse> variables(VariablesArguments args) {
    return done(session().variables().variables(args.getVariablesReference()));
  }

  /** Sets a variable on every rank of its group; the reply shows its new value per class. */
  @Override
  public CompletableFuture<SetVariableResponse> setVariable(SetVariableArguments args) {
    return done(session().variables().set(args));
  }

  @Override
  public CompletableFuture<EvaluateResponse> evaluate(EvaluateArguments args) {
    return done(session().evaluator().evaluate(args));
  }

  @Override
  public CompletableFuture<ContinueResponse> continue_(ContinueArguments args) {
    return done(session().execution().continue_(args.getThreadId(), args.getSingleThread()));
  }

  @Override
  public CompletableFuture<Void> next(NextArguments args) {
    return run(() -> session().execution().step(args.getThreadId(), StepKind.OVER));
  }

  @Override
  public CompletableFuture<Void> stepIn(StepInArguments args) {
    return run(() -> session().execution().step(args.getThreadId(), StepKind.INTO));
  }

  @Override
  public CompletableFuture<Void> stepOut(StepOutArguments args) {
    return run(() -> session().execution().step(args.getThreadId(), StepKind.RETURN));
  }

  @Override
  public CompletableFuture<Void> pause(PauseArguments args) {
    return run(() -> session().execution().pause(args.getThreadId()));
  }

  /**
   * sdm's own request for an editor's Ranks view: every rank in its group, and the nodes ({@link
   * RanksView#ranks}).
   */
  @JsonRequest
  public CompletableFuture<Map<String, Object>> sdmRanks(Map<String, Object> args) {
    return done(session().ranks().ranks());
  }

  /** sdm's own request to focus a group in the Call Stack: {@code threadId}, a stopped group. */
  @JsonRequest
  public CompletableFuture<Void> sdmFocus(Map<String, Object> args) {
    return run(() -> session().ranks().focus(threadId(args)));
  }

  /**
   * sdm's own request for an editor's Parallel Stacks: the stopped ranks' stacks as a picture
   * ({@link StacksView#stacks}).
   */
  @JsonRequest
  public CompletableFuture<Map<String, Object>> sdmStacks(Map<String, Object> args) {
    return done(session().parallelStacks().stacks());
  }

  private static int threadId(Map<String, Object> args) {
    if (args != null && args.get("threadId") instanceof Number n) {
      return n.intValue();
    }
    throw RequestFailure.of("sdmFocus needs a threadId");
  }

  @Override
  public CompletableFuture<Void> disconnect(DisconnectArguments args) {
    return run(() -> starter.disconnect(session, args));
  }

  /** Ends the session, if there is one still. */
  private void close() {
    DapSession open = session;
    if (open != null) {
      open.close();
    }
  }

  private void opened(DapSession opened) {
    session = opened;
  }

  /** The session the requests are about; refused before launch or attach opened one. */
  private DapSession session() {
    DapSession open = session;
    if (open == null) {
      throw RequestFailure.of("no session: launch or attach first");
    }
    return open;
  }

  private static <T> CompletableFuture<T> done(T response) {
    return CompletableFuture.completedFuture(response);
  }

  /** Runs {@code request} on the DAP library's thread, as the other requests run. */
  private static CompletableFuture<Void> run(Runnable request) {
    request.run();
    return CompletableFuture.completedFuture(null);
  }
}
