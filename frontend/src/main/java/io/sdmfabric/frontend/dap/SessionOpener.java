package io.sdmfabric.frontend.dap;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.SessionClient;
import java.io.PrintStream;
import java.util.List;

/**
 * Opens the sessions DAP requests ask for: the command line's side of the adapter, which knows how
 * to start ranks (in this JVM, or through mpirun or srun), attach to running ones, and accept
 * reverse connect requests. What it has to say on the way goes to {@code log}; each method throws
 * an exception with a message for the user when the session cannot be opened.
 */
public interface SessionOpener {
  /** A session of {@code config.ranks()} ranks of {@code config.program()}, not yet loaded. */
  SessionClient launch(LaunchConfig config, PrintStream log) throws Exception;

  /**
   * A session attached to the running processes {@code config} names ({@code targets} or a step).
   */
  Attached attach(AttachConfig config, PrintStream log) throws Exception;

  /** The session of the first reverse connect request to arrive within {@code config}'s time. */
  Connected listen(AttachConfig config, PrintStream log) throws Exception;

  /**
   * A session of running processes: {@code attached} are stopped where they were, the others of the
   * job answer {@code notAttached}.
   */
  record Attached(SessionClient session, RankSet attached, String notAttached) {}

  /** A session a batch job connected back with: its program and arguments, still to load. */
  record Connected(SessionClient session, String program, List<String> args) {}
}
