package io.sdmfabric.frontend;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StartProgress;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.StackTree;

/**
 * A renderer that hands the progress it is given ({@link ProgramLoad}'s) to a {@link StartDisplay}
 * and everything else to the renderer it wraps (whose output the display's stream keeps clear of
 * the progress line).
 */
final class ProgressRenderer implements Renderer {
  private final Renderer renderer;
  private final StartDisplay display;

  ProgressRenderer(Renderer renderer, StartDisplay display) {
    this.renderer = renderer;
    this.display = display;
  }

  @Override
  public void reply(String command, String expression, RankReply reply) {
    renderer.reply(command, expression, reply);
  }

  @Override
  public void event(RankReply event) {
    renderer.event(event);
  }

  @Override
  public void stacks(StackTree tree) {
    renderer.stacks(tree);
  }

  @Override
  public void mpiWaits(MpiWaitGraph graph) {
    renderer.mpiWaits(graph);
  }

  @Override
  public void procs(ProcessTable.Listing listing, SessionClient.Started start) {
    renderer.procs(listing, start);
  }

  @Override
  public void session(RankSet ranks, SessionClient.Started start) {
    renderer.session(ranks, start);
  }

  @Override
  public void error(RankSet ranks, String message) {
    renderer.error(ranks, message);
  }

  @Override
  public void info(String text) {
    renderer.info(text);
  }

  @Override
  public void complete(String command) {
    renderer.complete(command);
  }

  @Override
  public void progress(StartProgress progress) {
    display.accept(progress);
  }
}
