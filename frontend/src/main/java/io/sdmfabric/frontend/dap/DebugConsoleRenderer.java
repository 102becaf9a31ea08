package io.sdmfabric.frontend.dap;

import io.sdmfabric.frontend.MpiWaitGraph;
import io.sdmfabric.frontend.ProcessTable;
import io.sdmfabric.frontend.Renderer;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.StackTree;
import java.util.function.Predicate;

/**
 * What the Debug Console shows: what the console would print, but for the events the adapter shows
 * its own way ({@code shownElsewhere}): the programs' output, which becomes output events of
 * category stdout, and the stops of logpoints, which become their messages.
 */
final class DebugConsoleRenderer implements Renderer {
  private final Renderer text;
  private final Predicate<RankReply> shownElsewhere;

  DebugConsoleRenderer(Renderer text, Predicate<RankReply> shownElsewhere) {
    this.text = text;
    this.shownElsewhere = shownElsewhere;
  }

  @Override
  public void reply(String command, String expression, RankReply reply) {
    text.reply(command, expression, reply);
  }

  @Override
  public void event(RankReply event) {
    if (!shownElsewhere.test(event)) {
      text.event(event);
    }
  }

  @Override
  public void stacks(StackTree tree) {
    text.stacks(tree);
  }

  @Override
  public void mpiWaits(MpiWaitGraph graph) {
    text.mpiWaits(graph);
  }

  @Override
  public void procs(ProcessTable.Listing listing, SessionClient.Started start) {
    text.procs(listing, start);
  }

  @Override
  public void session(RankSet ranks, SessionClient.Started start) {
    text.session(ranks, start);
  }

  @Override
  public void error(RankSet ranks, String message) {
    text.error(ranks, message);
  }

  @Override
  public void info(String message) {
    text.info(message);
  }

  @Override
  public void complete(String command) {
    text.complete(command);
  }
}
