package io.sdmfabric.cli;

import io.sdmfabric.frontend.dap.DapPortServer;
import io.sdmfabric.frontend.dap.SdmDebugAdapter;
import io.sdmfabric.runtime.DapTokenFile;
import io.sdmfabric.runtime.PrivateDirectory;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sdm dap}: a debug adapter on standard input and output, for VS Code and other DAP clients;
 * or, with {@code --port}, for clients that connect over TCP. Each launch request starts its
 * session as {@code sdm debug} would, each attach request as {@code sdm attach} or {@code sdm
 * listen}.
 *
 * <p>The port is served by {@link DapPortServer}, which says whom it serves (processes of this user
 * that present the port's token, kept in a {@link DapTokenFile}); the sessions are opened by {@link
 * DapSessionOpener}.
 */
@Command(
    name = "dap",
    description =
        "Serve a DAP client (VS Code and others) on standard input and output, or on a loopback"
            + " port.",
    mixinStandardHelpOptions = true)
final class DapCommand implements Callable<Integer> {
  @Option(
      names = "--port",
      paramLabel = "PORT",
      description =
          "serve the clients that connect to this port of 127.0.0.1, each in a session of its own,"
              + " until stopped; only processes of this user that first present the token in"
              + " ~/.sdm/dap/PORT.token are served (0: any free port; the port and the file are"
              + " printed on standard error)")
  Integer port;

  private final InputStream in;
  private final PrintStream out;

  DapCommand(InputStream in, PrintStream out) {
    this.in = in;
    this.out = out;
  }

  @Override
  public Integer call() throws Exception {
    // Standard output carries the protocol alone: anything else printed goes to standard error.
    System.setOut(System.err);
    DapProtocolLog.install(System.err);
    if (port == null) {
      SdmDebugAdapter.serve(in, out, new DapSessionOpener());
      return 0;
    }
    return servePort();
  }

  /** Serves the clients of {@link #port} until the JVM ends. */
  private int servePort() throws IOException {
    DapPortServer server;
    try {
      server =
          DapPortServer.open(
              port,
              (listening, token) ->
                  DapTokenFile.write(PrivateDirectory.sdmHome(), listening, token),
              System.err);
    } catch (IOException e) {
      throw new UsageError("sdm dap", e.getMessage());
    }
    server.serve(new DapSessionOpener());
    return 0;
  }
}
