package io.sdmfabric.frontend.dap;

import io.sdmfabric.frontend.Console;
import io.sdmfabric.frontend.ProcessTable;
import io.sdmfabric.frontend.TextRenderer;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.StopReasonProto;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.eclipse.lsp4j.debug.Breakpoint;
import org.eclipse.lsp4j.debug.Capabilities;
import org.eclipse.lsp4j.debug.ConfigurationDoneArguments;
import org.eclipse.lsp4j.debug.ContinueArguments;
import org.eclipse.lsp4j.debug.ContinueResponse;
import org.eclipse.lsp4j.debug.DisconnectArguments;
import org.eclipse.lsp4j.debug.EvaluateArguments;
import org.eclipse.lsp4j.debug.EvaluateArgumentsContext;
import org.eclipse.lsp4j.debug.EvaluateResponse;
import org.eclipse.lsp4j.debug.InitializeRequestArguments;
import org.eclipse.lsp4j.debug.NextArguments;
import org.eclipse.lsp4j.debug.OutputEventArguments;
import org.eclipse.lsp4j.debug.OutputEventArgumentsCategory;
import org.eclipse.lsp4j.debug.PauseArguments;
import org.eclipse.lsp4j.debug.Scope;
import org.eclipse.lsp4j.debug.ScopesArguments;
import org.eclipse.lsp4j.debug.ScopesResponse;
import org.eclipse.lsp4j.debug.SetBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetBreakpointsResponse;
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

  private final SessionOpener opener;
  private IDebugProtocolClient client;
  private SessionClient session;
  private Console console;
  private RankGroups groups;
  private LaunchConfig config;
  private final Map<String, List<Integer>> breakpointsBySource = new HashMap<>();
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
    c.setSupportsEvaluateForHovers(true);
    c.setSupportsSingleThreadExecutionRequests(true);
    c.setSupportsTerminateRequest(false);
    return CompletableFuture.completedFuture(c);
  }

  @Override
  public CompletableFuture<Void> launch(Map<String, Object> args) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            config = LaunchConfig.from(args);
            session = new SharedEvents(opener.open(config, outputStream("console")));
          } catch (Exception e) {
            throw failure("sdm could not start the session: " + message(e));
          }
          console = new Console(session, new TextRenderer(outputStream("console")));
          groups = new RankGroups(session.size(), config.threadPerRankUpTo());
          session.onEvent(this::onEvent);
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

  @Override
  public CompletableFuture<SetBreakpointsResponse> setBreakpoints(SetBreakpointsArguments args) {
    RankSet all = groups.all();
    String path = args.getSource().getPath();
    for (int id : breakpointsBySource.getOrDefault(path, List.of())) {
      exchange(Commands.deleteBreakpoint(id), all);
    }
    List<Integer> ids = new ArrayList<>();
    List<Breakpoint> set = new ArrayList<>();
    for (SourceBreakpoint b : args.getBreakpoints()) {
      BreakpointSpec spec = BreakpointSpec.at(path + ":" + b.getLine());
      if (b.getCondition() != null && !b.getCondition().isBlank()) {
        spec = spec.withCondition(b.getCondition());
      }
      List<RankReply> replies = exchange(Commands.setBreakpoint(spec), all);
      Breakpoint shown = new Breakpoint();
      shown.setLine(b.getLine());
      shown.setSource(args.getSource());
      RankSet failed = RankSet.empty();
      String why = "";
      for (RankReply r : replies) {
        if (r.body().hasBreakpoint()) {
          shown.setId(r.body().getBreakpoint().getId());
          shown.setVerified(true);
        } else {
          failed = failed.union(r.ranks());
          why = PerRankValues.of(List.of(r));
        }
      }
      if (shown.getId() != null) {
        ids.add(shown.getId());
      }
      if (!failed.isEmpty()) {
        shown.setMessage("not set on [" + failed + "]: " + why);
      }
      set.add(shown);
    }
    breakpointsBySource.put(path, ids);
    SetBreakpointsResponse response = new SetBreakpointsResponse();
    response.setBreakpoints(set.toArray(Breakpoint[]::new));
    return CompletableFuture.completedFuture(response);
  }

  @Override
  public CompletableFuture<Void> configurationDone(ConfigurationDoneArguments args) {
    RankSet all = groups.all();
    if (config.stopOnEntry()) {
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
    if (group.state() == ProcessTable.State.STOPPED) {
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
    Scope locals = new Scope();
    locals.setName("Locals");
    locals.setVariablesReference(args.getFrameId());
    locals.setExpensive(false);
    ScopesResponse response = new ScopesResponse();
    response.setScopes(new Scope[] {locals});
    return CompletableFuture.completedFuture(response);
  }

  @Override
  public CompletableFuture<VariablesResponse> variables(VariablesArguments args) {
    int reference = args.getVariablesReference();
    RankSet ranks = group(reference / LEVELS).ranks();
    exchange(Commands.selectFrame(reference % LEVELS), ranks);
    List<Variable> variables = new ArrayList<>();
    PerRankValues.locals(exchange(Commands.listLocals(), ranks))
        .forEach(
            (name, text) -> {
              Variable v = new Variable();
              v.setName(name);
              v.setValue(text);
              v.setVariablesReference(0);
              variables.add(v);
            });
    VariablesResponse response = new VariablesResponse();
    response.setVariables(variables.toArray(Variable[]::new));
    return CompletableFuture.completedFuture(response);
  }

  @Override
  public CompletableFuture<EvaluateResponse> evaluate(EvaluateArguments args) {
    EvaluateResponse response = new EvaluateResponse();
    response.setVariablesReference(0);
    if (EvaluateArgumentsContext.REPL.equals(args.getContext())) {
      // The console language; what the console prints goes to the Debug Console as output.
      console.execute(args.getExpression());
      response.setResult("");
      return CompletableFuture.completedFuture(response);
    }
    RankSet ranks =
        args.getFrameId() != null
            ? group(args.getFrameId() / LEVELS).ranks()
            : console.table().ranksIn(ProcessTable.State.STOPPED, groups.all());
    if (args.getFrameId() != null) {
      exchange(Commands.selectFrame(args.getFrameId() % LEVELS), ranks);
    }
    response.setResult(PerRankValues.of(exchange(Commands.evaluate(args.getExpression()), ranks)));
    return CompletableFuture.completedFuture(response);
  }

  @Override
  public CompletableFuture<ContinueResponse> continue_(ContinueArguments args) {
    boolean one = Boolean.TRUE.equals(args.getSingleThread());
    RankSet ranks =
        one
            ? group(args.getThreadId()).ranks()
            : console.table().ranksIn(ProcessTable.State.STOPPED, groups.all());
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
    close();
    return CompletableFuture.completedFuture(null);
  }

  /** Ends the session, if there is one still: every rank and its debugger. */
  private synchronized void close() {
    if (session != null) {
      session.close();
      session = null;
    }
  }

  /** Resumes {@code ranks} with {@code body}: they count as running from now until they stop. */
  private void resume(RankSet ranks, CommandBody body) {
    ProcessTable before = console.table().snapshot();
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
    List<RankGroups.Group> now = regroup();
    if (body.hasSuspended()) {
      StoppedEventArguments stopped = new StoppedEventArguments();
      stopped.setReason(reason(body.getSuspended().getReason()));
      stopped.setDescription(
          body.getSuspended().getSignal().isEmpty()
              ? null
              : body.getSuspended().getSignal() + " on [" + event.ranks() + "]");
      groups.holding(event.ranks().first()).ifPresent(g -> stopped.setThreadId(g.id()));
      stopped.setAllThreadsStopped(false);
      client.stopped(stopped);
    } else if (body.hasOutput()) {
      return; // the console shows it, with its ranks
    }
    if (!ended
        && now.stream()
            .allMatch(
                g ->
                    g.state() != ProcessTable.State.RUNNING
                        && g.state() != ProcessTable.State.STOPPED
                        && g.state() != ProcessTable.State.NOT_STARTED)) {
      // Every rank has ended (exited, detached, lost or in error): the session is over. No exited
      // event: the ranks' exit codes need not agree, and the threads' names give each.
      ended = true;
      client.terminated(new TerminatedEventArguments());
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
      Source source = new Source();
      Path file = Path.of(f.file());
      source.setPath(
          (file.isAbsolute() ? file : Path.of(workingDirectory()).resolve(file)).toString());
      source.setName(file.getFileName().toString());
      frame.setSource(source);
      frame.setLine(f.line());
    } else {
      frame.setLine(0);
    }
    frame.setColumn(0);
    return frame;
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
    return config.cwd().isEmpty() ? Path.of("").toAbsolutePath().toString() : config.cwd();
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
