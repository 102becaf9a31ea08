package io.sdmfabric.frontend.dap;

import io.sdmfabric.frontend.Console;
import io.sdmfabric.frontend.Renderer;
import io.sdmfabric.frontend.TextRenderer;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.proto.CommandBody;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One session as the adapter serves it: the session, its console on the Debug Console, and the
 * parts the requests delegate to, made together when it opens and wired to one another here (the
 * way the adapter's composition root would be). The parts ask the ranks through {@link #exchange},
 * which waits as long as the console does and refuses once the session has closed.
 */
final class DapSession implements AutoCloseable {
  private static final Duration REPLY_LIMIT = Console.REPLY_LIMIT;

  /** How the session came to be: what starting it and disconnecting from it mean. */
  enum Origin {
    /** Started by the adapter: run at configurationDone, ended at disconnect. */
    LAUNCHED,
    /** Attached to running processes: stopped where they were, left running at disconnect. */
    ATTACHED
  }

  /**
   * How the session was opened: its origin, the programs' working directory ({@code cwd}, empty for
   * this JVM's), up to how many ranks each rank is a thread of its own, whether the ranks stop at
   * {@code main}, and the ranks attached to.
   */
  record Start(
      Origin origin, String cwd, int threadPerRankUpTo, boolean stopOnEntry, RankSet attached) {}

  private volatile SessionClient session; // null once closed
  private final Start start;
  private final SourcePaths sources;
  private final Renderer renderer;
  private final Console console;
  private final RankThreads threads;
  private final GroupStacks stacks;
  private final ClientBreakpoints breakpoints;
  private final FrameSelection frames;
  private final GroupVariables variables;
  private final SignalFilters signals;
  private final RankExecution execution;
  private final Evaluator evaluator;
  private final Logpoints logpoints;
  private final RanksView ranks;
  private final StacksView parallelStacks;

  /** Serves {@code opened}, opened as {@code start} says, to the client of {@code out}. */
  DapSession(SessionClient opened, Start start, DapOutput out) {
    this.session = opened;
    this.start = start;
    this.sources = new SourcePaths(start.cwd());
    VariableReferences references = new VariableReferences();
    this.breakpoints = new ClientBreakpoints(this::exchange, sources::source);
    this.signals = new SignalFilters(this::exchange);
    this.frames =
        new FrameSelection(
            opened.size(), (level, ranks) -> exchange(Commands.selectFrame(level), ranks));
    // The Debug Console shows what the console prints, but for what the adapter shows itself.
    this.renderer =
        new DebugConsoleRenderer(
            new TextRenderer(out.consoleStream()),
            e -> e.reply() instanceof Reply.Output || breakpoints.logpoint(e).isPresent());
    this.console = new Console(opened, renderer);
    this.threads =
        new RankThreads(
            new RankGroups(opened.size(), start.threadPerRankUpTo()), console.table(), out);
    this.stacks = new GroupStacks(threads, this::exchange, sources::source);
    this.variables =
        new GroupVariables(
            this::exchange,
            threadId -> threads.group(threadId).ranks(),
            frames::select,
            references);
    this.execution = new RankExecution(threads, console.table(), references, this::exchange, out);
    this.evaluator = new Evaluator(console, threads, stacks, frames, references, this::exchange);
    this.logpoints = new Logpoints(this::exchange, sources::source, execution, out);
    this.ranks = new RanksView(threads, console.table(), this::exchange, out);
    this.parallelStacks = new StacksView(this::client, console.table(), threads);
    // After the console's subscription, so that the process table has each event first.
    new EventMapper(out, threads, frames, breakpoints, logpoints).listen(opened);
  }

  SessionClient client() {
    SessionClient s = session;
    if (s == null) {
      throw RequestFailure.of("the session has ended");
    }
    return s;
  }

  Start start() {
    return start;
  }

  SourcePaths sources() {
    return sources;
  }

  Renderer renderer() {
    return renderer;
  }

  Console console() {
    return console;
  }

  RankThreads threads() {
    return threads;
  }

  GroupStacks stacks() {
    return stacks;
  }

  ClientBreakpoints breakpoints() {
    return breakpoints;
  }

  GroupVariables variables() {
    return variables;
  }

  SignalFilters signals() {
    return signals;
  }

  RankExecution execution() {
    return execution;
  }

  Evaluator evaluator() {
    return evaluator;
  }

  RanksView ranks() {
    return ranks;
  }

  StacksView parallelStacks() {
    return parallelStacks;
  }

  /** The replies of {@code ranks} to {@code body}; refused when the session has none to give. */
  List<RankReply> exchange(CommandBody body, RankSet ranks) {
    SessionClient session = client();
    try {
      return session
          .call(body, ranks, Duration.ZERO)
          .get(REPLY_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw RequestFailure.of("interrupted");
    } catch (Exception e) {
      throw RequestFailure.of(RequestFailure.message(e));
    }
  }

  /**
   * Ends the session, if it is still open: every rank it started and its debugger (attached
   * processes that were left running are no longer the session's).
   */
  @Override
  public synchronized void close() {
    logpoints.close();
    if (session != null) {
      session.close();
      session = null;
    }
  }
}
