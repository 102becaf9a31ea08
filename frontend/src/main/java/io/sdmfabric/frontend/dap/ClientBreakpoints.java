package io.sdmfabric.frontend.dap;

import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.WatchKind;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.proto.CommandBody;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.eclipse.lsp4j.debug.Breakpoint;
import org.eclipse.lsp4j.debug.DataBreakpoint;
import org.eclipse.lsp4j.debug.DataBreakpointAccessType;
import org.eclipse.lsp4j.debug.DataBreakpointInfoResponse;
import org.eclipse.lsp4j.debug.FunctionBreakpoint;
import org.eclipse.lsp4j.debug.SetBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetBreakpointsResponse;
import org.eclipse.lsp4j.debug.SetDataBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetDataBreakpointsResponse;
import org.eclipse.lsp4j.debug.SetFunctionBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetFunctionBreakpointsResponse;
import org.eclipse.lsp4j.debug.Source;
import org.eclipse.lsp4j.debug.SourceBreakpoint;

/**
 * The breakpoints a DAP client sets, as the session's: source lines and functions with a condition,
 * a hit count ({@link HitCount}) and a log message ({@link LogMessage}: a logpoint), and data
 * breakpoints (gdb's watchpoints). The client always sends all the breakpoints of one kind (of one
 * source file) at once; those it sent before are deleted first. Each breakpoint comes back verified
 * when some rank set it, with the ranks where it failed and why in its message.
 */
final class ClientBreakpoints {
  private static final String FUNCTIONS = "\u0000functions";
  private static final String DATA = "\u0000data";

  private final BiFunction<CommandBody, RankSet, List<RankReply>> exchange;
  private final Function<String, Source> sources;
  private final Map<String, List<Integer>> idsByKind = new HashMap<>();
  private final Map<Integer, LogMessage> logpoints = new ConcurrentHashMap<>();

  /**
   * Breakpoints set through {@code exchange}, which sends a command to ranks for their replies; a
   * file as gdb names it is the client's {@code sources.apply(file)}.
   */
  ClientBreakpoints(
      BiFunction<CommandBody, RankSet, List<RankReply>> exchange,
      Function<String, Source> sources) {
    this.exchange = exchange;
    this.sources = sources;
  }

  /** The log message of the logpoint whose stop {@code event} is, if it is one. */
  Optional<LogMessage> logpoint(RankReply event) {
    return event.reply() instanceof Reply.Stopped s
        ? Optional.ofNullable(logpoints.get(s.breakpointId()))
        : Optional.empty();
  }

  /** Replaces the breakpoints of {@code args}' source on {@code ranks} with those it has. */
  SetBreakpointsResponse setSource(SetBreakpointsArguments args, RankSet ranks) {
    Source source = args.getSource();
    SourceBreakpoint[] wanted =
        args.getBreakpoints() == null ? new SourceBreakpoint[0] : args.getBreakpoints();
    String path = source.getPath();
    List<Breakpoint> shown = new ArrayList<>();
    List<Integer> ids = replace(path, ranks);
    for (SourceBreakpoint b : wanted) {
      Breakpoint result =
          insert(
              path + ":" + b.getLine(),
              b.getCondition(),
              b.getHitCondition(),
              b.getLogMessage(),
              ranks,
              ids);
      result.setSource(source);
      if (result.getLine() == null) {
        result.setLine(b.getLine());
      }
      shown.add(result);
    }
    SetBreakpointsResponse response = new SetBreakpointsResponse();
    response.setBreakpoints(shown.toArray(Breakpoint[]::new));
    return response;
  }

  /** Replaces the function breakpoints on {@code ranks} with those of {@code args}. */
  SetFunctionBreakpointsResponse setFunctions(SetFunctionBreakpointsArguments args, RankSet ranks) {
    List<Breakpoint> shown = new ArrayList<>();
    List<Integer> ids = replace(FUNCTIONS, ranks);
    for (FunctionBreakpoint b : args.getBreakpoints()) {
      shown.add(insert(b.getName(), b.getCondition(), b.getHitCondition(), null, ranks, ids));
    }
    SetFunctionBreakpointsResponse response = new SetFunctionBreakpointsResponse();
    response.setBreakpoints(shown.toArray(Breakpoint[]::new));
    return response;
  }

