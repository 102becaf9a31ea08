package io.sdmfabric.connect;

import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.wire.FrameConnection;
import io.sdmfabric.wire.Handshake;
import io.sdmfabric.wire.HostPort;
import io.sdmfabric.wire.SessionSecret;
import io.sdmfabric.wire.TlsIdentity;
import io.sdmfabric.wire.proto.Role;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Where the masters of accepted reverse connect requests connect to the front-end: one listening
 * socket for all of a front-end's sessions. Each connection must prove, in the front-end protocol's
 * handshake, the secret of a request this front-end has accepted and not yet been reached for;
 * anything else (a stranger, a wrong secret, bytes that are not TLS, a second connection for the
 * same request) is refused and closed, and the listener goes on.
 *
 * <p>Strangers cannot wear it down. At most {@value #MAX_PENDING} connections are in their
 * handshake at once, {@value #MAX_PENDING_PER_SOURCE} of them from any one address, on at most
 * {@value #MAX_PENDING} threads; a connection that comes when its address, or the whole, is at its
 * limit takes the place of the oldest one there, which is closed. So connections that strangers
 * open and leave can hold no place for long, and a real master, whose handshake takes milliseconds,
 * gets in even from the address of a flood (a relay's, whose connections all come from the relay).
 * Each connection's whole handshake, TLS included, has one deadline ({@link Handshake#TIMEOUT} from
 * when it was accepted) after which it is closed, however slowly its bytes come; a handshake frame
 * is at most {@link FrameConnection#HANDSHAKE_MAX_BYTES}. Refusals are told through {@link
 * Refusals}, so a flood of them costs the user a handful of lines.
 */
public final class FrontEndListener implements AutoCloseable {
  /** How many connections may be in their handshake at once; as many threads serve them. */
  static final int MAX_PENDING = 64;

  /** How many of them may come from one address. */
  static final int MAX_PENDING_PER_SOURCE = 8;

  /** The name of the threads that run handshakes. */
  static final String HANDSHAKE_THREAD = "front-end-handshake";

  /** A request accepted and waiting for its master. */
  private record Expected(SessionSecret secret, CompletableFuture<FrameConnection> connection) {}

  /** A connection in its handshake: where it comes from, and since when. */
  private record Unauthenticated(Socket socket, InetAddress source, long acceptedNanos) {
    String from() {
      return String.valueOf(socket.getRemoteSocketAddress());
    }
  }

  private final ServerSocket server;
  private final String advertised;
  private final Duration handshakeTimeout;
  private final Refusals refusals;
  private final Map<String, Expected> expected = new ConcurrentHashMap<>();

  /** The connections in their handshake, oldest first. Guarded by {@code this}. */
  private final Map<Socket, Unauthenticated> pending = new LinkedHashMap<>();

  /** What this listener presents in TLS to every connection: made once, when it starts. */
  private final TlsIdentity identity = TlsIdentity.generate("sdm listen");

  private final ThreadPoolExecutor handshakes;
  private final Thread acceptor;

  /**
   * Listens on {@code at} (port 0: any free port); {@code warnings} hears of refused connections.
   *
   * @throws IOException when it cannot listen there; the message says why
   */
  public FrontEndListener(HostPort at, Consumer<String> warnings) throws IOException {
    this(at, warnings, Handshake.TIMEOUT);
  }

  /** As above, with another deadline for each connection's handshake (tests). */
  FrontEndListener(HostPort at, Consumer<String> warnings, Duration handshakeTimeout)
      throws IOException {
    this.handshakeTimeout = handshakeTimeout;
    this.refusals = new Refusals(warnings);
    this.server = new ServerSocket();
    try {
      server.bind(new InetSocketAddress(at.host(), at.port()), MAX_PENDING);
    } catch (IOException e) {
      server.close();
      throw new IOException("cannot listen on " + at + ": " + e.getMessage(), e);
    }
    InetAddress bound = server.getInetAddress();
    String host =
        bound.isAnyLocalAddress() ? ClusterSettings.localAddress() : bound.getHostAddress();
    this.advertised = new HostPort(host, server.getLocalPort()).toString();
    this.handshakes =
        new ThreadPoolExecutor(
            MAX_PENDING,
            MAX_PENDING,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, HANDSHAKE_THREAD);
              t.setDaemon(true);
              return t;
            });
    handshakes.allowCoreThreadTimeOut(true);
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

  /** How many connections are in their handshake now. */
  synchronized int pending() {
    return pending.size();
  }

  /** The most threads that ever ran handshakes at once. */
  int largestHandshakeThreads() {
    return handshakes.getLargestPoolSize();
  }

  /** How many connections were refused for {@code kind}. */
  long refused(Refusals.Kind kind) {
    return refusals.count(kind);
  }

  /**
   * Takes connections as they come and never waits on one: the acceptor only counts, closes the
   * connection that a new one replaces, and hands the new one to a handshake thread.
   */
  private void acceptLoop() {
    while (!server.isClosed()) {
      Socket s;
      try {
        s = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      Unauthenticated u = new Unauthenticated(s, s.getInetAddress(), System.nanoTime());
      admit(u).ifPresent(old -> replaced(old, u));
      try {
        handshakes.execute(() -> authenticate(u));
      } catch (RejectedExecutionException e) {
        release(u);
        closeQuietly(s); // closing
      }
    }
  }

  /**
   * Counts {@code u} among the connections in their handshake; when its address or the whole is at
   * its limit, the oldest connection there leaves the count to make room, and is returned to be
   * closed.
   */
  private synchronized Optional<Unauthenticated> admit(Unauthenticated u) {
    Unauthenticated oldest = null;
    Unauthenticated oldestOfSource = null;
    int fromSource = 0;
    for (Unauthenticated p : pending.values()) {
      if (oldest == null) {
        oldest = p;
      }
      if (p.source().equals(u.source())) {
        if (oldestOfSource == null) {
          oldestOfSource = p;
        }
        fromSource++;
      }
    }
    Unauthenticated out = null;
    if (fromSource >= MAX_PENDING_PER_SOURCE) {
      out = oldestOfSource;
    } else if (pending.size() >= MAX_PENDING) {
      out = oldest;
    }
    if (out != null) {
      pending.remove(out.socket());
    }
    pending.put(u.socket(), u);
    return Optional.ofNullable(out);
  }

  /** Whether {@code u} was still counted (not replaced by a newer one); it is not any more. */
  private synchronized boolean release(Unauthenticated u) {
    return pending.remove(u.socket()) != null;
  }

  private synchronized boolean isPending(Unauthenticated u) {
    return pending.containsKey(u.socket());
  }

  private void replaced(Unauthenticated old, Unauthenticated by) {
    refusals.refused(
        Refusals.Kind.CROWDED,
        "closed a connection from "
            + old.from()
            + " still in its handshake after "
            + TimeUnit.NANOSECONDS.toMillis(by.acceptedNanos() - old.acceptedNanos())
            + " ms, to make room for one from "
            + by.from()
            + " (at most "
            + MAX_PENDING
            + " connections in their handshake, "
            + MAX_PENDING_PER_SOURCE
            + " from one address)");
    closeQuietly(old.socket());
  }

  /** The handshake of one connection, on a handshake thread. */
  private void authenticate(Unauthenticated u) {
    if (!isPending(u)) {
      return; // replaced (and closed) while it waited for a thread
    }
    Duration left = handshakeTimeout.minusNanos(System.nanoTime() - u.acceptedNanos());
    if (left.isNegative() || left.isZero()) {
      late(u);
      return;
    }
    FrameConnection c;
    try {
      c = FrameConnection.accept(u.socket(), left, identity);
    } catch (Handshake.DeadlineException e) {
      late(u);
      return;
    } catch (IOException e) {
      failed(u, Refusals.Kind.NOT_TLS, "not TLS: " + e.getMessage());
      return;
    }
    String id;
    try {
      id =
          Handshake.answer(
              c,
              Role.ROLE_FRONT_END,
              session -> Optional.ofNullable(expected.get(session)).map(Expected::secret),
              left);
    } catch (Handshake.DeadlineException e) {
      late(u);
      return;
    } catch (IOException e) {
      failed(u, Refusals.Kind.HANDSHAKE, e.getMessage());
      return;
    }
    if (!release(u)) {
      c.close("replaced by a newer connection before it was handed on");
      return; // counted when it was replaced
    }
    Expected e = expected.remove(id);
    if (e == null || !e.connection().complete(c)) {
      c.refuse("request " + id + " has been reached already");
    }
  }

  private void late(Unauthenticated u) {
    failed(
        u,
        Refusals.Kind.LATE,
        "its handshake did not end within "
            + handshakeTimeout.toMillis()
            + " ms of its arrival (TLS included)");
  }

  /** The handshake of {@code u} failed: said, unless a newer connection replaced it (said then). */
  private void failed(Unauthenticated u, Refusals.Kind kind, String why) {
    closeQuietly(u.socket());
    if (release(u)) {
      refusals.refused(kind, "refused a connection from " + u.from() + ": " + why);
    }
  }

  @Override
  public void close() {
    closeQuietly(server);
    handshakes.shutdownNow();
    List<Unauthenticated> open;
    synchronized (this) {
      open = new ArrayList<>(pending.values());
      pending.clear();
    }
    open.forEach(u -> closeQuietly(u.socket()));
    expected.values().forEach(e -> e.connection().cancel(false));
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // Closing is all there is to do.
    }
  }
}
