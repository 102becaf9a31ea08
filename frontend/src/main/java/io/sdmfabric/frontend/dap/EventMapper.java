package io.sdmfabric.frontend.dap;

import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.StopReasonProto;
import io.sdmfabric.wire.proto.SuspendedEvent;
import java.nio.charset.StandardCharsets;
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
  private final SignalFilters signals;
  private final ClientBreakpoints breakpoints;
  private final Logpoints logpoints;
  private boolean ended;

  EventMapper(
      DapOutput out,
      RankThreads threads,
      FrameSelection frames,
      SignalFilters signals,
      ClientBreakpoints breakpoints,
      Logpoints logpoints) {
    this.out = out;
    this.threads = threads;
    this.frames = frames;
    this.signals = signals;
    this.breakpoints = breakpoints;
    this.logpoints = logpoints;
  }

  /** Maps {@code session}'s events from now on (the adapter's one subscription to them). */
  void listen(SessionClient session) {
    session.subscribe(this::map);
  }

  /** Maps one of the session's events. */
  void map(RankReply event) {
    EventBody body = event.body();
    if (body.hasOutput()) {
      programOutput(event);
      return;
    }
    Optional<LogMessage> log = breakpoints.logpoint(event);
    if (log.isPresent()) {
      // Not a stop the client sees: the ranks log their message and go on.
      logpoints.log(event, log.get());
      return;
    }
    List<RankGroups.Group> now = threads.regroup();
    if (body.hasSuspended()) {
      stopped(event, body.getSuspended());
    }
    if (!ended && RankThreads.ended(now)) {
      // Every rank has ended (exited, detached, lost or in error): the session is over. No exited
      // event: the ranks' exit codes need not agree, and the threads' names give each.
      ended = true;
      out.terminated();
    }
  }

  private void stopped(RankReply event, SuspendedEvent suspended) {
    frames.stopped(event.ranks());
    signals.stopped(event.ranks(), suspended.getSignal());
    StoppedEventArguments stopped = new StoppedEventArguments();
    stopped.setReason(reason(suspended.getReason()));
    // The ranks, where a client shows one thread's frames without its name (VS Code does).
    stopped.setDescription(
        (suspended.getSignal().isEmpty() ? stopped.getReason() : suspended.getSignal())
            + " on ["
            + event.ranks()
            + "]");
    threads.holding(event.ranks().first()).ifPresent(g -> stopped.setThreadId(g.id()));
    stopped.setAllThreadsStopped(false);
    out.stopped(stopped);
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
      out.stdout(lines.toString());
    }
  }

  static String reason(StopReasonProto reason) {
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
}
