package io.sdmfabric.frontend.dap;

import static io.sdmfabric.frontend.ProcessTable.State.STOPPED;

import io.sdmfabric.frontend.AttachWorkflow;
import io.sdmfabric.frontend.Console;
import io.sdmfabric.frontend.ProcessTable;
import io.sdmfabric.frontend.ProgramLoad;
import io.sdmfabric.frontend.Renderer;
import io.sdmfabric.frontend.TextRenderer;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalAction;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.StopReasonProto;
import io.sdmfabric.wire.proto.SuspendedEvent;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.eclipse.lsp4j.debug.Breakpoint;
import org.eclipse.lsp4j.debug.Capabilities;
import org.eclipse.lsp4j.debug.ConfigurationDoneArguments;
import org.eclipse.lsp4j.debug.ContinueArguments;
import org.eclipse.lsp4j.debug.ContinueResponse;
import org.eclipse.lsp4j.debug.DataBreakpointInfoArguments;
import org.eclipse.lsp4j.debug.DataBreakpointInfoResponse;
import org.eclipse.lsp4j.debug.DisconnectArguments;
import org.eclipse.lsp4j.debug.EvaluateArguments;
import org.eclipse.lsp4j.debug.EvaluateArgumentsContext;
import org.eclipse.lsp4j.debug.EvaluateResponse;
import org.eclipse.lsp4j.debug.ExceptionBreakMode;
import org.eclipse.lsp4j.debug.ExceptionBreakpointsFilter;
import org.eclipse.lsp4j.debug.ExceptionInfoArguments;
import org.eclipse.lsp4j.debug.ExceptionInfoResponse;
import org.eclipse.lsp4j.debug.InitializeRequestArguments;
import org.eclipse.lsp4j.debug.NextArguments;
import org.eclipse.lsp4j.debug.OutputEventArguments;
import org.eclipse.lsp4j.debug.OutputEventArgumentsCategory;
import org.eclipse.lsp4j.debug.PauseArguments;
import org.eclipse.lsp4j.debug.Scope;
import org.eclipse.lsp4j.debug.ScopePresentationHint;
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
import org.eclipse.lsp4j.debug.Source;
import org.eclipse.lsp4j.debug.SourceBreakpoint;
import org.eclipse.lsp4j.debug.StackFrame;
import org.eclipse.lsp4j.debug.StackTraceArguments;
import org.eclipse.lsp4j.debug.StackTraceResponse;
import org.eclipse.lsp4j.debug.StepInArguments;
import org.eclipse.lsp4j.debug.StepOutArguments;
import org.eclipse.lsp4j.debug.StoppedEventArguments;
import org.eclipse.lsp4j.debug.StoppedEventArgumentsReason;
import org.eclipse.lsp4j.debug.TerminatedEventArguments;
import org.eclipse.lsp4j.debug.Thread;
import org.eclipse.lsp4j.debug.ThreadEventArguments;
import org.eclipse.lsp4j.debug.ThreadEventArgumentsReason;
import org.eclipse.lsp4j.debug.ThreadsResponse;
import org.eclipse.lsp4j.debug.Variable;
import org.eclipse.lsp4j.debug.VariablesArguments;
import org.eclipse.lsp4j.debug.VariablesResponse;
import org.eclipse.lsp4j.debug.launch.DSPLauncher;
import org.eclipse.lsp4j.debug.services.IDebugProtocolClient;
import org.eclipse.lsp4j.debug.services.IDebugProtocolServer;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;

/**
 * sdm as a debug adapter: a DAP client's requests become the session's commands, its events DAP
 * events. Threads are rank groups ({@link RankGroups}); a group's stack is the stack its ranks
 * share; values are shown per class of ranks ({@link PerRankValues}); the Debug Console takes the
 * console language ({@code [3] print x}, {@code procs}, {@code bt}) and shows what the console
 * would print. A rank that ends never ends the session while others live.
 *
 * <p>Requests run one at a time on the DAP library's thread; events reach the client from the
 * session's thread. Both use the rank table of the console, which is thread-safe.
 */
