package io.sdmfabric.frontend.dap;

import io.sdmfabric.model.Frame;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.proto.CommandBody;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.eclipse.lsp4j.debug.OutputEventArguments;
import org.eclipse.lsp4j.debug.OutputEventArgumentsCategory;
import org.eclipse.lsp4j.debug.Source;

/**
 * The stops of logpoints, which the client never sees as stops: the ranks evaluate the message's
 * expressions, each line goes to the Debug Console with the logpoint's place, and the ranks go on.
 * This runs on a thread of its own, since it asks the ranks and the session's events must not wait
 * for their replies.
 */
final class Logpoints implements AutoCloseable {
  private final ExecutorService executor =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "sdm-dap-logpoints");
            t.setDaemon(true);
            return t;
          });
  private final BiFunction<CommandBody, RankSet, List<RankReply>> exchange;
  private final Function<String, Source> sources;
  private final RankExecution execution;
  private final DapOutput out;

  Logpoints(
      BiFunction<CommandBody, RankSet, List<RankReply>> exchange,
      Function<String, Source> sources,
      RankExecution execution,
      DapOutput out) {
    this.exchange = exchange;
    this.sources = sources;
    this.execution = execution;
    this.out = out;
  }

  /**
   * {@code ranks}, stopped {@code at} a logpoint, log its message {@code log} and go on, in a
   * while.
   */
  void log(RankSet ranks, Frame at, LogMessage log) {
    executor.execute(() -> logAndGoOn(ranks, at, log));
  }

  private void logAndGoOn(RankSet ranks, Frame at, LogMessage log) {
    try {
      Map<String, List<RankReply>> values = new HashMap<>();
      for (String expression : log.expressions()) {
        values.computeIfAbsent(expression, e -> exchange.apply(Commands.evaluate(e), ranks));
      }
      for (String line : log.lines(ranks, e -> PerRankValues.byRank(values.get(e)))) {
        OutputEventArguments e = new OutputEventArguments();
        e.setCategory(OutputEventArgumentsCategory.CONSOLE);
        e.setOutput(line + "\n");
        if (at.hasSource()) {
          e.setSource(sources.apply(at.file()));
          e.setLine(at.line());
        }
        out.output(e);
      }
      execution.resume(ranks, Commands.go());
    } catch (RuntimeException e) {
      out.console("[" + ranks + "] logpoint: " + RequestFailure.message(e) + "\n");
    }
  }

  /** Stops logging: what is still to log is dropped. */
  @Override
  public void close() {
    executor.shutdownNow();
  }
}
