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
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Where the masters of accepted reverse connect requests connect to the front-end: one listening
 * socket for all of a front-end's sessions. Each connection must prove, in the front-end protocol's
 * handshake, the secret of a request this front-end has accepted and not yet been reached for;
 * anything else (a stranger, a wrong secret, bytes that are not frames, a second connection for the
 * same request) is refused and closed, and the listener goes on.
 *
 * <p>Strangers cannot wear it down: at most {@value #MAX_PENDING} connections are in their
 * handshake at once, {@value #MAX_PENDING_PER_SOURCE} from any one address (more are closed at
 * once), each on a thread of its own, and each connection's whole handshake, TLS included, has one
 * deadline ({@link Handshake#TIMEOUT}) after which it is closed, however slowly its bytes come. A
 * handshake frame is at most {@link FrameConnection#HANDSHAKE_MAX_BYTES}.
 */
public final class FrontEndListener implements AutoCloseable {
  /** A request accepted and waiting for its master. */
  private record Expected(SessionSecret secret, CompletableFuture<FrameConnection> connection) {}

  private final ServerSocket server;
  private final String advertised;
  private final Consumer<String> warnings;

  /** How many connections may be in their handshake at once. */
  static final int MAX_PENDING = 64;

  /** How many of them may come from one address. */
  static final int MAX_PENDING_PER_SOURCE = 8;

  private final Map<String, Expected> expected = new ConcurrentHashMap<>();
  private final Map<InetAddress, Integer> pendingBySource = new java.util.HashMap<>();
  private int pending;
  private final ExecutorService handshakes = Executors.newCachedThreadPool(daemon("handshake"));
  private final java.util.concurrent.ScheduledExecutorService deadlines =
      Executors.newSingleThreadScheduledExecutor(daemon("handshake-deadline"));
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
      InetAddress source = s.getInetAddress();
      if (!admit(source)) {
        closeQuietly(s);
        continue;
      }
      java.util.concurrent.ScheduledFuture<?> deadline =
          deadlines.schedule(
              () -> closeQuietly(s), Handshake.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      handshakes.execute(
          () -> {
            try {
              authenticate(s, deadline);
            } finally {
              deadline.cancel(false);
              release(source);
            }
          });
    }
  }

  /** Counts a connection in its handshake from {@code source}, if there is room for it. */
  private synchronized boolean admit(InetAddress source) {
    int fromSource = pendingBySource.getOrDefault(source, 0);
    if (pending >= MAX_PENDING || fromSource >= MAX_PENDING_PER_SOURCE) {
      return false;
    }
    pending++;
    pendingBySource.put(source, fromSource + 1);
    return true;
  }

  private synchronized void release(InetAddress source) {
    pending--;
    pendingBySource.computeIfPresent(source, (a, n) -> n == 1 ? null : n - 1);
  }

  /** How many connections are in their handshake now. */
  synchronized int pending() {
    return pending;
  }

  /**
   * The handshake of one connection; {@code deadline} closes its socket when the handshake takes
   * too long, and is called off before the connection is handed on.
   */
  private void authenticate(Socket s, java.util.concurrent.Future<?> deadline) {
    FrameConnection c;
    try {
      c = FrameConnection.accept(s, Handshake.TIMEOUT);
    } catch (IOException e) {
      closeQuietly(s);
      warnings.accept(
          "refused a connection from "
              + s.getRemoteSocketAddress()
              + ": not TLS: "
              + e.getMessage());
      return;
    }
    try {
      String id =
          Handshake.answer(
              c,
              Role.ROLE_FRONT_END,
              session -> Optional.ofNullable(expected.get(session)).map(Expected::secret),
              Handshake.TIMEOUT);
      if (!deadline.cancel(false)) {
        c.close("the handshake's deadline passed");
        return;
      }
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
    deadlines.shutdownNow();
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