public final class SdmDebugAdapter implements IDebugProtocolServer {
  private static final Duration REPLY_LIMIT = Console.REPLY_LIMIT;

  /** Frame and variable references: the thread's id times this, plus the frame's level. */
  private static final int LEVELS = 10_000;

  /** The fatal signals a client may choose to stop at or not, as exception breakpoint filters. */
  static final List<String> FATAL_SIGNALS = List.of("SIGSEGV", "SIGABRT", "SIGFPE", "SIGBUS");

  /** How the session came to be: what starting it and disconnecting from it mean. */
  private enum Origin {
    /** Started by the adapter: run at configurationDone, ended at disconnect. */
    LAUNCHED,
    /** Attached to running processes: stopped where they were, left running at disconnect. */
    ATTACHED
  }

  private final SessionOpener opener;
  private final VariableReferences references = new VariableReferences();
  private final Map<Integer, String> signalOfRank = new ConcurrentHashMap<>();
  private final ExecutorService logpoints =
      Executors.newSingleThreadExecutor(
          r -> {
            java.lang.Thread t = new java.lang.Thread(r, "sdm-dap-logpoints");
            t.setDaemon(true);
            return t;
          });
  private IDebugProtocolClient client;
  private SessionClient session;
  private Console console;
  private RankGroups groups;
  private ClientBreakpoints breakpoints;
  private GroupVariables variables;
  private FrameSelection frames;
  private Renderer renderer;
  private Origin origin;
  private RankSet attached = RankSet.empty();
  private String cwd = "";
  private boolean stopOnEntry;
  private boolean ended;

  /** An adapter that opens its sessions with {@code opener}. */
  public SdmDebugAdapter(SessionOpener opener) {
    this.opener = opener;
  }

