package io.sdmfabric.frontend.dap;

import io.sdmfabric.model.RateLimitedLog;
import io.sdmfabric.model.TerminalText;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * The debug adapter on a loopback port ({@code sdm dap --port}): one {@link SdmDebugAdapter} per
 * connection, each on a thread of its own and in a session of its own, until the JVM ends.
 *
 * <p>DAP has no authentication, and a session runs programs as its user. So the port is on the
 * loopback address only; a connection is served only when the process that made it belongs to this
 * Unix user ({@link LoopbackPeers}), and only when it first presents the port's token, which it
 * reads from a file only the user can read ({@link TokenFiles}), and then speaks DAP's framing and
 * nothing else ({@link DapPortGate}): a web page in the user's browser is a process of the user,
 * but it can neither read the file nor send anything but HTTP. Any other connection is closed at
 * once, unread by the DAP library, with a line on {@code err}.
 */
public final class DapPortServer {
  /** Where the token of a listening port is kept for its clients to read. */
  public interface TokenFiles {
    /**
     * Writes {@code token} where a client of {@code port} reads it, in a file only this user can
     * read; the file is deleted when the server ends.
     *
     * @throws IOException when it cannot be kept; the message says why
     */
    Path write(int port, String token) throws IOException;
  }

  /** How long a connection has to present its token and its first message's header. */
  private static final int HANDSHAKE_MS = 10_000;

  /** Refused connections shown in full per interval; the others are counted. */
  private static final int REFUSALS_SHOWN = 5;

  private static final Duration REFUSALS_INTERVAL = Duration.ofSeconds(10);

  /** At most this many connections wait for their token at once; more are refused. */
  private static final int HANDSHAKES = 16;

  /** How long the end of the JVM waits for the clients' sessions to end. */
  private static final long ENDING_NANOS = 10_000_000_000L;

  private final ServerSocket server;
  private final String token;
  private final Path tokenFile;
  private final PrintStream err;
  private final Set<Socket> clients = ConcurrentHashMap.newKeySet();
  private final Semaphore handshakes = new Semaphore(HANDSHAKES);
  private final RateLimitedLog refusals;

  private DapPortServer(ServerSocket server, String token, Path tokenFile, PrintStream err) {
    this.server = server;
    this.token = token;
    this.tokenFile = tokenFile;
    this.err = err;
    this.refusals =
        new RateLimitedLog(
            err::println,
            REFUSALS_INTERVAL,
            REFUSALS_SHOWN,
            1,
            "refused connections",
            System::nanoTime);
  }

  /**
   * Listens on {@code port} of 127.0.0.1 (0: any free port) and keeps a new token for it in {@code
   * tokens}.
   *
   * @throws IOException when the port cannot be listened on or its token cannot be kept; the
   *     message says which and why, escaped, as the user reads it
   */
  public static DapPortServer open(int port, TokenFiles tokens, PrintStream err)
      throws IOException {
    ServerSocket server;
    try {
      server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new IOException(
          "cannot listen on port " + port + " of 127.0.0.1: " + e.getMessage(), e);
    }
    String token = DapPortGate.newToken();
    try {
      return new DapPortServer(server, token, tokens.write(server.getLocalPort(), token), err);
    } catch (IOException e) {
      closeQuietly(server);
      throw new IOException(
          "cannot keep the port's token: " + TerminalText.escape(e.getMessage()), e);
    }
  }

  /**
   * Serves the port's clients, each with sessions {@code opener} opens, until the JVM ends: its end
   * deletes the token file, closes the port and every client's connection (each adapter then ends
   * its session), and waits up to 10 s for them.
   *
   * @throws IOException when this process's own user cannot be read
   */
  public void serve(SessionOpener opener) throws IOException {
    Runtime.getRuntime().addShutdownHook(new Thread(this::end, "dap-port-end"));
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
            client,
            uid.isPresent()
                ? "it belongs to user " + uid.getAsInt() + ", not to " + own
                : "its user could not be told");
        continue;
      }
      if (!handshakes.tryAcquire()) {
        refuse(client, "already " + HANDSHAKES + " connections are presenting their token");
        continue;
      }
      clients.add(client);
      Thread serving =
          new Thread(
              () -> {
                try {
                  serve(client, opener);
                } finally {
                  closeQuietly(client);
                  clients.remove(client);
                }
              },
              "dap-client-" + client.getPort());
      serving.start();
    }
  }

  /** The end of the JVM: the clients' streams end, and each adapter ends its session. */
  private void end() {
    // The token goes before the port: a later sdm dap on the same port writes its own.
    try {
      Files.deleteIfExists(tokenFile);
    } catch (IOException e) {
      // Ending: the next sdm dap on this port replaces it.
    }
    refusals.flushAll();
    closeQuietly(server);
    clients.forEach(DapPortServer::closeQuietly);
    long deadline = System.nanoTime() + ENDING_NANOS;
    try {
      while (!clients.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Serves one connection of a process of this user once it has presented the token and a DAP
   * header ({@link DapPortGate#admit}); refuses it, unread by the DAP library, otherwise.
   */
  private void serve(Socket client, SessionOpener opener) {
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
      refuse(client, "it sent no token and message within " + HANDSHAKE_MS / 1000 + " s");
      return;
    } catch (IOException e) {
      refuse(client, e.getMessage());
      return;
    }
    try {
      SdmDebugAdapter.serve(admitted, client.getOutputStream(), opener);
    } catch (Exception e) {
      err.println("sdm dap: a client's connection ended: " + TerminalText.escape(innermost(e)));
    }
  }

  /**
   * Closes {@code client} and says why on one line, escaped (the reason may quote the client), at
   * most a few a time: a web page can open connections in a loop.
   */
  private void refuse(Socket client, String why) {
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

  private static void closeQuietly(Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // Closing: nothing left to do about it.
    }
  }
}
