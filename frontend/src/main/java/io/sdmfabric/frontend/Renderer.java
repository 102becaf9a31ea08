package io.sdmfabric.frontend;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StartProgress;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.StackTree;

/**
 * How the console shows what happens: as text for people ({@link TextRenderer}) or one JSON object
 * per line for tools ({@link JsonRenderer}, documented in docs/PROTOCOL.md). Implementations are
 * called from more than one thread and serialize their output.
 */
public interface Renderer {

  /** A merged reply to a command ({@code expression} is what it was about, if anything). */
  void reply(String command, String expression, RankReply reply);

  /** An unsolicited event: a stop, an exit, output. */
  void event(RankReply event);

  /** The merged stacks of {@code bt}. */
  void stacks(StackTree tree);

  /** Who waits for whom in MPI ({@code waits}, {@code sdm stacks}). */
  void mpiWaits(MpiWaitGraph graph);

  /** What {@code procs} shows, and how the session's ranks were started. */
  void procs(ProcessTable.Listing listing, SessionClient.Started start);

  /** How the session's {@code ranks} were started: the session's first line. */
  void session(RankSet ranks, SessionClient.Started start);

  /** An error of the console itself (bad input, a refused command); {@code ranks} may be empty. */
  void error(RankSet ranks, String message);

  /** A message for the user, such as help or a warning. */
  void info(String text);

  /** A command has finished on every rank it went to. */
  void complete(String command);

  /**
   * The session's start has come as far as {@code progress}. Nothing by default: a start's progress
   * is shown by a {@link StartDisplay} around the renderer, which measures its time.
   */
  default void progress(StartProgress progress) {}
}