  /**
   * Replaces the data breakpoints on {@code ranks} with those of {@code args}, each watching the
   * expression its data id names, in the frame each rank has selected.
   */
  SetDataBreakpointsResponse setData(SetDataBreakpointsArguments args, RankSet ranks) {
    List<Breakpoint> shown = new ArrayList<>();
    List<Integer> ids = replace(DATA, ranks);
    for (DataBreakpoint b : args.getBreakpoints()) {
      WatchKind kind =
          b.getAccessType() == null
              ? WatchKind.WRITE
              : switch (b.getAccessType()) {
                case READ -> WatchKind.READ;
                case READ_WRITE -> WatchKind.ACCESS;
                case WRITE -> WatchKind.WRITE;
              };
      Breakpoint result = result(Commands.setWatchpoint(b.getDataId(), kind), ranks, ids);
      if (result.isVerified() && !empty(b.getCondition())) {
        result.setMessage(
            (result.getMessage() == null ? "" : result.getMessage() + "; ")
                + "the condition is ignored: gdb's watchpoints here take none");
      }
      shown.add(result);
    }
    SetDataBreakpointsResponse response = new SetDataBreakpointsResponse();
    response.setBreakpoints(shown.toArray(Breakpoint[]::new));
    return response;
  }

  /**
   * What a data breakpoint on {@code expression} would be: it watches the expression itself, for
   * any access type.
   */
  static DataBreakpointInfoResponse dataInfo(String expression) {
    DataBreakpointInfoResponse response = new DataBreakpointInfoResponse();
    response.setDataId(expression);
    response.setDescription(expression);
    response.setAccessTypes(
        new DataBreakpointAccessType[] {
          DataBreakpointAccessType.WRITE,
          DataBreakpointAccessType.READ,
          DataBreakpointAccessType.READ_WRITE
        });
    response.setCanPersist(false);
    return response;
  }

  /** Deletes the breakpoints of {@code kind} on {@code ranks}; a list for their successors. */
  private List<Integer> replace(String kind, RankSet ranks) {
    for (int id : idsByKind.getOrDefault(kind, List.of())) {
      exchange.apply(Commands.deleteBreakpoint(id), ranks);
      logpoints.remove(id);
    }
    List<Integer> ids = new ArrayList<>();
    idsByKind.put(kind, ids);
    return ids;
  }

  private Breakpoint insert(
      String location,
      String condition,
      String hitCondition,
      String logMessage,
      RankSet ranks,
      List<Integer> ids) {
    BreakpointSpec spec;
    LogMessage log = null;
    try {
      spec = BreakpointSpec.at(location);
      if (!empty(condition)) {
        spec = spec.withCondition(condition);
      }
      if (!empty(hitCondition)) {
        spec = spec.withIgnoreCount(HitCount.ignoreCount(hitCondition));
      }
      if (!empty(logMessage)) {
        log = LogMessage.parse(logMessage);
      }
    } catch (IllegalArgumentException e) {
      Breakpoint refused = new Breakpoint();
      refused.setVerified(false);
      refused.setMessage(e.getMessage());
      return refused;
    }
    Breakpoint result = result(Commands.setBreakpoint(spec), ranks, ids);
    if (log != null && result.getId() != null) {
      logpoints.put(result.getId(), log);
    }
    return result;
  }

  /** Sets one breakpoint on {@code ranks}: verified where some rank set it. */
  private Breakpoint result(CommandBody command, RankSet ranks, List<Integer> ids) {
    Breakpoint shown = new Breakpoint();
    shown.setVerified(false);
    RankSet failed = RankSet.empty();
    List<String> why = new ArrayList<>();
    for (RankReply r : exchange.apply(command, ranks)) {
      if (r.reply() instanceof Reply.NewBreakpoint n) {
        var b = n.breakpoint(); // the model's, not the DAP Breakpoint shown
        shown.setId(b.id());
        shown.setVerified(true);
        if (b.line() > 0) {
          shown.setLine(b.line());
          shown.setSource(sources.apply(b.file()));
        }
      } else {
        failed = failed.union(r.ranks());
        why.add(PerRankValues.text(r));
      }
    }
    if (shown.getId() != null) {
      ids.add(shown.getId());
    }
    if (!failed.isEmpty()) {
      shown.setMessage(
          (shown.isVerified() ? "not set on [" + failed + "]: " : "") + String.join("; ", why));
    }
    return shown;
  }

  private static boolean empty(String text) {
    return text == null || text.isBlank();
  }
}