  /** The client to send events to: set before the first request. */
  public void connect(IDebugProtocolClient client) {
    this.client = client;
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

  @Override
  public CompletableFuture<Capabilities> initialize(InitializeRequestArguments args) {
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
    c.setExceptionBreakpointFilters(
        FATAL_SIGNALS.stream()
            .map(
                signal -> {
                  ExceptionBreakpointsFilter f = new ExceptionBreakpointsFilter();
                  f.setFilter(signal);
                  f.setLabel(signal);
                  f.setDescription("Stop the ranks that receive " + signal);
                  f.setDefault_(true);
                  return f;
                })
            .toArray(ExceptionBreakpointsFilter[]::new));
    return CompletableFuture.completedFuture(c);
  }

  @Override
  public CompletableFuture<Void> launch(Map<String, Object> args) {
    return CompletableFuture.supplyAsync(
        () -> {
          LaunchConfig config;
          try {
            config = LaunchConfig.from(args);
            open(opener.launch(config, outputStream("console")), Origin.LAUNCHED, config.cwd());
          } catch (Exception e) {
            throw failure("sdm could not start the session: " + message(e));
          }
          groups = new RankGroups(session.size(), config.threadPerRankUpTo());
          stopOnEntry = config.stopOnEntry();
          LaunchSpec spec =
              new LaunchSpec(
                  config.program(), config.args(), config.env(), Path.of(workingDirectory()));
          List<RankReply> loaded =
              exchange(Commands.startSession(spec), RankSet.all(session.size()));
          if (loaded.stream().noneMatch(r -> r.body().hasLoaded())) {
            throw failure(
                "no rank could load " + config.program() + ": " + PerRankValues.of(loaded));
          }
          client.initialized();
          return null;
        });
  }

  /**
   * Attaches to running processes (they stay stopped where they were until resumed, and run on
   * after disconnect), or takes the next reverse connect request of a batch job and starts its
   * program as a launch would.
   */
  @Override
  public CompletableFuture<Void> attach(Map<String, Object> args) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            AttachConfig config = AttachConfig.from(args);
            stopOnEntry = config.stopOnEntry();
            if (config.listen()) {
              SessionOpener.Connected job = opener.listen(config, outputStream("console"));
              open(job.session(), Origin.LAUNCHED, config.cwd());
              groups = new RankGroups(session.size(), config.threadPerRankUpTo());
              if (!ProgramLoad.load(session, renderer(), job.program(), job.args())) {
                throw new IllegalStateException("no rank could load " + job.program());
              }
            } else {
              SessionOpener.Attached job = opener.attach(config, outputStream("console"));
              open(job.session(), Origin.ATTACHED, config.cwd());
              groups = new RankGroups(session.size(), config.threadPerRankUpTo());
              attached = job.attached();
              if (!AttachWorkflow.begin(
                  session, console, renderer(), attached, job.notAttached())) {
                throw new IllegalStateException("no process could be attached");
              }
            }
          } catch (Exception e) {
            close();
            throw failure("sdm could not attach: " + message(e));
          }
          client.initialized();
          return null;
        });
  }

  /** Takes {@code opened} as this adapter's session, with its console on the Debug Console. */
  private void open(SessionClient opened, Origin how, String workingDirectory) {
    session = opened;
    origin = how;
    cwd = workingDirectory;
    console = new Console(session, renderer());
    breakpoints = new ClientBreakpoints(this::exchange, this::source);
    frames =
        new FrameSelection(
            session.size(), (level, ranks) -> exchange(Commands.selectFrame(level), ranks));
    variables =
        new GroupVariables(
            this::exchange, threadId -> group(threadId).ranks(), frames::select, references);
    session.subscribe(this::onEvent);
  }

  /** The Debug Console's renderer: the console's text but for what the adapter shows itself. */
  private synchronized Renderer renderer() {
    if (renderer == null) {
      renderer =
          new DebugConsoleRenderer(
              new TextRenderer(outputStream("console")),
              e -> e.body().hasOutput() || logpoint(e).isPresent());
    }
    return renderer;
  }

  @Override
  public CompletableFuture<SetBreakpointsResponse> setBreakpoints(SetBreakpointsArguments args) {
    SourceBreakpoint[] wanted =
        args.getBreakpoints() == null ? new SourceBreakpoint[0] : args.getBreakpoints();
    SetBreakpointsResponse response = new SetBreakpointsResponse();
    response.setBreakpoints(
        breakpoints.setSource(args.getSource(), wanted, groups.all()).toArray(Breakpoint[]::new));
    return CompletableFuture.completedFuture(response);
  }

  @Override
  public CompletableFuture<SetFunctionBreakpointsResponse> setFunctionBreakpoints(
      SetFunctionBreakpointsArguments args) {
    SetFunctionBreakpointsResponse response = new SetFunctionBreakpointsResponse();
    response.setBreakpoints(
        breakpoints.setFunctions(args.getBreakpoints(), groups.all()).toArray(Breakpoint[]::new));
    return CompletableFuture.completedFuture(response);
  }

  /** A data breakpoint watches an expression: a variable's, or the name itself. */
  @Override
  public CompletableFuture<DataBreakpointInfoResponse> dataBreakpointInfo(
      DataBreakpointInfoArguments args) {
    String expression = args.getName();
    if (args.getVariablesReference() != null) {
      expression = variables.expression(container(args.getVariablesReference()), args.getName());
    }
    DataBreakpointInfoResponse response = new DataBreakpointInfoResponse();
    response.setDataId(expression);
    response.setDescription(expression);
    response.setAccessTypes(ClientBreakpoints.accessTypes());
    response.setCanPersist(false);
    return CompletableFuture.completedFuture(response);
  }

  /** Data breakpoints go to every stopped rank, each watching in its own selected frame. */
  @Override
  public CompletableFuture<SetDataBreakpointsResponse> setDataBreakpoints(
      SetDataBreakpointsArguments args) {
    SetDataBreakpointsResponse response = new SetDataBreakpointsResponse();
    response.setBreakpoints(
        breakpoints
            .setData(args.getBreakpoints(), console.table().ranksIn(STOPPED, groups.all()))
            .toArray(Breakpoint[]::new));
    return CompletableFuture.completedFuture(response);
  }

  /**
   * The fatal signals the client chose stop the ranks that receive them; the others pass to the
   * program, which they end.
   */
  @Override
  public CompletableFuture<SetExceptionBreakpointsResponse> setExceptionBreakpoints(
      SetExceptionBreakpointsArguments args) {
    Set<String> chosen = Set.of(args.getFilters() == null ? new String[0] : args.getFilters());
    RankSet live =
        console
            .table()
            .ranksIn(STOPPED, groups.all())
            .union(console.table().ranksIn(ProcessTable.State.RUNNING, groups.all()))
            .union(console.table().ranksIn(ProcessTable.State.NOT_STARTED, groups.all()));
    for (String signal : FATAL_SIGNALS) {
      Set<SignalAction> actions =
          chosen.contains(signal)
              ? EnumSet.of(SignalAction.STOP, SignalAction.PRINT, SignalAction.PASS)
              : EnumSet.of(SignalAction.NOSTOP, SignalAction.NOPRINT, SignalAction.PASS);
      if (!live.isEmpty()) {
        exchange(Commands.handleSignal(signal, actions), live);
      }
    }
    SetExceptionBreakpointsResponse response = new SetExceptionBreakpointsResponse();
    response.setBreakpoints(
        FATAL_SIGNALS.stream()
            .filter(chosen::contains)
            .map(
                signal -> {
                  Breakpoint b = new Breakpoint();
                  b.setVerified(true);
                  return b;
                })
            .toArray(Breakpoint[]::new));
    return CompletableFuture.completedFuture(response);
  }

  /** The signals that stopped thread {@code threadId}'s ranks, and where. */
  @Override
  public CompletableFuture<ExceptionInfoResponse> exceptionInfo(ExceptionInfoArguments args) {
    RankGroups.Group group = group(args.getThreadId());
    Map<String, RankSet.Builder> ranksBySignal = new TreeMap<>();
    group
        .ranks()
        .forEach(
            rank -> {
              String signal = signalOfRank.get(rank);
              if (signal != null) {
                ranksBySignal.computeIfAbsent(signal, k -> RankSet.builder()).add(rank);
              }
            });
    if (ranksBySignal.isEmpty()) {
      throw failure("no signal stopped the ranks of [" + group.ranks() + "]");
    }
    List<String> parts = new ArrayList<>();
    ranksBySignal.forEach((signal, ranks) -> parts.add(signal + " on [" + ranks.build() + "]"));
    ExceptionInfoResponse response = new ExceptionInfoResponse();
    response.setExceptionId(String.join(", ", ranksBySignal.keySet()));
    response.setDescription(String.join(", ", parts) + " in " + group.what());
    response.setBreakMode(ExceptionBreakMode.ALWAYS);
    return CompletableFuture.completedFuture(response);
  }

  @Override
  public CompletableFuture<Void> configurationDone(ConfigurationDoneArguments args) {
    RankSet all = groups.all();
    if (origin == Origin.ATTACHED) {
      // The processes stopped where they were: show them so.
      StoppedEventArguments stopped = new StoppedEventArguments();
      stopped.setReason(StoppedEventArgumentsReason.PAUSE);
      stopped.setDescription("attached to [" + attached + "]");
      regroup().stream()
          .filter(g -> g.state() == STOPPED)
          .findFirst()
          .ifPresent(g -> stopped.setThreadId(g.id()));
      stopped.setAllThreadsStopped(true);
      client.stopped(stopped);
      return CompletableFuture.completedFuture(null);
    }
    if (stopOnEntry) {
      exchange(Commands.setBreakpoint(BreakpointSpec.at("main").asTemporary()), all);
    }
    resume(all, Commands.run());
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<ThreadsResponse> threads() {
    ThreadsResponse response = new ThreadsResponse();
    response.setThreads(
        regroup().stream()
            .map(
                g -> {
                  Thread t = new Thread();
                  t.setId(g.id());
                  t.setName(g.name());
                  return t;
                })
            .toArray(Thread[]::new));
    return CompletableFuture.completedFuture(response);
  }

  @Override
  public CompletableFuture<StackTraceResponse> stackTrace(StackTraceArguments args) {
    StackTraceResponse response = new StackTraceResponse();
    RankGroups.Group group = group(args.getThreadId());
    List<StackFrame> frames = new ArrayList<>();
    if (group.state() == STOPPED) {
      // The stack of the most ranks of the group: a group shares its innermost frame, and mostly
      // the whole stack.
      List<RankReply> replies = exchange(Commands.listFrames(), group.ranks());
      replies.stream()
          .filter(r -> r.body().hasFrames())
          .max(java.util.Comparator.comparingInt(r -> r.ranks().size()))
          .ifPresent(
              r -> {
                for (Frame f : Protos.fromProto(r.body().getFrames())) {
                  frames.add(stackFrame(group.id(), f));
                }
              });
    }
    response.setStackFrames(frames.toArray(StackFrame[]::new));
    response.setTotalFrames(frames.size());
    return CompletableFuture.completedFuture(response);
  }

  @Override
  public CompletableFuture<ScopesResponse> scopes(ScopesArguments args) {
    int thread = args.getFrameId() / LEVELS;
    int level = args.getFrameId() % LEVELS;
    ScopesResponse response = new ScopesResponse();
    response.setScopes(
        new Scope[] {
          scope("Arguments", new VariableReferences.Scope(thread, level, true)),
          scope("Locals", new VariableReferences.Scope(thread, level, false))
        });
    return CompletableFuture.completedFuture(response);
  }

  private Scope scope(String name, VariableReferences.Scope of) {
    Scope scope = new Scope();
    scope.setName(name);
    scope.setPresentationHint(
        of.arguments() ? ScopePresentationHint.ARGUMENTS : ScopePresentationHint.LOCALS);
    scope.setVariablesReference(references.reference(of));
    scope.setExpensive(false);
    return scope;
  }

  @Override
  public CompletableFuture<VariablesResponse> variables(VariablesArguments args) {
    VariablesResponse response = new VariablesResponse();
    response.setVariables(
        variables.variables(container(args.getVariablesReference())).toArray(Variable[]::new));
    return CompletableFuture.completedFuture(response);
  }

  /** Sets a variable on every rank of its group; the reply shows its new value per class. */
  @Override
  public CompletableFuture<SetVariableResponse> setVariable(SetVariableArguments args) {
    SetVariableResponse response = new SetVariableResponse();
    try {
      response.setValue(
          variables.set(container(args.getVariablesReference()), args.getName(), args.getValue()));
    } catch (IllegalArgumentException e) {
      throw failure("not set: " + e.getMessage());
    }
    return CompletableFuture.completedFuture(response);
  }

  private VariableReferences.Container container(int reference) {
    return references
        .container(reference)
        .orElseThrow(
            () -> failure("variable reference " + reference + " has expired: the ranks moved"));
  }

  @Override
  public CompletableFuture<EvaluateResponse> evaluate(EvaluateArguments args) {
    EvaluateResponse response = new EvaluateResponse();
    response.setVariablesReference(0);
    if (EvaluateArgumentsContext.REPL.equals(args.getContext())) {
      // The console language; what the console prints goes to the Debug Console as output.
      console.execute(args.getExpression());
      frames.forget(groups.all()); // frame, up, down and thread select others
      response.setResult("");
      return CompletableFuture.completedFuture(response);
    }
    RankSet ranks =
        args.getFrameId() != null
            ? group(args.getFrameId() / LEVELS).ranks()
            : console.table().ranksIn(STOPPED, groups.all());
    if (args.getFrameId() != null) {
      frames.select(args.getFrameId() % LEVELS, ranks);
    }
    List<RankReply> replies = exchange(Commands.evaluate(args.getExpression()), ranks);
    response.setResult(PerRankValues.of(replies));
    if (args.getFrameId() != null) {
      replies.stream()
          .filter(r -> r.body().hasValue())
          .map(r -> Protos.fromProto(r.body().getValue()))
          .filter(GroupVariables::expandable)
          .findFirst()
          .ifPresent(
              v -> {
                response.setType(v.type());
                response.setVariablesReference(
                    references.reference(
                        new VariableReferences.Expression(
                            args.getFrameId() / LEVELS,
                            args.getFrameId() % LEVELS,
                            args.getExpression())));
              });
    }
    return CompletableFuture.completedFuture(response);
  }

  @Override
  public CompletableFuture<ContinueResponse> continue_(ContinueArguments args) {
    boolean one = Boolean.TRUE.equals(args.getSingleThread());
    RankSet ranks =
        one ? group(args.getThreadId()).ranks() : console.table().ranksIn(STOPPED, groups.all());
    resume(ranks, Commands.go());
    ContinueResponse response = new ContinueResponse();
    response.setAllThreadsContinued(!one);
    return CompletableFuture.completedFuture(response);
  }

  @Override
  public CompletableFuture<Void> next(NextArguments args) {
    return step(args.getThreadId(), StepKind.OVER);
  }

  @Override
  public CompletableFuture<Void> stepIn(StepInArguments args) {
    return step(args.getThreadId(), StepKind.INTO);
  }

  @Override
  public CompletableFuture<Void> stepOut(StepOutArguments args) {
    return step(args.getThreadId(), StepKind.RETURN);
  }

  /** Steps the ranks of thread {@code threadId}'s group; the other groups stay where they are. */
  private CompletableFuture<Void> step(int threadId, StepKind kind) {
    resume(group(threadId).ranks(), Commands.step(kind));
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<Void> pause(PauseArguments args) {
    RankSet running =
        console.table().ranksIn(ProcessTable.State.RUNNING, group(args.getThreadId()).ranks());
    exchange(Commands.suspend(), running.isEmpty() ? groups.all() : running);
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<Void> disconnect(DisconnectArguments args) {
    if (origin == Origin.ATTACHED
        && (args == null || !Boolean.TRUE.equals(args.getTerminateDebuggee()))) {
      try {
        AttachWorkflow.leaveRunning(console, attached);
      } catch (Exception e) {
        output("console", "sdm: not every process was left running: " + message(e) + "\n");
      }
    }
    close();
    return CompletableFuture.completedFuture(null);
  }

  /**
   * Ends the session, if there is one still: every rank it started and its debugger (attached
   * processes that were left running are no longer the session's).
   */
  private synchronized void close() {
    logpoints.shutdownNow();
    if (session != null) {
      session.close();
      session = null;
    }
  }

  /** Resumes {@code ranks} with {@code body}: they count as running from now until they stop. */
  private void resume(RankSet ranks, CommandBody body) {
    ProcessTable before = console.table().snapshot();
    references.forget(
        groups.current().stream()
            .filter(g -> g.ranks().intersects(ranks))
            .map(RankGroups.Group::id)
            .collect(Collectors.toSet()));
    ranks.forEach(signalOfRank::remove);
    console.table().markRunning(ranks);
    for (RankReply r : exchange(body, ranks)) {
      if (r.body().hasError() || r.body().hasLost()) {
        console.table().resumeFailed(r.ranks(), before);
        output("console", "[" + r.ranks() + "] " + PerRankValues.of(List.of(r)) + "\n");
      }
    }
  }

  /** The session's events, after the console's table has them. */
  private void onEvent(RankReply event) {
    EventBody body = event.body();
    if (body.hasOutput()) {
      programOutput(event);
      return;
    }
    Optional<LogMessage> log = logpoint(event);
    if (log.isPresent()) {
      // Not a stop the client sees: the ranks log their message and go on.
      logpoints.execute(() -> logAndGoOn(event, log.get()));
      return;
    }
    List<RankGroups.Group> now = regroup();
    if (body.hasSuspended()) {
      frames.stopped(event.ranks());
      SuspendedEvent suspended = body.getSuspended();
      if (!suspended.getSignal().isEmpty()) {
        event.ranks().forEach(rank -> signalOfRank.put(rank, suspended.getSignal()));
      }
      StoppedEventArguments stopped = new StoppedEventArguments();
      stopped.setReason(reason(suspended.getReason()));
      // The ranks, where a client shows one thread's frames without its name (VS Code does).
      stopped.setDescription(
          (suspended.getSignal().isEmpty() ? stopped.getReason() : suspended.getSignal())
              + " on ["
              + event.ranks()
              + "]");
      groups.holding(event.ranks().first()).ifPresent(g -> stopped.setThreadId(g.id()));
      stopped.setAllThreadsStopped(false);
      client.stopped(stopped);
    }
    if (!ended
        && now.stream()
            .allMatch(
                g ->
                    g.state() != ProcessTable.State.RUNNING
                        && g.state() != STOPPED
                        && g.state() != ProcessTable.State.NOT_STARTED)) {
      // Every rank has ended (exited, detached, lost or in error): the session is over. No exited
      // event: the ranks' exit codes need not agree, and the threads' names give each.
      ended = true;
      client.terminated(new TerminatedEventArguments());
    }
  }

  /** The logpoint whose stop {@code event} is, if it is one. */
  private Optional<LogMessage> logpoint(RankReply event) {
    return event.body().hasSuspended() && breakpoints != null
        ? breakpoints.logpoint(event.body().getSuspended().getBreakpointId())
        : Optional.empty();
  }

  /**
   * The ranks of {@code event} log their message of {@code log}, one line per message, and go on.
   */
  private void logAndGoOn(RankReply event, LogMessage log) {
    RankSet ranks = event.ranks();
    try {
      Map<String, List<RankReply>> values = new HashMap<>();
      for (String expression : log.expressions()) {
        values.computeIfAbsent(expression, e -> exchange(Commands.evaluate(e), ranks));
      }
      Frame at = Protos.fromProto(event.body().getSuspended().getFrame());
      for (String line : log.lines(ranks, e -> PerRankValues.byRank(values.get(e)))) {
        OutputEventArguments e = new OutputEventArguments();
        e.setCategory(OutputEventArgumentsCategory.CONSOLE);
        e.setOutput(line + "\n");
        if (at.hasSource()) {
          e.setSource(source(at.file()));
          e.setLine(at.line());
        }
        client.output(e);
      }
      resume(ranks, Commands.go());
    } catch (RuntimeException e) {
      output("console", "[" + ranks + "] logpoint: " + message(e) + "\n");
    }
  }

  /** The programs' output, each line with the ranks that wrote it, as the console shows it. */
  private void programOutput(RankReply event) {
    String text = event.body().getOutput().getBytes().toString(StandardCharsets.UTF_8);
    StringBuilder lines = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      if (!line.isEmpty()) {
        lines.append('[').append(event.ranks()).append("] ").append(line).append('\n');
      }
    }
    if (lines.length() > 0) {
      output("stdout", lines.toString());
    }
  }

  /** Regroups the ranks, telling the client of groups that came and went. */
  private synchronized List<RankGroups.Group> regroup() {
    Set<Integer> before = ids(groups.current());
    List<RankGroups.Group> now = groups.regroup(console.table().rows(groups.all()));
    Set<Integer> after = ids(now);
    for (int id : after) {
      if (!before.contains(id)) {
        threadEvent(id, ThreadEventArgumentsReason.STARTED);
      }
    }
    for (int id : before) {
      if (!after.contains(id)) {
        threadEvent(id, ThreadEventArgumentsReason.EXITED);
      }
    }
    return now;
  }

  private static Set<Integer> ids(List<RankGroups.Group> groups) {
    return groups.stream().map(RankGroups.Group::id).collect(Collectors.toSet());
  }

  private void threadEvent(int id, String reason) {
    ThreadEventArguments e = new ThreadEventArguments();
    e.setThreadId(id);
    e.setReason(reason);
    client.thread(e);
  }

  private RankGroups.Group group(int threadId) {
    regroup();
    return groups
        .group(threadId)
        .orElseThrow(() -> failure("no thread " + threadId + ": the ranks have regrouped"));
  }

  private StackFrame stackFrame(int threadId, Frame f) {
    StackFrame frame = new StackFrame();
    frame.setId(threadId * LEVELS + f.level());
    frame.setName(f.function());
    if (f.hasSource()) {
      frame.setSource(source(f.file()));
      frame.setLine(f.line());
    } else {
      frame.setLine(0);
    }
    frame.setColumn(0);
    return frame;
  }

  /**
   * A file as gdb names it, as a source of the client's: relative ones from the working directory.
   */
  private Source source(String file) {
    Path path = Path.of(file);
    Source source = new Source();
    source.setPath(
        (path.isAbsolute() ? path : Path.of(workingDirectory()).resolve(path)).toString());
    source.setName(path.getFileName().toString());
    return source;
  }

  private static String reason(StopReasonProto reason) {
    return switch (reason) {
      case STOP_REASON_BREAKPOINT_HIT -> StoppedEventArgumentsReason.BREAKPOINT;
      case STOP_REASON_WATCHPOINT_TRIGGER,
              STOP_REASON_READ_WATCHPOINT_TRIGGER,
              STOP_REASON_ACCESS_WATCHPOINT_TRIGGER ->
          StoppedEventArgumentsReason.DATA_BREAKPOINT;
      case STOP_REASON_END_STEPPING_RANGE, STOP_REASON_FUNCTION_FINISHED ->
          StoppedEventArgumentsReason.STEP;
      case STOP_REASON_SIGNAL_RECEIVED -> StoppedEventArgumentsReason.EXCEPTION;
      case STOP_REASON_INTERRUPTED -> StoppedEventArgumentsReason.PAUSE;
      default -> StoppedEventArgumentsReason.ENTRY;
    };
  }

  private String workingDirectory() {
    return cwd.isEmpty() ? Path.of("").toAbsolutePath().toString() : cwd;
  }

  private List<RankReply> exchange(CommandBody body, RankSet ranks) {
    SessionClient session = this.session;
    if (session == null) {
      throw failure("the session has ended");
    }
    try {
      return session
          .call(body, ranks, Duration.ZERO)
          .get(REPLY_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      java.lang.Thread.currentThread().interrupt();
      throw failure("interrupted");
    } catch (Exception e) {
      throw failure(message(e));
    }
  }

  /** A stream whose lines reach the client as output events of {@code category}. */
  private PrintStream outputStream(String category) {
    OutputStream lines =
        new OutputStream() {
          private final ByteArrayOutputStream line = new ByteArrayOutputStream();

          @Override
          public synchronized void write(int b) {
            line.write(b);
            if (b == '\n') {
              output(category, line.toString(StandardCharsets.UTF_8));
              line.reset();
            }
          }
        };
    return new PrintStream(lines, true, StandardCharsets.UTF_8);
  }

  private void output(String category, String text) {
    OutputEventArguments e = new OutputEventArguments();
    e.setCategory(
        category.equals("console")
            ? OutputEventArgumentsCategory.CONSOLE
            : OutputEventArgumentsCategory.STDOUT);
    e.setOutput(text);
    client.output(e);
  }

  private static String message(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getMessage() == null) {
      cause = cause.getCause();
    }
    return cause.getMessage() == null ? cause.toString() : cause.getMessage();
  }

  private static ResponseErrorException failure(String message) {
    return new ResponseErrorException(
        new ResponseError(ResponseErrorCode.InvalidRequest, message, null));
  }
}
