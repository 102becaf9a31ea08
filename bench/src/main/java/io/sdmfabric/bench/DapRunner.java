package io.sdmfabric.bench;

import io.sdmfabric.model.RankSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.eclipse.lsp4j.debug.ConfigurationDoneArguments;
import org.eclipse.lsp4j.debug.DisconnectArguments;
import org.eclipse.lsp4j.debug.EvaluateArguments;
import org.eclipse.lsp4j.debug.EvaluateArgumentsContext;
import org.eclipse.lsp4j.debug.InitializeRequestArguments;
import org.eclipse.lsp4j.debug.NextArguments;
import org.eclipse.lsp4j.debug.Scope;
import org.eclipse.lsp4j.debug.ScopesArguments;
import org.eclipse.lsp4j.debug.SetBreakpointsArguments;
import org.eclipse.lsp4j.debug.Source;
import org.eclipse.lsp4j.debug.SourceBreakpoint;
import org.eclipse.lsp4j.debug.StackFrame;
import org.eclipse.lsp4j.debug.StackTraceArguments;
import org.eclipse.lsp4j.debug.StepInArguments;
import org.eclipse.lsp4j.debug.StepOutArguments;
import org.eclipse.lsp4j.debug.Thread;
import org.eclipse.lsp4j.debug.Variable;
import org.eclipse.lsp4j.debug.VariablesArguments;
import org.eclipse.lsp4j.debug.services.IDebugProtocolServer;

/**
 * {@code sdm dap} beside {@code sdm debug --json} on the same job, in one run: N ranks of {@code
 * bench/src/main/c/dap_loop.c}, embedded (no launcher), every rank stopped at one breakpoint in the
 * loop. A round is one session: started, stopped at the breakpoint, then R reps of the commands,
 * then ended; DAP and console rounds alternate ({@code --rounds R} of each) so that both sides meet
 * the same machine. {@code --jar PATH} runs another build of sdm (default {@code
 * cli/target/sdm.jar}), to compare two builds run after run. The pairs, each timed from writing the
 * request to its answer:
 *
 * <ul>
 *   <li>stack: {@code threads} and {@code stackTrace} of the one thread (every rank is one group),
 *       beside {@code bt} to its {@code complete} event;
 *   <li>locals: {@code scopes} and {@code variables} of the top frame's Locals, beside {@code
 *       locals};
 *   <li>print: {@code evaluate} with the top frame, context {@code hover} ({@code --print EXPR},
 *       {@code sum} by default: a value different on most ranks), beside {@code print EXPR};
 *   <li>next: {@code next} on the group's thread until the {@code stopped} event after which every
 *       rank stands stopped in one group again (checked with {@code threads}, not timed: the time
 *       ends at that event's arrival), beside {@code next} until the stop events of all N ranks;
 *   <li>step: {@code stepIn} from the call that {@code next} reached into the function, beside
 *       {@code step}, timed as next is;
 *   <li>finish: {@code stepOut} of it, back to the call, beside {@code finish}.
 * </ul>
 *
 * Two more {@code next}s, not timed, bring the ranks back to the breakpoint's line for the next
 * rep.
 *
 * <p>Parts are timed too, to see where the adapter's time goes: {@code threads} alone (the adapter
 * regroups and asks no gdb); {@code evaluate} of the same expression without a frame, context
 * {@code watch} (the adapter then selects no frame first); and the console's {@code frame 0} (the
 * frame selection the adapter makes before each {@code variables}, and each {@code evaluate} with a
 * frame). Each round prints a line,
 *
 * <pre>
 * side=dap|console round=K ranks=N reps=R launch_to_all_stopped_ms=.. stack_p50_ms=.. stack_p99_ms=..
 *     locals_.. print_.. next_.. step_.. finish_.. [threads_.. evaluate_without_frame_..]|[frame_..]
 *     stopped_events_per_resume=.. [thread_events_per_resume=..]
 *     quit_ms=.. processes_left=..
 * </pre>
 *
 * and after the rounds one line per pair over the samples of every round:
 *
 * <pre>
 * command=stack ranks=N samples=S dap=threads+stackTrace console=bt dap_p50_ms=.. dap_p99_ms=..
 *     console_p50_ms=.. console_p99_ms=.. p50_ratio=..
 * </pre>
 *
 * quit is {@code disconnect} (or {@code quit}) until the process has ended; processes_left counts
 * the session's processes (gdbs, ranks) still there 10 s after, which the runner then kills.
 */
