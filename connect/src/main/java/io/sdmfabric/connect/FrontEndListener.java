package io.sdmfabric.connect;

import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.wire.FrameConnection;
import io.sdmfabric.wire.Handshake;
import io.sdmfabric.wire.HostPort;
import io.sdmfabric.wire.SessionSecret;
import io.sdmfabric.wire.proto.Role;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * Where the masters of accepted reverse connect requests connect to the front-end: one listening
 * socket for all of a front-end's sessions. Each connection must prove, in the front-end protocol's
 * handshake, the secret of a request this front-end has accepted and not yet been reached for;
 * anything else (a stranger, a wrong secret, bytes that are not frames, a second connection for the
 * same request) is refused and closed, and the listener goes on.
 */
public final class FrontEndListener implements AutoCloseable {
  /** A request accepted and waiting for its master. */
  private record Expected(SessionSecret secret, CompletableFuture<FrameConnection> connection) {}

  private final ServerSocket server;
  private final String advertised;
  private final Consumer<String> warnings;
  private final Map<String, Expected> expected = new ConcurrentHashMap<>();
  private final ExecutorService handshakes = Executors.newCachedThreadPool(daemon("handshake"));
  private final Thread acceptor;

  /**
   * Listens on {@code at} (port 0: any free port); {@code warnings} hears of refused connections.
   *
   * @throws IOException when it cannot listen there; the message says why
   */
  public FrontEndListener(HostPort at, Consumer<String> warnings) throws IOException {
    this.warnings = warnings;
    this.server = new ServerSocket();
    try {
      server.bind(new InetSocketAddress(at.host(), at.port()));
    } catch (IOException e) {
      server.close();
      throw new IOException("cannot listen on " + at + ": " + e.getMessage(), e);
    }
    InetAddress bound = server.getInetAddress();
    String host =
        bound.isAnyLocalAddress() ? ClusterSettings.localAddress() : bound.getHostAddress();
    this.advertised = new HostPort(host, server.getLocalPort()).toString();
    this.acceptor = new Thread(this::acceptLoop, "front-end-listener");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Where masters connect: {@code HOST:PORT}, for the answers to requests. */
  String address() {
    return advertised;
  }

  /**
   * Expects the master of request {@code id}; completes with its authenticated connection. One
   * connection per request: once it has come, others for the same request are refused.
   */
  CompletableFuture<FrameConnection> expect(String id, SessionSecret secret) {
    Expected e = new Expected(secret, new CompletableFuture<>());
    expected.put(id, e);
    return e.connection();
  }

  /** Stops expecting request {@code id}. */
  void forget(String id) {
    Expected e = expected.remove(id);
    if (e != null) {
      e.connection().cancel(false);
    }
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      Socket s;
      try {
        s = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      handshakes.execute(() -> authenticate(s));
    }
  }

  private void authenticate(Socket s) {
    FrameConnection c;
    try {
      c = FrameConnection.over(s);
    } catch (IOException e) {
      closeQuietly(s);
      return;
    }
    try {
      String id =
          Handshake.answer(
              c,
              Role.ROLE_FRONT_END,
              session -> Optional.ofNullable(expected.get(session)).map(Expected::secret),
              Handshake.TIMEOUT);
      Expected e = expected.remove(id);
      if (e == null || !e.connection().complete(c)) {
        c.refuse("request " + id + " has been reached already");
      }
    } catch (IOException e) {
      warnings.accept("refused a connection: " + e.getMessage());
    }
  }

  @Override
  public void close() {
    closeQuietly(server);
    handshakes.shutdownNow();
    expected.values().forEach(e -> e.connection().cancel(false));
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // Closing is all there is to do.
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
