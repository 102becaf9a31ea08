package io.sdmfabric.cli;

import io.sdmfabric.connect.ConnectDirectory;
import io.sdmfabric.connect.FrontEndListener;
import io.sdmfabric.connect.ListenConsole;
import io.sdmfabric.connect.RequestAcceptance;
import io.sdmfabric.frontend.RemoteSession;
import io.sdmfabric.frontend.dap.AttachConfig;
import io.sdmfabric.frontend.dap.LaunchConfig;
import io.sdmfabric.frontend.dap.SdmDebugAdapter;
import io.sdmfabric.frontend.dap.SessionOpener;
import io.sdmfabric.master.Rendezvous;
import io.sdmfabric.runtime.AttachedSession;
import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.runtime.Programs;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.HostPort;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.proto.Welcome;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sdm dap}: a debug adapter on standard input and output, for VS Code and other DAP clients;
 * or, with {@code --port}, for clients that connect over TCP. Each launch request starts its
 * session as {@code sdm debug} would, each attach request as {@code sdm attach} or {@code sdm
 * listen}.
 *
 * <p>DAP has no authentication, and a session runs programs as its user: the port is on the
 * loopback address only, and a connection is served only when the process that made it belongs to
 * this Unix user ({@link LoopbackPeers}); any other is closed at once, with a warning.
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
              + " until stopped; only processes of this user are served (0: any free port; the"
              + " port is printed on standard error)")
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
      SdmDebugAdapter.serve(in, out, new Opener());
      return 0;
    }
    return servePort(System.err);
  }

  /** Serves the clients of {@link #port}, each on a thread of its own, until the JVM ends. */
  private int servePort(PrintStream err) throws Exception {
    ServerSocket server;
    try {
      server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      err.println("sdm dap: cannot listen on port " + port + " of 127.0.0.1: " + e.getMessage());
      return 2;
    }
    Set<Socket> clients = ConcurrentHashMap.newKeySet();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  // The clients' streams end: each adapter ends its session.
                  closeQuietly(server);
                  clients.forEach(DapCommand::closeQuietly);
                  long deadline = System.nanoTime() + 10_000_000_000L;
                  try {
                    while (!clients.isEmpty() && System.nanoTime() < deadline) {
                      Thread.sleep(50);
                    }
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                },
                "dap-port-end"));
    err.println(
        "sdm dap: listening on "
            + server.getInetAddress().getHostAddress()
            + ":"
            + server.getLocalPort());
    int own = LoopbackPeers.ownUid();
    while (!server.isClosed()) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        break; // closed
      }
      OptionalInt uid;
      try {
        uid = LoopbackPeers.uidOf(client);
      } catch (IOException e) {
        uid = OptionalInt.empty();
      }
      if (uid.isEmpty() || uid.getAsInt() != own) {
        err.println(
            "sdm dap: refused a connection from "
                + client.getInetAddress().getHostAddress()
                + ":"
                + client.getPort()
                + (uid.isPresent()
                    ? ": it belongs to user " + uid.getAsInt() + ", not to " + own
                    : ": its user could not be told"));
        closeQuietly(client);
        continue;
      }
      clients.add(client);
      Thread serving =
          new Thread(
              () -> {
                try {
                  SdmDebugAdapter.serve(
                      client.getInputStream(), client.getOutputStream(), new Opener());
                } catch (Exception e) {
                  err.println("sdm dap: a client's connection ended: " + e.getMessage());
                } finally {
                  closeQuietly(client);
                  clients.remove(client);
                }
              },
              "dap-client-" + client.getPort());
      serving.start();
    }
    return 0;
  }

  private static void closeQuietly(java.io.Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // Closing: nothing left to do about it.
    }
  }

  /** Sessions as {@code sdm debug}, {@code sdm attach} and {@code sdm listen} open them. */
  private static final class Opener implements SessionOpener {
    @Override
    public SessionClient launch(LaunchConfig config, PrintStream log) throws Exception {
      LaunchOptions launch = new LaunchOptions();
      if (!config.launcher().equals("none")) {
        launch.launcher = config.launcher();
        launch.launcherOptions = new ArrayList<>(config.launcherArgs());
        if (!config.launcherFamily().isEmpty()) {
          launch.launcherFamily = config.launcherFamily();
        }
      }
      return launch.open(
          config.ranks(),
          Programs.resolve(config.program()),
          config.args(),
          FabricConfig.defaults(),
          log);
    }

    @Override
    public Attached attach(AttachConfig config, PrintStream log) throws Exception {
      AttachedSession session =
          AttachedSession.start(
              AttachSpecs.of(
                  config.targets(),
                  config.slurm().isEmpty() ? null : config.slurm(),
                  config.rsh(),
                  new DistributedOptions(),
                  new GdbSharingOptions(),
                  FabricConfig.defaults(),
                  log),
              log);
      return new Attached(session, session.attached(), Rendezvous.NOT_ATTACHED);
    }

    @Override
    public Connected listen(AttachConfig config, PrintStream log) throws Exception {
      ConnectDirectory dir = ConnectDirectory.open();
      FrontEndListener listener =
          new FrontEndListener(
              HostPort.parse("0", ClusterSettings.localAddress()),
              ListenConsole.listenerWarnings(log));
      try {
        RemoteSession session =
            RequestAcceptance.acceptFirst(
                dir,
                listener,
                Duration.ofSeconds(config.listenSeconds()),
                log::println,
                Duration.ofMinutes(15));
        session.onClosed(why -> listener.close()); // one job per listener
        Welcome w = session.welcome();
        return new Connected(session, w.getProgram(), List.copyOf(w.getArgsList()));
      } catch (Exception e) {
        listener.close();
        throw e;
      }
    }
  }
}