public final class DapRunner {
  private DapRunner() {}

  private static final String SOURCE = "bench/src/main/c/dap_loop.c";
  private static final String MARK = "bench: break here";

  /** What is timed: a pair of a DAP side and a console side, or a part of one side. */
  private enum Measure {
    STACK("threads+stackTrace", "bt"),
    LOCALS("scopes+variables", "locals"),
    PRINT("evaluate", "print"),
    NEXT("next", "next"),
    STEP("stepIn", "step"),
    FINISH("stepOut", "finish"),
    THREADS("threads", ""),
    EVALUATE_WITHOUT_FRAME("evaluate", ""),
    FRAME("", "frame");

    final String dap;
    final String console;

    Measure(String dap, String console) {
      this.dap = dap;
      this.console = console;
    }

    boolean paired() {
      return !dap.isEmpty() && !console.isEmpty();
    }

    String key() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The job both sides debug: the program, its ranks, where it stops, what to print. */
  private record Job(Path program, Path top, Path source, int line, int ranks, String print) {}

  /** The stop events a resuming command brought, and the nanoTime at which the last was read. */
  private record Stops(int events, long lastNanos) {}

  /** How many commands of a rep resume the ranks: next, step, finish, next, next. */
  private static final int RESUMES_PER_REP = 5;

  /** One session's times: per measure, one sample per rep, sorted. */
  private record Round(
      double launchMs,
      Map<Measure, double[]> ms,
      double stoppedEventsPerResume,
      double threadEventsPerResume,
      double quitMs,
      int processesLeft) {
    Round {
      ms = Collections.unmodifiableMap(new EnumMap<>(ms));
    }
  }

