package io.sdmfabric.frontend.dap;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalAction;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.proto.CommandBody;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import org.eclipse.lsp4j.debug.Breakpoint;
import org.eclipse.lsp4j.debug.ExceptionBreakMode;
import org.eclipse.lsp4j.debug.ExceptionBreakpointsFilter;
import org.eclipse.lsp4j.debug.ExceptionInfoResponse;
import org.eclipse.lsp4j.debug.SetExceptionBreakpointsResponse;

/**
 * Signals as DAP's exceptions: the fatal signals are exception breakpoint filters the client turns
 * on or off (gdb's {@code handle SIG stop print} or {@code nostop noprint}, passed to the program
 * either way), and the signal each stopped rank received is its exception's id. Thread-safe.
 */
final class SignalFilters {
  /** The fatal signals a client may choose to stop at or not, as exception breakpoint filters. */
  static final List<String> FATAL_SIGNALS = List.of("SIGSEGV", "SIGABRT", "SIGFPE", "SIGBUS");

  private final Map<Integer, String> signalOfRank = new ConcurrentHashMap<>();
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

  /** {@code ranks} stopped by {@code signal} (none when it is empty). */
  void stopped(RankSet ranks, String signal) {
    if (!signal.isEmpty()) {
      ranks.forEach(rank -> signalOfRank.put(rank, signal));
    }
  }

  /** {@code ranks} go on: no signal holds them any more. */
  void resumed(RankSet ranks) {
    ranks.forEach(signalOfRank::remove);
  }

  /** The signals that stopped {@code group}'s ranks, and where; refused when none did. */
  ExceptionInfoResponse exceptionInfo(RankGroups.Group group) {
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
      throw RequestFailure.of("no signal stopped the ranks of [" + group.ranks() + "]");
    }
    List<String> parts = new ArrayList<>();
    ranksBySignal.forEach((signal, ranks) -> parts.add(signal + " on [" + ranks.build() + "]"));
    ExceptionInfoResponse response = new ExceptionInfoResponse();
    response.setExceptionId(String.join(", ", ranksBySignal.keySet()));
    response.setDescription(String.join(", ", parts) + " in " + group.what());
    response.setBreakMode(ExceptionBreakMode.ALWAYS);
    return response;
  }
}
