package io.sdmfabric.frontend.dap;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.SessionClient;
import java.util.List;
import java.util.Optional;
import org.eclipse.lsp4j.debug.StoppedEventArguments;
import org.eclipse.lsp4j.debug.StoppedEventArgumentsReason;

/**
 * The session's events as DAP events, each fabric event one DAP event: the programs' output an
 * output event of category stdout, a stop a stopped event of the thread that holds its ranks (a
 * logpoint's stop its message instead, {@link Logpoints}), a regrouping thread events, and the end
 * of the last rank the terminated event. It hears the events after the console's process table has
 * them, on the session's thread, one at a time.
 */
final class EventMapper {
  private final DapOutput out;
  private final RankThreads threads;
  private final FrameSelection frames;
  private final ClientBreakpoints breakpoints;
  private final Logpoints logpoints;
  private boolean ended;

  EventMapper(
      DapOutput out,
      RankThreads threads,
      FrameSelection frames,
      ClientBreakpoints breakpoints,
      Logpoints logpoints) {
    this.out = out;
    this.threads = threads;
    this.frames = frames;
    this.breakpoints = breakpoints;
    this.logpoints = logpoints;
  }

  /** Maps {@code session}'s events from now on (the adapter's one subscription to them). */
  void listen(SessionClient session) {
    session.subscribe(this::map);
  }

  /** Maps one of the session's events. */
  void map(RankReply event) {
    Reply reply = event.reply();
    if (reply instanceof Reply.Output o) {
      programOutput(event.ranks(), o.text());
      return;
    }
    Optional<LogMessage> log = breakpoints.logpoint(event);
    if (log.isPresent() && reply instanceof Reply.Stopped s) {
      // Not a stop the client sees: the ranks log their message and go on.
      logpoints.log(event.ranks(), s.frame(), log.get());
      return;
    }
    List<RankGroups.Group> now = threads.regroup();
    if (reply instanceof Reply.Stopped s) {
      stopped(event.ranks(), s);
    }
    if (!ended && RankThreads.ended(now)) {
      // Every rank has ended (exited, detached, lost or in error): the session is over. No exited
      // event: the ranks' exit codes need not agree, and the threads' names give each.
      ended = true;
      out.terminated();
    }
  }

  private void stopped(RankSet ranks, Reply.Stopped suspended) {
    frames.stopped(ranks);
    StoppedEventArguments stopped = new StoppedEventArguments();
    stopped.setReason(reason(suspended.reason()));
    // The ranks, where a client shows one thread's frames without its name (VS Code does).
    stopped.setDescription(
        (suspended.signal().isEmpty() ? stopped.getReason() : suspended.signal())
            + " on ["
            + ranks
            + "]");
    threads.holding(ranks.first()).ifPresent(g -> stopped.setThreadId(g.id()));
    stopped.setAllThreadsStopped(false);
    out.stopped(stopped);
  }

  /** The programs' output, each line with the ranks that wrote it, as the console shows it. */
  private void programOutput(RankSet ranks, String text) {
    StringBuilder lines = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      if (!line.isEmpty()) {
        lines.append('[').append(ranks).append("] ").append(line).append('\n');
      }
    }
    if (lines.length() > 0) {
      out.stdout(lines.toString());
    }
  }

  static String reason(StopReason reason) {
    return switch (reason) {
      case BREAKPOINT_HIT -> StoppedEventArgumentsReason.BREAKPOINT;
      case WATCHPOINT_TRIGGER, READ_WATCHPOINT_TRIGGER, ACCESS_WATCHPOINT_TRIGGER ->
          StoppedEventArgumentsReason.DATA_BREAKPOINT;
      case END_STEPPING_RANGE, FUNCTION_FINISHED -> StoppedEventArgumentsReason.STEP;
      case SIGNAL_RECEIVED -> StoppedEventArgumentsReason.EXCEPTION;
      case INTERRUPTED -> StoppedEventArgumentsReason.PAUSE;
      default -> StoppedEventArgumentsReason.ENTRY;
    };
  }
}