  public static void main(String[] args) throws Exception {
    int rounds = 2;
    String print = "sum";
    Path top = Path.of("").toAbsolutePath();
    Path jar = top.resolve("cli/target/sdm.jar");
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--print" -> print = args[++i];
        case "--jar" -> jar = Path.of(args[++i]).toAbsolutePath();
        default -> rest.add(args[i]);
      }
    }
    RunnerOptions options = RunnerOptions.parse(rest.toArray(String[]::new), List.of(32), 30);
    Path dir = Files.createTempDirectory("sdm-dap-bench");
    Path program = dir.resolve("dap_loop");
    // Compiled from the checkout's top, as the other runners do: frames name bench/src/main/c/...
    Process cc =
        new ProcessBuilder("gcc", "-g", "-O0", "-o", program.toString(), SOURCE)
            .inheritIO()
            .start();
    if (cc.waitFor() != 0) {
      throw new IllegalStateException("the compiler failed on " + SOURCE);
    }
    int line = markedLine(top.resolve(SOURCE));
    for (int n : options.sizes()) {
      Job job = new Job(program, top, top.resolve(SOURCE), line, n, print);
      List<Round> dap = new ArrayList<>();
      List<Round> console = new ArrayList<>();
      for (int r = 1; r <= rounds; r++) {
        dap.add(dapRound(jar, job, options.reps(), dir.resolve("dap-" + n + "-" + r + ".err")));
        printRound("dap", r, n, options.reps(), dap.get(r - 1));
        console.add(consoleRound(jar, job, options.reps()));
        printRound("console", r, n, options.reps(), console.get(r - 1));
      }
      printPairs(n, dap, console);
    }
  }

  /** The line of {@code source} that carries the breakpoint's mark. */
  private static int markedLine(Path source) throws Exception {
    List<String> lines = Files.readAllLines(source);
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(MARK)) {
        return i + 1;
      }
    }
    throw new IllegalStateException(source + " has no line marked \"" + MARK + "\"");
  }

  private static Round dapRound(Path jar, Job job, int reps, Path log) throws Exception {
    long start = System.nanoTime();
    try (DapClient dap = DapClient.start(SdmJar.command(jar, "dap"), log)) {
      double launchMs = (launchAndStop(dap, job) - start) / 1e6;
      List<ProcessHandle> processes = dap.process().descendants().toList();
      Map<Measure, double[]> ms = new EnumMap<>(Measure.class);
      for (Measure m :
          List.of(
              Measure.STACK,
              Measure.THREADS,
              Measure.LOCALS,
              Measure.PRINT,
              Measure.EVALUATE_WITHOUT_FRAME,
              Measure.NEXT,
              Measure.STEP,
              Measure.FINISH)) {
        ms.put(m, new double[reps]);
      }
      int stopsBefore = dap.stops();
      int threadEventsBefore = dap.threadEvents();
      for (int i = 0; i < reps; i++) {
        dapRep(dap, job, ms, i);
      }
      double stoppedPerResume = (dap.stops() - stopsBefore) / (double) (reps * RESUMES_PER_REP);
      double threadEventsPerResume =
          (dap.threadEvents() - threadEventsBefore) / (double) (reps * RESUMES_PER_REP);

      long quit = System.nanoTime();
      DisconnectArguments bye = new DisconnectArguments();
      bye.setTerminateDebuggee(true);
      dap.await(dap.server().disconnect(bye));
      dap.process().getOutputStream().close(); // the client goes: sdm dap ends
      if (!dap.process().waitFor(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("sdm dap did not end after disconnect");
      }
      double quitMs = (System.nanoTime() - quit) / 1e6;
      ms.values().forEach(Arrays::sort);
      return new Round(
          launchMs, ms, stoppedPerResume, threadEventsPerResume, quitMs, leftovers(processes));
    }
  }

  /**
   * Starts the session as an editor does (initialize, launch, on the initialized event the
   * breakpoint and configurationDone) and waits until every rank has stopped at the breakpoint;
   * returns when the last stopped event arrived.
   */
  private static long launchAndStop(DapClient dap, Job job) throws Exception {
    IDebugProtocolServer server = dap.server();
    InitializeRequestArguments init = new InitializeRequestArguments();
    init.setClientID("sdm-bench");
    init.setAdapterID("sdm");
    init.setLinesStartAt1(true);
    init.setColumnsStartAt1(true);
    init.setPathFormat("path");
    dap.await(server.initialize(init));
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("program", job.program().toString());
    config.put("ranks", job.ranks());
    config.put("cwd", job.top().toString());
    config.put("launcher", "none");
    // One group however few the ranks (at 32 the default, 2, is the same).
    config.put("threadPerRankUpTo", 0);
    CompletableFuture<Void> launched = server.launch(config);
    dap.awaitInitialized();
    setBreakpoint(dap, job);
    dap.await(server.configurationDone(new ConfigurationDoneArguments()));
    dap.await(launched);
    return awaitOneGroup(dap, job.ranks(), 0);
  }

  /** Times rep {@code i} of each DAP measure into {@code ms}, checking every answer. */
  private static void dapRep(DapClient dap, Job job, Map<Measure, double[]> ms, int i)
      throws Exception {
    IDebugProtocolServer server = dap.server();
    long t0 = System.nanoTime();
    Thread[] threads = dap.await(server.threads()).getThreads();
    long t1 = System.nanoTime();
    int thread =
        oneGroup(threads, job.ranks())
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "the ranks are not one stopped group: " + names(threads)));
    StackTraceArguments st = new StackTraceArguments();
    st.setThreadId(thread);
    StackFrame[] frames = dap.await(server.stackTrace(st)).getStackFrames();
    long t2 = System.nanoTime();
    if (frames.length == 0 || !frames[0].getName().equals("main")) {
      throw new IllegalStateException("the group's stack is not main's: " + frames.length);
    }
    ScopesArguments sc = new ScopesArguments();
    sc.setFrameId(frames[0].getId());
    Scope[] scopes = dap.await(server.scopes(sc)).getScopes();
    // By name: an adapter may offer more scopes (Arguments) before it.
    Scope localScope =
        Arrays.stream(scopes)
            .filter(x -> x.getName().equals("Locals"))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no Locals scope"));
    VariablesArguments va = new VariablesArguments();
    va.setVariablesReference(localScope.getVariablesReference());
    Variable[] locals = dap.await(server.variables(va)).getVariables();
    long t3 = System.nanoTime();
    if (locals.length == 0) {
      throw new IllegalStateException("no locals in main");
    }
    EvaluateArguments hover = new EvaluateArguments();
    hover.setExpression(job.print());
    hover.setFrameId(frames[0].getId());
    hover.setContext(EvaluateArgumentsContext.HOVER);
    String value = dap.await(server.evaluate(hover)).getResult();
    long t4 = System.nanoTime();
    if (value.isEmpty() || value.startsWith("error")) {
      throw new IllegalStateException("evaluate " + job.print() + ": " + value);
    }
    EvaluateArguments watch = new EvaluateArguments();
    watch.setExpression(job.print());
    watch.setContext(EvaluateArgumentsContext.WATCH);
    String watched = dap.await(server.evaluate(watch)).getResult();
    long t5 = System.nanoTime();
    // The same classes of ranks, in whatever order the replies came.
    if (!classes(watched).equals(classes(value))) {
      throw new IllegalStateException("evaluate without a frame: " + watched + ", not " + value);
    }
    ms.get(Measure.STACK)[i] = (t2 - t0) / 1e6;
    ms.get(Measure.THREADS)[i] = (t1 - t0) / 1e6;
    ms.get(Measure.LOCALS)[i] = (t3 - t2) / 1e6;
    ms.get(Measure.PRINT)[i] = (t4 - t3) / 1e6;
    ms.get(Measure.EVALUATE_WITHOUT_FRAME)[i] = (t5 - t4) / 1e6;
    Resumed next = dapResume(dap, job, thread, "main", Measure.NEXT);
    Resumed step = dapResume(dap, job, next.thread(), "fold", Measure.STEP);
    Resumed finish = dapResume(dap, job, step.thread(), "main", Measure.FINISH);
    ms.get(Measure.NEXT)[i] = next.ms();
    ms.get(Measure.STEP)[i] = step.ms();
    ms.get(Measure.FINISH)[i] = finish.ms();
    int at = finish.thread();
    for (int back = 0; back < 2; back++) {
      at = dapResume(dap, job, at, "main", Measure.NEXT).thread();
    }
  }

  /** A resuming command's time, and the thread of the ranks' one group where they stopped. */
  private record Resumed(double ms, int thread) {}

  /**
   * Milliseconds from the request of {@code m} on {@code thread} to the stopped event after which
   * every rank stands in one group again, in {@code function} (checked, not timed), and that
   * group's thread.
   */
  private static Resumed dapResume(DapClient dap, Job job, int thread, String function, Measure m)
      throws Exception {
    IDebugProtocolServer server = dap.server();
    int seen = dap.stops();
    long t = System.nanoTime();
    switch (m) {
      case NEXT -> {
        NextArguments a = new NextArguments();
        a.setThreadId(thread);
        dap.await(server.next(a));
      }
      case STEP -> {
        StepInArguments a = new StepInArguments();
        a.setThreadId(thread);
        dap.await(server.stepIn(a));
      }
      case FINISH -> {
        StepOutArguments a = new StepOutArguments();
        a.setThreadId(thread);
        dap.await(server.stepOut(a));
      }
      default -> throw new IllegalArgumentException(m + " does not resume");
    }
    long stopped = awaitOneGroup(dap, job.ranks(), seen);
    Thread[] threads = dap.await(server.threads()).getThreads();
    if (!threads[0].getName().contains("] " + function + " at ")) {
      throw new IllegalStateException(
          m.dap + " stopped elsewhere than in " + function + ": " + names(threads));
    }
    return new Resumed((stopped - t) / 1e6, threads[0].getId());
  }

  private static void setBreakpoint(DapClient dap, Job job) throws InterruptedException {
    Source source = new Source();
    source.setPath(job.source().toString());
    SourceBreakpoint at = new SourceBreakpoint();
    at.setLine(job.line());
    SetBreakpointsArguments args = new SetBreakpointsArguments();
    args.setSource(source);
    args.setBreakpoints(new SourceBreakpoint[] {at});
    var set = dap.await(dap.server().setBreakpoints(args)).getBreakpoints();
    if (set.length != 1 || !set[0].isVerified()) {
      throw new IllegalStateException(
          "the breakpoint at " + job.source() + ":" + job.line() + " was not set");
    }
  }

  /**
   * Waits for stopped events beyond the first {@code from}, asking for the threads after each,
   * until every rank stands stopped in one group; returns when the last of those events arrived.
   */
  private static long awaitOneGroup(DapClient dap, int ranks, int from) throws Exception {
    while (true) {
      int seen = dap.stops();
      if (seen > from
          && oneGroup(dap.await(dap.server().threads()).getThreads(), ranks).isPresent()) {
        return dap.stopArrival(seen - 1);
      }
      dap.awaitStopsBeyond(seen);
    }
  }

  /** The id of the one thread, if it is every rank stopped at one place ("[0-31] main at ..."). */
  private static Optional<Integer> oneGroup(Thread[] threads, int ranks) {
    String all = RankSet.all(ranks).toString();
    Pattern stopped = Pattern.compile(Pattern.quote("[" + all + "] ") + "\\S+ at .+");
    return threads.length == 1 && stopped.matcher(threads[0].getName()).matches()
        ? Optional.of(threads[0].getId())
        : Optional.empty();
  }

  /** The classes of ranks of a per-rank value ("42 on [0,1,3], -1 on [2]"), in no order. */
  private static Set<String> classes(String value) {
    return Set.copyOf(Arrays.asList(value.split(", ")));
  }

  private static List<String> names(Thread[] threads) {
    return Arrays.stream(threads).map(Thread::getName).toList();
  }

  private static Round consoleRound(Path jar, Job job, int reps) throws Exception {
    long start = System.nanoTime();
    List<String> command =
        SdmJar.command(
            jar, "debug", "--json", "-n", Integer.toString(job.ranks()), job.program().toString());
    try (JsonConsole sdm = JsonConsole.start(command)) {
      sdm.send("break " + job.source() + ":" + job.line() + "\nrun\n");
      double launchMs = (awaitStops(sdm, job.ranks(), "run").lastNanos() - start) / 1e6;
      List<ProcessHandle> processes = sdm.process().descendants().toList();

      Map<Measure, double[]> ms = new EnumMap<>(Measure.class);
      for (Measure m :
          List.of(
              Measure.STACK,
              Measure.LOCALS,
              Measure.PRINT,
              Measure.FRAME,
              Measure.NEXT,
              Measure.STEP,
              Measure.FINISH)) {
        ms.put(m, new double[reps]);
      }
      long stopEvents = 0;
      for (int i = 0; i < reps; i++) {
        ms.get(Measure.STACK)[i] = roundTrip(sdm, "bt", "stacks");
        ms.get(Measure.LOCALS)[i] = roundTrip(sdm, "locals", "variables");
        ms.get(Measure.PRINT)[i] = roundTrip(sdm, "print " + job.print(), "value");
        ms.get(Measure.FRAME)[i] = roundTrip(sdm, "frame 0", "frame");
        List<Measure> rep = List.of(Measure.NEXT, Measure.STEP, Measure.FINISH);
        for (Measure m : rep) {
          long t = System.nanoTime();
          sdm.send(m.console + "\n");
          Stops stops = awaitStops(sdm, job.ranks(), m.console);
          ms.get(m)[i] = (stops.lastNanos() - t) / 1e6;
          stopEvents += stops.events();
        }
        for (int back = 0; back < 2; back++) {
          sdm.send("next\n");
          stopEvents += awaitStops(sdm, job.ranks(), "next").events();
        }
      }

      long quit = System.nanoTime();
      sdm.send("quit\n");
      if (!sdm.process().waitFor(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("sdm did not quit");
      }
      double quitMs = (System.nanoTime() - quit) / 1e6;
      ms.values().forEach(Arrays::sort);
      return new Round(
          launchMs,
          ms,
          stopEvents / (double) (reps * RESUMES_PER_REP),
          0,
          quitMs,
          leftovers(processes));
    }
  }

  /**
   * Milliseconds from writing {@code command} to its {@code complete} event; fails unless an event
   * named {@code expected} came before it, and on any error event.
   */
  private static double roundTrip(JsonConsole sdm, String command, String expected)
      throws Exception {
    long t = System.nanoTime();
    sdm.send(command + "\n");
    List<String> replies = sdm.untilComplete(command.split(" ")[0]);
    double ms = (System.nanoTime() - t) / 1e6;
    String prefix = "{\"event\":\"" + expected + "\"";
    if (replies.stream().anyMatch(JsonConsole::isError)
        || replies.stream().noneMatch(l -> l.startsWith(prefix))) {
      throw new IllegalStateException(command + " failed: " + replies);
    }
    return ms;
  }

  /**
   * Reads events until {@code ranks} ranks have stopped and {@code word} has completed; returns the
   * stop events' number and when the last was read.
   */
  private static Stops awaitStops(JsonConsole sdm, int ranks, String word) throws Exception {
    String done = JsonConsole.completion(word);
    boolean complete = false;
    int stopped = 0;
    int events = 0;
    long last = 0;
    while (!complete || stopped < ranks) {
      String l = sdm.next();
      if (JsonConsole.isStop(l)) {
        stopped += JsonConsole.count(l);
        events++;
        last = System.nanoTime();
      } else if (l.equals(done)) {
        complete = true;
      } else if (JsonConsole.isError(l)) {
        throw new IllegalStateException(word + " failed: " + l);
      }
    }
    return new Stops(events, last);
  }

  /**
   * Waits up to 10 s for each of a session's processes to end after the session did; kills those
   * still there and returns how many there were.
   */
  private static int leftovers(List<ProcessHandle> processes) throws Exception {
    int left = 0;
    for (ProcessHandle p : processes) {
      try {
        p.onExit().get(10, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        left++;
        System.err.println(
            "[dap] left behind: pid " + p.pid() + " " + p.info().commandLine().orElse("?"));
        p.destroyForcibly();
      }
    }
    return left;
  }

  private static void printRound(String side, int round, int ranks, int reps, Round r) {
    StringBuilder line =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "side=%s round=%d ranks=%d reps=%d launch_to_all_stopped_ms=%.0f",
                side,
                round,
                ranks,
                reps,
                r.launchMs()));
    r.ms()
        .forEach(
            (m, samples) ->
                line.append(
                    String.format(
                        Locale.ROOT,
                        " %s_p50_ms=%.2f %s_p99_ms=%.2f",
                        m.key(),
                        RunnerOptions.percentile(samples, 50),
                        m.key(),
                        RunnerOptions.percentile(samples, 99))));
    line.append(
        String.format(Locale.ROOT, " stopped_events_per_resume=%.1f", r.stoppedEventsPerResume()));
    if (side.equals("dap")) {
      line.append(
          String.format(Locale.ROOT, " thread_events_per_resume=%.1f", r.threadEventsPerResume()));
    }
    line.append(
        String.format(
            Locale.ROOT, " quit_ms=%.0f processes_left=%d", r.quitMs(), r.processesLeft()));
    System.out.println(line);
  }

  private static void printPairs(int ranks, List<Round> dap, List<Round> console) {
    for (Measure m : Measure.values()) {
      if (!m.paired()) {
        continue;
      }
      double[] d = pooled(dap, m);
      double[] c = pooled(console, m);
      double dp50 = RunnerOptions.percentile(d, 50);
      double cp50 = RunnerOptions.percentile(c, 50);
      System.out.printf(
          Locale.ROOT,
          "command=%s ranks=%d samples=%d dap=%s console=%s dap_p50_ms=%.2f dap_p99_ms=%.2f"
              + " console_p50_ms=%.2f console_p99_ms=%.2f p50_ratio=%.2f%n",
          m.key(),
          ranks,
          d.length,
          m.dap,
          m.console,
          dp50,
          RunnerOptions.percentile(d, 99),
          cp50,
          RunnerOptions.percentile(c, 99),
          dp50 / cp50);
    }
  }

  /** Every round's samples of {@code m}, sorted. */
  private static double[] pooled(List<Round> rounds, Measure m) {
    return rounds.stream().flatMapToDouble(r -> Arrays.stream(r.ms().get(m))).sorted().toArray();
  }
}
