package io.sdmfabric.frontend;

import io.sdmfabric.frontend.ConsoleCommand.Simple;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.Failures;
import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.model.WatchKind;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.StackTree;
import io.sdmfabric.wire.proto.CommandBody;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiPredicate;

/**
 * The console: runs console lines against a session and shows the results. The same object serves
 * the terminal, scripts ({@code -x}) and tests. Bad input and refused commands are reported and the
 * session goes on; only {@code quit} ends it.
 */
public final class Console {
  /** How long a command waits for all its replies before the console gives up on it. */
  public static final Duration REPLY_LIMIT = Duration.ofSeconds(60);

  private final SessionClient session;
  private final Renderer renderer;
  private final ProcessTable table;
  private RankSet focus;
  private int frameLevel;

  /** A console on {@code session}, showing everything through {@code renderer}. */
  public Console(SessionClient session, Renderer renderer) {
    this.session = session;
    this.renderer = renderer;
    this.table = new ProcessTable(session.size());
    this.focus = RankSet.all(session.size());
    session.subscribe(this::onEvent);
  }

  /** The ranks commands go to without a prefix. */
  public RankSet focus() {
    return focus;
  }

  /** What the console knows of each rank's state. */
  public ProcessTable table() {
    return table;
  }

  /**
   * Runs one line.
   *
   * @return false after {@code quit}, true otherwise (errors included)
   */
  public boolean execute(String line) {
    Optional<ParsedLine> parsed;
    try {
      parsed = ConsoleParser.parse(line);
    } catch (ConsoleSyntaxException e) {
      renderer.error(RankSet.empty(), e.getMessage());
      return true;
    }
    if (parsed.isEmpty()) {
      return true;
    }
    RankSet ranks = parsed.get().ranksOr(focus);
    Optional<String> outOfRange = ranks.outOfRange(session.size());
    if (outOfRange.isPresent()) {
      renderer.error(ranks, outOfRange.get());
      return true;
    }
    try {
      return run(parsed.get().command(), ranks, line.strip());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Sets the ranks that commands without a prefix go to, as {@code focus SET} does. A set that
   * reaches beyond the job is shown as an error, and the focus becomes every rank.
   */
  public void focus(RankSet ranks) {
    Objects.requireNonNull(ranks, "ranks");
    Optional<String> outOfRange = ranks.outOfRange(session.size());
    if (outOfRange.isPresent()) {
      renderer.error(ranks, outOfRange.get());
      focus = RankSet.all(session.size());
    } else {
      focus = ranks;
    }
  }

  /**
   * Detaches from the processes of {@code ranks}, as {@code [SET] detach} does: shows the replies
   * and marks the ranks that detached as detached for good. A set that reaches beyond the job is
   * shown as an error, and nothing is sent.
   */
  public void detach(RankSet ranks) throws InterruptedException {
    Objects.requireNonNull(ranks, "ranks");
    Optional<String> outOfRange = ranks.outOfRange(session.size());
    if (outOfRange.isPresent()) {
      renderer.error(ranks, outOfRange.get());
    } else {
      detach("detach", ranks);
    }
  }

  private boolean run(ConsoleCommand command, RankSet ranks, String line)
      throws InterruptedException {
    String word = commandWord(line);
    if (command instanceof Simple simple) {
      return runSimple(simple, word, ranks);
    }
    if (command instanceof ConsoleCommand.Focus f) {
      focus(f.all() ? RankSet.all(session.size()) : f.ranks());
    } else if (command instanceof ConsoleCommand.Wait w) {
      await(ranks, w.timeout());
    } else if (command instanceof ConsoleCommand.SelectFrame s) {
      selectFrame(word, ranks, s.level());
    } else if (command instanceof ConsoleCommand.MoveFrame m) {
      selectFrame(word, ranks, Math.max(0, frameLevel + m.delta()));
    } else {
      call(word, argument(command), ranks, body(command));
    }
    return true;
  }

  /**
   * The word the user typed for the command, e.g. {@code p} of {@code [0-3] p x}: a command's
   * completion is shown under it.
   */
  private static String commandWord(String line) {
    String command = line.startsWith("[") ? line.substring(line.indexOf(']') + 1).strip() : line;
    return command.split("\\s+", 2)[0];
  }

  private boolean runSimple(Simple simple, String word, RankSet ranks) throws InterruptedException {
    switch (simple) {
      case QUIT -> {
        return false;
      }
      case HELP -> renderer.info(ConsoleParser.help());
      case PROCS, PROCS_EACH -> {
        renderer.procs(listing(ranks, simple == Simple.PROCS_EACH), session.started());
        renderer.complete(word);
      }
      case DETACH -> detach(word, ranks);
      case BACKTRACE -> backtrace(word, ranks);
      case BACKTRACE_ALL -> backtraceAll(word, ranks);
      case WAITS -> mpiWaits(word, ranks);
      // After kill too the ranks count as running until they report their exit, so that wait
      // waits for it.
      case RUN, CONTINUE, STEP, NEXT, FINISH, KILL -> resume(word, ranks, body(simple));
      case INTERRUPT, LOCALS, ARGS, INFO_BREAKPOINTS, INFO_THREADS, INFO_SIGNALS ->
          call(word, "", ranks, body(simple));
    }
    return true;
  }

  /** The command a simple command sends, for those that send one and show its replies. */
  private static CommandBody body(Simple simple) {
    return switch (simple) {
      case RUN -> Commands.run();
      case CONTINUE -> Commands.go();
      case STEP -> Commands.step(StepKind.INTO);
      case NEXT -> Commands.step(StepKind.OVER);
      case FINISH -> Commands.step(StepKind.RETURN);
      case KILL -> Commands.terminate();
      case INTERRUPT -> Commands.suspend();
      case LOCALS -> Commands.listLocals();
      case ARGS -> Commands.listArgs();
      case INFO_BREAKPOINTS -> Commands.listBreakpoints();
      case INFO_THREADS -> Commands.listThreads();
      case INFO_SIGNALS -> Commands.listSignals();
      case DETACH, BACKTRACE, BACKTRACE_ALL, WAITS, PROCS, PROCS_EACH, HELP, QUIT ->
          throw new IllegalStateException(simple + " is run by the console itself");
    };
  }

  private static CommandBody body(ConsoleCommand command) {
    if (command instanceof ConsoleCommand.Break br) {
      BreakpointSpec spec = BreakpointSpec.at(br.location()).withCondition(br.condition());
      return Commands.setBreakpoint(br.temporary() ? spec.asTemporary() : spec);
    } else if (command instanceof ConsoleCommand.BreakpointChange c) {
      return switch (c.change()) {
        case DELETE -> Commands.deleteBreakpoint(c.id());
        case ENABLE -> Commands.enableBreakpoint(c.id());
        case DISABLE -> Commands.disableBreakpoint(c.id());
      };
    } else if (command instanceof ConsoleCommand.Watch w) {
      return Commands.setWatchpoint(w.expression(), WatchKind.WRITE);
    } else if (command instanceof ConsoleCommand.Print p) {
      return Commands.withValueClasses(Commands.evaluate(p.expression()), p.valueClasses());
    } else if (command instanceof ConsoleCommand.Ptype p) {
      // MI has no command that spells a type out as ptype does.
      return Commands.cli("ptype " + p.expression());
    } else if (command instanceof ConsoleCommand.Whatis w) {
      return Commands.getType(w.expression());
    } else if (command instanceof ConsoleCommand.Examine x) {
      return Commands.readMemory(x.address(), x.count());
    } else if (command instanceof ConsoleCommand.SelectThread t) {
      return Commands.selectThread(t.id());
    } else if (command instanceof ConsoleCommand.Handle h) {
      return Commands.handleSignal(h.signal(), h.actions());
    } else if (command instanceof ConsoleCommand.Raw r) {
      return Commands.cli(r.command());
    } else if (command instanceof ConsoleCommand.Input i) {
      return Commands.inputLine(i.text());
    }
    throw new IllegalStateException("no command body for " + command);
  }

  /** Selects a frame; the console's level moves only when every rank could select it. */
  private void selectFrame(String word, RankSet ranks, int level) throws InterruptedException {
    List<RankReply> replies = call(word, "", ranks, Commands.selectFrame(level));
    if (!replies.isEmpty() && replies.stream().noneMatch(r -> r.reply() instanceof Reply.Failure)) {
      frameLevel = level;
    }
  }

  private static String argument(ConsoleCommand command) {
    if (command instanceof ConsoleCommand.Print p) {
      return p.expression();
    } else if (command instanceof ConsoleCommand.Examine x) {
      return x.address();
    }
    return "";
  }

  /** Runs a command that resumes ranks: they count as running from now until they report. */
  private void resume(String word, RankSet ranks, CommandBody body) throws InterruptedException {
    ProcessTable before = table.snapshot();
    table.markRunning(ranks);
    List<RankReply> replies = call(word, "", ranks, body);
    for (RankReply r : replies) {
      if (r.reply() instanceof Reply.Failure) {
        table.resumeFailed(r.ranks(), before);
      }
    }
  }

  /** Detaches from the ranks' processes; those that did are detached for good. */
  private void detach(String word, RankSet ranks) throws InterruptedException {
    for (RankReply r : call(word, "", ranks, Commands.detach())) {
      if (r.reply() instanceof Reply.Detached) {
        table.put(r.ranks(), ProcessState.DETACHED, "");
      }
    }
  }

  /**
   * Asks every rank of {@code ranks} where it is and records it as stopped there, without showing
   * anything: for processes the session attached to, which the attach stopped without an event. A
   * rank that answers with an error (its debugger could not attach), or with frames its peer sent
   * malformed, is recorded in error, with why.
   */
  public void recordStops(RankSet ranks) throws InterruptedException {
    for (RankReply r : exchange(ranks, Commands.listFrames())) {
      Reply reply = r.reply();
      if (reply instanceof Reply.Frames f && !f.frames().isEmpty()) {
        table.put(r.ranks(), ProcessState.STOPPED, f.frames().get(0).describe());
      } else if (reply instanceof Reply.Lost) {
        table.apply(r);
      } else if (reply instanceof Reply.Failure f) {
        // An error, or frames a peer sent malformed: where the rank is, sdm cannot say.
        table.put(r.ranks(), ProcessState.ERROR, f.message());
      }
    }
  }

  /** Waits for ranks to stop or end: {@code wait}. */
  public void await(RankSet ranks, Duration timeout) throws InterruptedException {
    RankSet running = table.awaitNotRunning(ranks, timeout.toMillis());
    if (!running.isEmpty()) {
      renderer.error(running, "still running after " + timeout.toMillis() / 1000.0 + " s");
    }
    renderer.complete("wait");
  }

  /**
   * What {@code procs} shows, with what the ranks tell now: where the live ones run ({@code
   * process_info}) and how many threads the stopped ones have.
   */
  private ProcessTable.Listing listing(RankSet ranks, boolean each) throws InterruptedException {
    RankSet live = RankSet.empty();
    for (ProcessState state : ProcessState.values()) {
      if (state.live()) {
        live = live.union(table.ranksIn(state, ranks));
      }
    }
    if (!live.isEmpty()) {
      table.locate(exchange(live, Commands.processInfo()));
    }
    RankSet stopped = table.ranksIn(ProcessState.STOPPED, ranks);
    if (!stopped.isEmpty()) {
      table.countThreads(exchange(stopped, Commands.listThreads()));
    }
    return table.listing(ranks, each);
  }

  /** {@code bt all}: every thread's stack, merged, with how many threads each frame has. */
  private void backtraceAll(String word, RankSet ranks) throws InterruptedException {
    showStacks(
        word,
        exchange(ranks, Commands.listAllStacks()),
        (tree, r) -> {
          if (!(r.reply() instanceof Reply.ThreadStacks t)) {
            return false;
          }
          tree.addThreads(t.stacks(), r.ranks());
          return true;
        });
  }

  /**
   * {@code waits}: who waits for whom in MPI among the stopped ranks, with where the ranks they
   * wait for are; the ranks that are not stopped are not asked.
   */
  private void mpiWaits(String word, RankSet ranks) throws InterruptedException {
    RankSet stopped = table.ranksIn(ProcessState.STOPPED, ranks);
    if (stopped.isEmpty()) {
      renderer.error(
          ranks,
          "no rank of ["
              + ranks
              + "] is stopped: waits reads what stopped ranks wait for"
              + " (interrupt running ones first)");
      renderer.complete(word);
      return;
    }
    List<RankReply> replies = exchange(stopped, Commands.mpiWait());
    replies.stream()
        .filter(r -> !(r.reply() instanceof Reply.WaitsInMpi))
        .forEach(r -> renderer.reply(word, "", r));
    renderer.mpiWaits(new MpiWaitGraph(replies, table.rows(RankSet.all(session.size()))));
    renderer.complete(word);
  }

  /** {@code bt}: the selected thread's stack, merged. */
  private void backtrace(String word, RankSet ranks) throws InterruptedException {
    showStacks(
        word,
        exchange(ranks, Commands.listFrames()),
        (tree, r) -> {
          if (!(r.reply() instanceof Reply.Frames f) || f.frames().isEmpty()) {
            return false;
          }
          tree.add(f.frames(), r.ranks());
          return true;
        });
  }

  /**
   * Shows the stacks {@code addStacks} puts in one merged tree, and as they are the replies it does
   * not take (errors, ranks without a stack).
   */
  private void showStacks(
      String word, List<RankReply> replies, BiPredicate<StackTree.Builder, RankReply> addStacks) {
    StackTree.Builder tree = StackTree.builder();
    for (RankReply r : replies) {
      if (!addStacks.test(tree, r)) {
        renderer.reply(word, "", r);
      }
    }
    StackTree merged = tree.build();
    if (!merged.isEmpty()) {
      renderer.stacks(merged);
    }
    renderer.complete(word);
  }

  private List<RankReply> call(String word, String argument, RankSet ranks, CommandBody body)
      throws InterruptedException {
    List<RankReply> replies = exchange(ranks, body);
    for (RankReply r : replies) {
      renderer.reply(word, argument, r);
    }
    renderer.complete(word);
    return replies;
  }

  private List<RankReply> exchange(RankSet ranks, CommandBody body) throws InterruptedException {
    try {
      return session
          .call(body, ranks, Duration.ZERO)
          .get(REPLY_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      renderer.error(ranks, Failures.message(e));
    } catch (TimeoutException e) {
      renderer.error(ranks, "no reply from every rank within " + REPLY_LIMIT.toSeconds() + " s");
    }
    return List.of();
  }

  /** Shows an event, then records it: whoever waits for it sees it shown first. */
  private void onEvent(RankReply event) {
    renderer.event(event);
    table.apply(event);
  }
}
