package io.sdmfabric.frontend.dap;

import io.sdmfabric.wire.SessionClient;
import java.io.PrintStream;

/**
 * Opens the session a DAP {@code launch} asks for: the command line's side of the adapter, which
 * knows how to start ranks (in this JVM, or through mpirun or srun).
 */
@FunctionalInterface
public interface SessionOpener {
  /**
   * A session of {@code config.ranks()} ranks of {@code config.program()}, its program not yet
   * loaded; what the launcher says goes to {@code log}.
   *
   * @throws Exception with a message for the user when the session cannot be opened
   */
  SessionClient open(LaunchConfig config, PrintStream log) throws Exception;
}
