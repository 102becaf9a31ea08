package io.sdmfabric.frontend.dap;

import io.sdmfabric.frontend.ProcessTable;
import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.proto.CommandBody;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import org.eclipse.lsp4j.debug.StoppedEventArguments;

/**
 * What an editor's Ranks view shows of the session ({@code sdmRanks}, a request of sdm's own):
 * every rank in its group, as the Call Stack has the groups, each with its state and place, and the
 * nodes that serve them; and how a click on a group there focuses it in the Call Stack ({@code
 * sdmFocus}). Both read the console's process table, the session's model, so the view, the Call
 * Stack and {@code procs} never disagree.
 */
final class RanksView {
  private final RankThreads threads;
  private final ProcessTable table;
  private final BiFunction<CommandBody, RankSet, List<RankReply>> exchange;
  private final DapOutput out;

  RanksView(
      RankThreads threads,
      ProcessTable table,
      BiFunction<CommandBody, RankSet, List<RankReply>> exchange,
      DapOutput out) {
    this.threads = threads;
    this.table = table;
    this.exchange = exchange;
    this.out = out;
  }

  /**
   * The ranks as they are now: {@code size}; {@code groups}, each {@code threadId}, {@code ranks},
   * {@code state}, {@code what} (the Call Stack's name of the thread without its ranks) and, for
   * ranks a signal stopped, {@code signal}; and {@code nodes}, each {@code host}, {@code state},
   * {@code serverPid} and {@code ranks}. Live ranks whose node is not known yet are asked for it
   * first.
   */
  Map<String, Object> ranks() {
    RankSet unplaced = threads.live().minus(placed());
    if (!unplaced.isEmpty()) {
      table.locate(exchange.apply(Commands.processInfo(), unplaced));
    }
    List<Object> groups = new ArrayList<>();
    for (RankGroups.Group g : threads.regroup()) {
      Map<String, Object> group = new LinkedHashMap<>();
      group.put("threadId", g.id());
      group.put("ranks", g.ranks().toString());
      group.put("state", word(g.state()));
      group.put("what", g.what());
      ProcessTable.signalOf(g.what()).ifPresent(signal -> group.put("signal", signal));
      groups.add(group);
    }
    List<Object> nodes = new ArrayList<>();
    for (ProcessTable.Node n : table.nodes()) {
      Map<String, Object> node = new LinkedHashMap<>();
      node.put("host", n.host());
      node.put("state", n.state().name().toLowerCase(Locale.ROOT));
      node.put("serverPid", n.serverPid());
      node.put("ranks", n.ranks().toString());
      nodes.add(node);
    }
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("size", threads.all().size());
    view.put("groups", groups);
    view.put("nodes", nodes);
    return view;
  }

  /**
   * Focuses thread {@code threadId}'s group in the client's Call Stack: its ranks are reported
   * stopped again, where they are, without taking the focus from the client's choice away
   * otherwise. Refused for a group that is not stopped, which has no stack to show.
   */
  void focus(int threadId) {
    RankGroups.Group group = threads.group(threadId);
    if (group.state() != ProcessState.STOPPED) {
      throw RequestFailure.of(
          "ranks [" + group.ranks() + "] are " + word(group.state()) + ": no stack to show");
    }
    StoppedEventArguments stopped = new StoppedEventArguments();
    stopped.setThreadId(threadId);
    stopped.setReason("focus");
    stopped.setDescription("ranks [" + group.ranks() + "]");
    stopped.setPreserveFocusHint(false);
    stopped.setAllThreadsStopped(false);
    out.stopped(stopped);
  }

  private RankSet placed() {
    RankSet.Builder placed = RankSet.builder();
    table.nodes().forEach(n -> placed.addAll(n.ranks()));
    return placed.build();
  }

  private static String word(ProcessState state) {
    return state.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
