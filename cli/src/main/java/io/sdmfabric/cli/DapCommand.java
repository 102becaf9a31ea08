package io.sdmfabric.cli;

import io.sdmfabric.connect.ConnectDirectory;
import io.sdmfabric.connect.FrontEndListener;
import io.sdmfabric.connect.ListenConsole;
import io.sdmfabric.connect.RequestAcceptance;
import io.sdmfabric.frontend.RemoteSession;
import io.sdmfabric.frontend.dap.AttachConfig;
import io.sdmfabric.frontend.dap.DapPortGate;
import io.sdmfabric.frontend.dap.LaunchConfig;
import io.sdmfabric.frontend.dap.SdmDebugAdapter;
import io.sdmfabric.frontend.dap.SessionOpener;
import io.sdmfabric.master.Rendezvous;
import io.sdmfabric.model.RateLimitedLog;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.runtime.AttachedSession;
import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.runtime.PrivateDirectory;
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
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sdm dap}: a debug adapter on standard input and output, for VS Code and other DAP clients;
 * or, with {@code --port}, for clients that connect over TCP. Each launch request starts its
 * session as {@code sdm debug} would, each attach request as {@code sdm attach} or {@code sdm
 * listen}.
 *
 * <p>DAP has no authentication, and a session runs programs as its user. So the port is on the
 * loopback address only; a connection is served only when the process that made it belongs to this
 * Unix user ({@link LoopbackPeers}), and only when it first presents the port's token, which it
 * reads from a file only the user can read ({@link DapTokenFile}), and then speaks DAP's framing
 * and nothing else ({@link DapPortGate}): a web page in the user's browser is a process of the
 * user, but it can neither read the file nor send anything but HTTP. Any other connection is closed
 * at once, unread by the DAP library, with a line on standard error.
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

  /** How long a connection has to present its token and its first message's header. */
  private static final int HANDSHAKE_MS = 10_000;

  /** Refused connections shown in full per interval; the others are counted. */
  private static final int REFUSALS_SHOWN = 5;

  private static final java.time.Duration REFUSALS_INTERVAL = java.time.Duration.ofSeconds(10);

  /** At most this many connections wait for their token at once; more are refused. */
  private static final int HANDSHAKES = 16;

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
    String token = DapPortGate.newToken();
    Path tokenFile;
    try {
      tokenFile = DapTokenFile.write(PrivateDirectory.sdmHome(), server.getLocalPort(), token);
    } catch (IOException e) {
      closeQuietly(server);
      err.println("sdm dap: cannot keep the port's token: " + TerminalText.escape(e.getMessage()));
      return 2;
    }
    Set<Socket> clients = ConcurrentHashMap.newKeySet();
    RateLimitedLog refusals =
        new RateLimitedLog(
            err::println,
            REFUSALS_INTERVAL,
            REFUSALS_SHOWN,
            1,
            "refused connections",
            System::nanoTime);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  // The token goes before the port: a later sdm dap on the same port writes its
                  // own.
                  DapTokenFile.delete(tokenFile);
                  refusals.flushAll();
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
            + server.getLocalPort()
            + "; a client sends the line "
            + DapPortGate.PREFIX.strip()
            + " TOKEN first, the token in "
            + TerminalText.escape(tokenFile.toString()));
    int own = LoopbackPeers.ownUid();
    Semaphore handshakes = new Semaphore(HANDSHAKES);
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
        refuse(
            refusals,
            client,
            uid.isPresent()
                ? "it belongs to user " + uid.getAsInt() + ", not to " + own
                : "its user could not be told");
        continue;
      }
      if (!handshakes.tryAcquire()) {
        refuse(
            refusals, client, "already " + HANDSHAKES + " connections are presenting their token");
        continue;
      }
      clients.add(client);
      Thread serving =
          new Thread(
              () -> {
                try {
                  serve(client, token, handshakes, err, refusals);
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

  /**
   * Serves one connection of a process of this user once it has presented {@code token} and a DAP
   * header ({@link DapPortGate#admit}); refuses it, unread by the DAP library, otherwise.
   */
  private static void serve(
      Socket client, String token, Semaphore handshakes, PrintStream err, RateLimitedLog refusals) {
    InputStream admitted;
    try {
      try {
        client.setSoTimeout(HANDSHAKE_MS);
        admitted = DapPortGate.admit(client.getInputStream(), token);
        client.setSoTimeout(0);
      } finally {
        handshakes.release();
      }
    } catch (SocketTimeoutException e) {
      refuse(refusals, client, "it sent no token and message within " + HANDSHAKE_MS / 1000 + " s");
      return;
    } catch (IOException e) {
      refuse(refusals, client, e.getMessage());
      return;
    }
    try {
      SdmDebugAdapter.serve(admitted, client.getOutputStream(), new Opener());
    } catch (Exception e) {
      err.println("sdm dap: a client's connection ended: " + TerminalText.escape(innermost(e)));
    }
  }

  /**
   * Closes {@code client} and says why on one line, escaped (the reason may quote the client), at
   * most a few a time: a web page can open connections in a loop.
   */
  private static void refuse(RateLimitedLog refusals, Socket client, String why) {
    closeQuietly(client);
    refusals.log(
        client.getInetAddress().getHostAddress(),
        TerminalText.escape(
            "sdm dap: refused a connection from "
                + client.getInetAddress().getHostAddress()
                + ":"
                + client.getPort()
                + ": "
                + why));
  }

  private static String innermost(Throwable t) {
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return String.valueOf(t.getMessage());
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
