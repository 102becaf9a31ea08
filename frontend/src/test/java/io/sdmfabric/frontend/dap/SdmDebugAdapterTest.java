package io.sdmfabric.frontend.dap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.sim.SimulatedProgram;
import io.sdmfabric.wire.SessionClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.eclipse.lsp4j.debug.Capabilities;
import org.eclipse.lsp4j.debug.ConfigurationDoneArguments;
import org.eclipse.lsp4j.debug.ContinueArguments;
import org.eclipse.lsp4j.debug.DisconnectArguments;
import org.eclipse.lsp4j.debug.EvaluateArguments;
import org.eclipse.lsp4j.debug.EvaluateArgumentsContext;
import org.eclipse.lsp4j.debug.ExceptionBreakpointsFilter;
import org.eclipse.lsp4j.debug.InitializeRequestArguments;
import org.eclipse.lsp4j.debug.OutputEventArguments;
import org.eclipse.lsp4j.debug.Scope;
import org.eclipse.lsp4j.debug.ScopesArguments;
import org.eclipse.lsp4j.debug.SetBreakpointsArguments;
import org.eclipse.lsp4j.debug.Source;
import org.eclipse.lsp4j.debug.SourceBreakpoint;
import org.eclipse.lsp4j.debug.StackFrame;
import org.eclipse.lsp4j.debug.StackTraceArguments;
import org.eclipse.lsp4j.debug.StoppedEventArguments;
import org.eclipse.lsp4j.debug.TerminatedEventArguments;
import org.eclipse.lsp4j.debug.Thread;
import org.eclipse.lsp4j.debug.Variable;
import org.eclipse.lsp4j.debug.VariablesArguments;
import org.eclipse.lsp4j.debug.services.IDebugProtocolClient;
import org.eclipse.lsp4j.debug.services.IDebugProtocolServer;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.jsonrpc.debug.DebugLauncher;
import org.eclipse.lsp4j.jsonrpc.services.JsonRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter as a DAP client sees it, over LSP4J's JSON-RPC on in-process pipes, against four
 * simulated ranks ({@link SimulatedSession}): ranks 0 and 2 call {@code compute}, ranks 1 and 3
 * {@code exchange}, twice each, so that a breakpoint in {@code compute} stops [0,2] and [1,3] run
 * to their end.
 */
class SdmDebugAdapterTest {
  private static final long WAIT_SECONDS = 20;
  private static final int SIZE = 4;
  private static final SimulatedProgram PROGRAM =
      SimulatedProgram.builder().withIterations(2).withStackShape(2, 4).build();
  private static final int COMPUTE_LINE = PROGRAM.functionStartLine("compute").orElseThrow();

  @TempDir Path cwd;

