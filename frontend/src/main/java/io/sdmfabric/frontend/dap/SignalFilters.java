package io.sdmfabric.frontend.dap;

import io.sdmfabric.frontend.ProcessTable;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalAction;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.proto.CommandBody;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import org.eclipse.lsp4j.debug.Breakpoint;
import org.eclipse.lsp4j.debug.ExceptionBreakMode;
import org.eclipse.lsp4j.debug.ExceptionBreakpointsFilter;
import org.eclipse.lsp4j.debug.ExceptionInfoResponse;
import org.eclipse.lsp4j.debug.SetExceptionBreakpointsResponse;

/**
 * Signals as DAP's exceptions: the fatal signals are exception breakpoint filters the client turns
 * on or off (gdb's {@code handle SIG stop print} or {@code nostop noprint}, passed to the program
 * either way), and the signal each stopped rank received (its place in the process table says it)
 * is its exception's id. Thread-safe.
 */
final class SignalFilters {
  /** The fatal signals a client may choose to stop at or not, as exception breakpoint filters. */
  static final List<String> FATAL_SIGNALS = List.of("SIGSEGV", "SIGABRT", "SIGFPE", "SIGBUS");

  private final BiFunction<CommandBody, RankSet, List<RankReply>> exchange;

  /** Filters whose choices go to ranks through {@code exchange}. */
  SignalFilters(BiFunction<CommandBody, RankSet, List<RankReply>> exchange) {
    this.exchange = exchange;
  }

  /** The filters a client may offer, each on by default. */
  static ExceptionBreakpointsFilter[] filters() {
    return FATAL_SIGNALS.stream()
        .map(
            signal -> {
              ExceptionBreakpointsFilter f = new ExceptionBreakpointsFilter();
              f.setFilter(signal);
              f.setLabel(signal);
              f.setDescription("Stop the ranks that receive " + signal);
              f.setDefault_(true);
              return f;
            })
        .toArray(ExceptionBreakpointsFilter[]::new);
  }

  /**
   * The fatal signals of {@code filters} stop the {@code live} ranks that receive them; the others
   * pass to the program, which they end.
   */
  SetExceptionBreakpointsResponse choose(String[] filters, RankSet live) {
    Set<String> chosen = Set.of(filters == null ? new String[0] : filters);
    for (String signal : FATAL_SIGNALS) {
      Set<SignalAction> actions =
          chosen.contains(signal)
              ? EnumSet.of(SignalAction.STOP, SignalAction.PRINT, SignalAction.PASS)
              : EnumSet.of(SignalAction.NOSTOP, SignalAction.NOPRINT, SignalAction.PASS);
      if (!live.isEmpty()) {
        exchange.apply(Commands.handleSignal(signal, actions), live);
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
    return response;
  }

  /**
   * The signal that stopped {@code group}'s ranks, and where; refused when none did. A group's
   * ranks share their place, which names the signal ({@link ProcessTable#stopPlace}).
   */
  ExceptionInfoResponse exceptionInfo(RankGroups.Group group) {
    String signal =
        ProcessTable.signalOf(group.what())
            .orElseThrow(
                () -> RequestFailure.of("no signal stopped the ranks of [" + group.ranks() + "]"));
    ExceptionInfoResponse response = new ExceptionInfoResponse();
    response.setExceptionId(signal);
    response.setDescription(
        signal + " on [" + group.ranks() + "] in " + ProcessTable.whereStopped(group.what()));
    response.setBreakMode(ExceptionBreakMode.ALWAYS);
    return response;
  }
}
