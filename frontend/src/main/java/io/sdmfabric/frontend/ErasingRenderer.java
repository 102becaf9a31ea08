package io.sdmfabric.frontend;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StartProgress;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.StackTree;

/**
 * A renderer that erases a start's progress line before each thing it shows, so that the line is
 * never left in front of a reply or an event, and hands the progress it is given to the {@link
 * StartDisplay}.
 */
final class ErasingRenderer implements Renderer {
  private final Renderer renderer;
  private final StartDisplay display;

  ErasingRenderer(Renderer renderer, StartDisplay display) {
    this.renderer = renderer;
    this.display = display;
  }

  @Override
  public void reply(String command, String expression, RankReply reply) {
    display.erasing(() -> renderer.reply(command, expression, reply));
  }

  @Override
  public void event(RankReply event) {
    display.erasing(() -> renderer.event(event));
  }

  @Override
  public void stacks(StackTree tree) {
    display.erasing(() -> renderer.stacks(tree));
  }

  @Override
  public void mpiWaits(MpiWaitGraph graph) {
    display.erasing(() -> renderer.mpiWaits(graph));
  }

  @Override
  public void procs(ProcessTable.Listing listing, SessionClient.Started start) {
    display.erasing(() -> renderer.procs(listing, start));
  }

  @Override
  public void session(RankSet ranks, SessionClient.Started start) {
    display.erasing(() -> renderer.session(ranks, start));
  }

  @Override
  public void error(RankSet ranks, String message) {
    display.erasing(() -> renderer.error(ranks, message));
  }

  @Override
  public void info(String text) {
    display.erasing(() -> renderer.info(text));
  }

  @Override
  public void complete(String command) {
    display.erasing(() -> renderer.complete(command));
  }

  @Override
  public void progress(StartProgress progress) {
    display.accept(progress);
  }
}