  private final SimulatedSession simulated = new SimulatedSession(PROGRAM, SIZE);
  private final Events events = new Events();
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          r -> {
            java.lang.Thread t = new java.lang.Thread(r, "dap-test");
            t.setDaemon(true);
            return t;
          });
  private OutputStream toAdapter;
  private Future<?> adapter;
  private SdmServer server;

  /** The adapter with sdm's own requests, as the editor extension calls them. */
  interface SdmServer extends IDebugProtocolServer {
    @JsonRequest
    CompletableFuture<Map<String, Object>> sdmRanks(Map<String, Object> args);

    @JsonRequest
    CompletableFuture<Void> sdmFocus(Map<String, Object> args);

    @JsonRequest
    CompletableFuture<Map<String, Object>> sdmStacks(Map<String, Object> args);
  }

  private volatile boolean opened;

  @BeforeEach
  void serveTheAdapterOnPipes() throws IOException {
    Pipe requests = Pipe.open();
    Pipe responses = Pipe.open();
    toAdapter = Channels.newOutputStream(requests.sink());
    InputStream adapterIn = Channels.newInputStream(requests.source());
    OutputStream adapterOut = Channels.newOutputStream(responses.sink());
    adapter =
        threads.submit(
            () -> {
              SdmDebugAdapter.serve(adapterIn, adapterOut, new Opener());
              return null;
            });
    Launcher<SdmServer> launcher =
        DebugLauncher.createLauncher(
            events,
            SdmServer.class,
            Channels.newInputStream(responses.source()),
            toAdapter,
            threads,
            w -> w);
    launcher.startListening();
    server = launcher.getRemoteProxy();
  }

  @AfterEach
  void endTheClient() throws Exception {
    try {
      toAdapter.close(); // the adapter's input ends: it ends its session and returns
      adapter.get(WAIT_SECONDS, TimeUnit.SECONDS);
      assertEquals(opened, simulated.closed(), "the session opened is closed with its client");
    } finally {
      simulated.close();
      threads.shutdownNow();
    }
  }

  @Test
  void initializeAnswersTheCapabilitiesAndTheFatalSignalsAsExceptionFilters() throws Exception {
    Capabilities c = await(server.initialize(initializeArguments()));
    assertTrue(c.getSupportsConfigurationDoneRequest());
    assertTrue(c.getSupportsConditionalBreakpoints());
    assertTrue(c.getSupportsHitConditionalBreakpoints());
    assertTrue(c.getSupportsLogPoints());
    assertTrue(c.getSupportsFunctionBreakpoints());
    assertTrue(c.getSupportsDataBreakpoints());
    assertTrue(c.getSupportsEvaluateForHovers());
    assertTrue(c.getSupportsSetVariable());
    assertTrue(c.getSupportsExceptionInfoRequest());
    assertTrue(c.getSupportsSingleThreadExecutionRequests());
    assertTrue(c.getSupportTerminateDebuggee());
    assertFalse(c.getSupportsTerminateRequest());
    assertEquals(
        List.of("SIGSEGV", "SIGABRT", "SIGFPE", "SIGBUS"),
        Arrays.stream(c.getExceptionBreakpointFilters())
            .map(ExceptionBreakpointsFilter::getFilter)
            .toList());
    ExceptionBreakpointsFilter segv = c.getExceptionBreakpointFilters()[0];
    assertEquals("SIGSEGV", segv.getLabel());
    assertEquals("Stop the ranks that receive SIGSEGV", segv.getDescription());
    assertTrue(segv.getDefault_());
  }

  @Test
  void aBreakpointStopsItsRanksAsOneThreadWithTheirStackAndValuesPerClassOfRanks()
      throws Exception {
    StoppedEventArguments stop = launchToTheBreakpoint();
    assertEquals("breakpoint", stop.getReason());
    assertEquals("breakpoint on [0,2]", stop.getDescription());

    // Ranks 1 and 3 exit on their own; their exit may reach the adapter after the stop does.
    Thread[] shown = threadsOnce(t -> t.getName().startsWith("[1,3] exited"));
    Thread stopped = thread(shown, stop.getThreadId());
    assertEquals("[0,2] compute at sim.c:" + COMPUTE_LINE, stopped.getName());

    StackFrame[] frames = stack(stop.getThreadId());
    assertEquals(
        List.of("compute", "f_0_2", "solver_loop", "main"),
        Arrays.stream(frames).map(StackFrame::getName).toList());
    assertEquals(cwd.resolve("sim.c").toString(), frames[0].getSource().getPath());
    assertEquals(COMPUTE_LINE, frames[0].getLine());

    Scope[] scopes = scopes(frames[0]);
    assertEquals(
        List.of("Arguments", "Locals"), Arrays.stream(scopes).map(Scope::getName).toList());
    assertEquals(List.of("level = 3"), shown(scopes[0]));
    assertEquals(List.of("tmp = 3 on [0], 5 on [2]"), shown(scopes[1]));
  }

  @Test
  void aFrameIdStandsForItsThreadsRanksAndItsLevel() throws Exception {
    StoppedEventArguments stop = launchToTheBreakpoint();
    StackFrame[] frames = stack(stop.getThreadId());
    assertEquals(4, Arrays.stream(frames).mapToInt(StackFrame::getId).distinct().count());

    // The caller's frame: its variables are read in frame 1 of ranks 0 and 2 only.
    assertEquals(List.of("level = 2"), shown(scopes(frames[1])[0]));
    assertEquals(List.of("tmp = 2 on [0], 4 on [2]"), shown(scopes(frames[1])[1]));
    assertEquals("0 on [0], 2 on [2]", hover("rank", frames[1]));
    // And back to the innermost frame, which the ranks must select again.
    assertEquals(List.of("tmp = 3 on [0], 5 on [2]"), shown(scopes(frames[0])[1]));

    // The same frame of the same thread keeps its id.
    assertArrayEquals(
        Arrays.stream(frames).mapToInt(StackFrame::getId).toArray(),
        Arrays.stream(stack(stop.getThreadId())).mapToInt(StackFrame::getId).toArray());
  }

  @Test
  void continueRunsEveryStoppedRankToItsNextStopAndTheLastEndTerminates() throws Exception {
    StoppedEventArguments first = launchToTheBreakpoint();
    assertTrue(
        await(server.continue_(continueArguments(first.getThreadId()))).getAllThreadsContinued());
    StoppedEventArguments second = events.stopped();
    assertEquals("breakpoint on [0,2]", second.getDescription());
    assertNotEquals(
        "0", hover("iteration", stack(second.getThreadId())[0]), "a second stop, not the first");

    await(server.continue_(continueArguments(second.getThreadId())));
    assertNotNull(events.terminated.get(WAIT_SECONDS, TimeUnit.SECONDS));
  }

  @Test
  void theRanksViewHasEveryRankInItsGroupAndTheNodeAndAClickFocusesAStoppedGroup()
      throws Exception {
    StoppedEventArguments stop = launchToTheBreakpoint();
    Map<String, Object> view = await(server.sdmRanks(Map.of()));
    assertEquals(4.0, view.get("size"));
    List<?> groups = (List<?>) view.get("groups");
    Map<?, ?> stopped =
        groups.stream()
            .map(g -> (Map<?, ?>) g)
            .filter(g -> g.get("ranks").equals("0,2"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no group [0,2] in " + groups));
    assertEquals("stopped", stopped.get("state"));
    assertEquals((double) stop.getThreadId(), stopped.get("threadId"));
    Map<?, ?> node = (Map<?, ?>) ((List<?>) view.get("nodes")).get(0);
    assertEquals("up", node.get("state"));
    assertEquals((double) ProcessHandle.current().pid(), node.get("serverPid"));

    await(server.sdmFocus(Map.of("threadId", stop.getThreadId())));
    StoppedEventArguments focused = events.stopped();
    assertEquals(stop.getThreadId(), focused.getThreadId());
    assertEquals("focus", focused.getReason());
    assertFalse(focused.getPreserveFocusHint());
  }

  @Test
  void parallelStacksIsAPictureOfTheStoppedRanks() throws Exception {
    launchToTheBreakpoint();
    Map<String, Object> view = await(server.sdmStacks(Map.of()));
    assertEquals("0,2", view.get("ranks"));
    String html = (String) view.get("html");
    assertTrue(html.startsWith("<!DOCTYPE html>"), html.substring(0, 80));
    // A box of the picture, not a word of the layout library the page embeds.
    assertTrue(
        html.contains("class=\"function\" x=\"8\" y=\"16\">compute</text>"),
        "the page has the frame where [0,2] stopped");
    assertTrue(html.contains("Content-Security-Policy"), "the page says what it may load");
  }

  @Test
  void focusingAGroupThatRunsIsRefusedWithWhy() throws Exception {
    launchToTheBreakpoint();
    Map<String, Object> view = await(server.sdmRanks(Map.of()));
    Map<?, ?> running =
        ((List<?>) view.get("groups"))
            .stream()
                .map(g -> (Map<?, ?>) g)
                .filter(g -> !g.get("state").equals("stopped"))
                .findFirst()
                .orElseThrow();
    ExecutionException refused =
        assertThrows(
            ExecutionException.class,
            () -> await(server.sdmFocus(Map.of("threadId", running.get("threadId")))));
    assertTrue(refused.getMessage().contains("no stack to show"), refused.getMessage());
  }

  /**
   * Ranks a launcher started and sdm holds at the end of MPI_Init are in main already (here: the
   * simulated ranks stopped in main before the adapter takes them): stopping on entry shows them
   * stopped there rather than running them to a breakpoint at main they are past.
   */
  @Test
  void ranksHeldInMpiInitStopOnEntryWhereTheyAre() throws Exception {
    simulated.startedAs(SessionClient.Started.SHIM_IN_INIT);
    await(server.initialize(initializeArguments()));
    await(
        server.launch(
            Map.of("program", "sim", "ranks", SIZE, "cwd", cwd.toString(), "stopOnEntry", true)));
    events.initialized.get(WAIT_SECONDS, TimeUnit.SECONDS);
    simulated.stopAllInMain();
    await(server.configurationDone(new ConfigurationDoneArguments()));
    StoppedEventArguments entry = events.stopped();
    assertEquals("entry", entry.getReason());
    assertEquals("held at the end of MPI_Init", entry.getDescription());
    assertEquals("main", stack(entry.getThreadId())[0].getName());
    assertNull(events.terminated.getNow(null), "no rank ran");
    // Continue runs them: the simulated ranks, stopped in main, go on to their end.
    await(server.continue_(continueArguments(entry.getThreadId())));
    assertNotNull(events.terminated.get(WAIT_SECONDS, TimeUnit.SECONDS));
  }

  /** Ranks gdb starts are not in main yet: stopping on entry runs them to a breakpoint there. */
  @Test
  void ranksNotInMainYetStopOnEntryAtABreakpointInMain() throws Exception {
    await(server.initialize(initializeArguments()));
    await(
        server.launch(
            Map.of("program", "sim", "ranks", SIZE, "cwd", cwd.toString(), "stopOnEntry", true)));
    events.initialized.get(WAIT_SECONDS, TimeUnit.SECONDS);
    await(server.configurationDone(new ConfigurationDoneArguments()));
    StoppedEventArguments entry = events.stopped();
    assertEquals("breakpoint", entry.getReason());
    assertEquals("main", stack(entry.getThreadId())[0].getName());
  }

  @Test
  void disconnectEndsTheLaunchedSession() throws Exception {
    launchToTheBreakpoint();
    await(server.disconnect(new DisconnectArguments()));
    assertTrue(simulated.closed());
  }

  /** initialize, launch, a breakpoint in compute, configurationDone: the stop of [0,2]. */
  private StoppedEventArguments launchToTheBreakpoint() throws Exception {
    await(server.initialize(initializeArguments()));
    await(server.launch(Map.of("program", "sim", "ranks", SIZE, "cwd", cwd.toString())));
    events.initialized.get(WAIT_SECONDS, TimeUnit.SECONDS);
    SetBreakpointsArguments breakpoints = new SetBreakpointsArguments();
    Source source = new Source();
    source.setPath(cwd.resolve("sim.c").toString());
    breakpoints.setSource(source);
    SourceBreakpoint line = new SourceBreakpoint();
    line.setLine(COMPUTE_LINE);
    breakpoints.setBreakpoints(new SourceBreakpoint[] {line});
    var set = await(server.setBreakpoints(breakpoints)).getBreakpoints();
    assertEquals(1, set.length);
    assertTrue(set[0].isVerified(), String.valueOf(set[0].getMessage()));
    assertEquals(COMPUTE_LINE, set[0].getLine());
    await(server.configurationDone(new ConfigurationDoneArguments()));
    return events.stopped();
  }

  private StackFrame[] stack(int threadId) throws Exception {
    StackTraceArguments args = new StackTraceArguments();
    args.setThreadId(threadId);
    return await(server.stackTrace(args)).getStackFrames();
  }

  private Scope[] scopes(StackFrame frame) throws Exception {
    ScopesArguments args = new ScopesArguments();
    args.setFrameId(frame.getId());
    return await(server.scopes(args)).getScopes();
  }

  /** The variables of {@code scope} as "name = value". */
  private List<String> shown(Scope scope) throws Exception {
    VariablesArguments args = new VariablesArguments();
    args.setVariablesReference(scope.getVariablesReference());
    return Arrays.stream(await(server.variables(args)).getVariables())
        .map((Variable v) -> v.getName() + " = " + v.getValue())
        .toList();
  }

  private String hover(String expression, StackFrame frame) throws Exception {
    EvaluateArguments args = new EvaluateArguments();
    args.setExpression(expression);
    args.setFrameId(frame.getId());
    args.setContext(EvaluateArgumentsContext.HOVER);
    return await(server.evaluate(args)).getResult();
  }

  /** The threads, asked again until one of them matches {@code shown}, within the bound. */
  private Thread[] threadsOnce(Predicate<Thread> shown) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (true) {
      Thread[] threads = await(server.threads()).getThreads();
      if (Arrays.stream(threads).anyMatch(shown)) {
        return threads;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no such thread in " + Arrays.toString(threads));
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }

  private static Thread thread(Thread[] threads, int id) {
    return Arrays.stream(threads)
        .filter(t -> t.getId() == id)
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("no thread " + id + " in " + Arrays.toString(threads)));
  }

  private static ContinueArguments continueArguments(int threadId) {
    ContinueArguments args = new ContinueArguments();
    args.setThreadId(threadId);
    return args;
  }

  private static InitializeRequestArguments initializeArguments() {
    InitializeRequestArguments args = new InitializeRequestArguments();
    args.setAdapterID("sdm");
    args.setLinesStartAt1(true);
    args.setColumnsStartAt1(true);
    return args;
  }

  private static <T> T await(CompletableFuture<T> request) throws Exception {
    return request.get(WAIT_SECONDS, TimeUnit.SECONDS);
  }

  /** Opens the simulated session for a launch; attach and listen are not this test's. */
  private final class Opener implements SessionOpener {
    @Override
    public SessionClient launch(LaunchConfig config, PrintStream log) {
      assertEquals(SIZE, config.ranks());
      opened = true;
      return simulated;
    }

    @Override
    public Attached attach(AttachConfig config, PrintStream log) {
      throw new UnsupportedOperationException("attach");
    }

    @Override
    public Connected listen(AttachConfig config, PrintStream log) {
      throw new UnsupportedOperationException("listen");
    }
  }

  /** The client's end: the adapter's events as they arrive, awaited with a bound. */
  private static final class Events implements IDebugProtocolClient {
    final CompletableFuture<Void> initialized = new CompletableFuture<>();
    final CompletableFuture<TerminatedEventArguments> terminated = new CompletableFuture<>();
    final BlockingQueue<StoppedEventArguments> stops = new LinkedBlockingQueue<>();
    final BlockingQueue<OutputEventArguments> output = new LinkedBlockingQueue<>();

    StoppedEventArguments stopped() throws InterruptedException {
      StoppedEventArguments stop = stops.poll(WAIT_SECONDS, TimeUnit.SECONDS);
      assertNotNull(stop, () -> "no stopped event; the adapter said: " + output);
      return stop;
    }

    @Override
    public void initialized() {
      initialized.complete(null);
    }

    @Override
    public void stopped(StoppedEventArguments args) {
      stops.add(args);
    }

    @Override
    public void terminated(TerminatedEventArguments args) {
      terminated.complete(args);
    }

    @Override
    public void output(OutputEventArguments args) {
      output.add(args);
    }
  }
}
