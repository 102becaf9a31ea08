package io.sdmfabric.relay;

import io.sdmfabric.wire.HostPort;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A TCP forwarder, what {@code sdm relay} runs on a login node so that compute nodes that can reach
 * only that node still connect to a front-end behind it. Every connection accepted on its listening
 * socket gets a connection of its own to one target, and bytes flow both ways, unchanged and in
 * order, until both sides have closed. It knows nothing of what it carries: authenticating the two
 * ends is the front-end protocol's business, end to end.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>Each direction of a pair of connections has its own thread and a buffer of {@link
 *       Options#bufferBytes}: it reads into the buffer and writes it out with a blocking write
 *       before it reads again. A reader that does not read thus stops its writer once the socket
 *       buffers on the way are full; nothing in the relay grows.
 *   <li>End of stream on one side is passed on to the other as a half-close ({@link
 *       Socket#shutdownOutput}); the pair is closed once both directions have ended. An error on
 *       either side closes both at once.
 *   <li>When the target cannot be reached, the accepted connection is closed at once and the log
 *       says why. Beyond {@link Options#maxConnections} pairs at once, or {@link
 *       Options#maxPerSource} from one address, new connections are closed at once too.
 *   <li>A pair that has carried not a byte either way within {@link Options#firstByteTimeout}, that
 *       then carries no byte for {@link Options#idleTimeout}, or that stays half-closed for {@link
 *       Options#halfCloseTimeout}, is closed. So idle sockets cannot hold the relay's slots.
 *   <li>{@link #close} closes the listening socket and every connection, and returns once every
 *       thread of the relay has ended.
 * </ul>
 *
 * <p>Why threads rather than NIO: two blocking threads per pair is the plainest way to get
 * back-pressure and half-close right, and a login node's relay carries a few connections (one per
 * debug session), not thousands; {@link Options#maxConnections} bounds the threads.
 *
 * <p>The target's name is resolved once, when the relay starts.
 */
public final class Relay implements AutoCloseable {
  private static final int BACKLOG = 128;
  private static final Duration JOIN = Duration.ofSeconds(10);

  /**
   * How a relay behaves.
   *
   * @param bufferBytes the buffer of each direction of a pair: the most the relay holds of it
   * @param maxConnections the most pairs at once; more connections are closed as they come
   * @param maxPerSource the most pairs at once from one address, so that one host cannot take every
   *     slot
   * @param connectTimeout how long to wait for the target to accept a connection
   * @param firstByteTimeout how long a new pair may carry nothing: a session's first bytes (a
   *     master's TLS hello) come at once
   * @param idleTimeout how long a pair may carry no byte either way before it is closed
   * @param halfCloseTimeout how long a pair may stay open once one side has ended its stream
   * @param logConnections whether to log a line for each connection opened and closed (failures are
   *     always logged)
   */
  public record Options(
      int bufferBytes,
      int maxConnections,
      int maxPerSource,
      Duration connectTimeout,
      Duration firstByteTimeout,
      Duration idleTimeout,
      Duration halfCloseTimeout,
      boolean logConnections) {
    public Options {
      if (bufferBytes < 1 || maxConnections < 1 || maxPerSource < 1) {
        throw new IllegalArgumentException("the buffer and the connection limits must be positive");
      }
      for (Duration d : List.of(connectTimeout, firstByteTimeout, idleTimeout, halfCloseTimeout)) {
        if (d.isNegative() || d.isZero()) {
          throw new IllegalArgumentException("every timeout must be positive");
        }
      }
    }

    /**
     * 64 KiB per direction; 256 connections, 16 from one address (a compute node runs few debug
     * sessions at once); 10 s to connect to the target; 30 s for a new connection's first byte; 12
     * hours without a byte (a debug session may sit a working day while its user reads code: the
     * front-end protocol sends nothing meanwhile); 60 s half-closed; a line per connection.
     */
    public static Options defaults() {
      return new Options(
          64 * 1024,
          256,
          16,
          Duration.ofSeconds(10),
          Duration.ofSeconds(30),
          Duration.ofHours(12),
          Duration.ofSeconds(60),
          true);
    }

    /** The same, without the lines for connections opened and closed. */
    public Options quiet() {
      return new Options(
          bufferBytes,
          maxConnections,
          maxPerSource,
          connectTimeout,
          firstByteTimeout,
          idleTimeout,
          halfCloseTimeout,
          false);
    }

    /** The same with other connection limits. */
    public Options withLimits(int max, int perSource) {
      return new Options(
          bufferBytes,
          max,
          perSource,
          connectTimeout,
          firstByteTimeout,
          idleTimeout,
          halfCloseTimeout,
          logConnections);
    }

    /** The same with other timeouts for silent, idle and half-closed connections. */
    public Options withTimeouts(Duration firstByte, Duration idle, Duration halfClosed) {
      return new Options(
          bufferBytes,
          maxConnections,
          maxPerSource,
          connectTimeout,
          firstByte,
          idle,
          halfClosed,
          logConnections);
    }
  }

  private final ServerSocket server;
  private final HostPort target;
  private final InetSocketAddress targetAddress;
  private final Options options;
  private final Consumer<String> log;
  private final Thread acceptor;
  private final AtomicLong ids = new AtomicLong();
  private final CountDownLatch closing = new CountDownLatch(1);
  private final CountDownLatch ended = new CountDownLatch(1);

  // Guarded by this: a connection is admitted, and its first thread started, only while open, so
  // that close() sees every thread it must end.
  private final Set<Pair> pairs = new HashSet<>();
  private final java.util.Map<java.net.InetAddress, Integer> bySource = new java.util.HashMap<>();
  private boolean closed;

  private Relay(
      ServerSocket server,
      HostPort target,
      InetSocketAddress targetAddress,
      Options options,
      Consumer<String> log) {
    this.server = server;
    this.target = target;
    this.targetAddress = targetAddress;
    this.options = options;
    this.log = log;
    this.acceptor = new Thread(this::acceptLoop, "sdm-relay-accept");
    this.acceptor.setDaemon(true);
  }

  /**
   * Listens on {@code listen} (port 0 picks one) and forwards every connection to {@code target}.
   *
   * @param log where the relay says what happens, one line per call, called from its threads
   * @throws java.net.UnknownHostException when the target's host has no address
   * @throws IOException when the address cannot be listened on (in use, not this host's)
   */
  public static Relay start(
      InetSocketAddress listen, HostPort target, Options options, Consumer<String> log)
      throws IOException {
    InetSocketAddress targetAddress = target.resolve();
    ServerSocket server = new ServerSocket();
    try {
      server.setReuseAddress(true);
      server.bind(listen, BACKLOG);
    } catch (IOException e) {
      server.close();
      throw e;
    }
    Relay relay = new Relay(server, target, targetAddress, options, log);
    relay.acceptor.start();
    return relay;
  }

  /** The address it listens on, with the port it picked when asked for port 0. */
  public InetSocketAddress address() {
    return (InetSocketAddress) server.getLocalSocketAddress();
  }

  /** Where it forwards to, as given. */
  public HostPort target() {
    return target;
  }

  /** The pairs of connections open now. */
  public synchronized int connections() {
    return pairs.size();
  }

  /** Waits until {@link #close} has ended everything. */
  public void awaitClosed() throws InterruptedException {
    ended.await();
  }

  /**
   * Stops listening, closes every connection and returns once every thread of the relay has ended.
   * Safe to call more than once and from any thread but the relay's own.
   */
  @Override
  public void close() {
    List<Pair> open;
    synchronized (this) {
      if (closed) {
        open = null;
      } else {
        closed = true;
        open = new ArrayList<>(pairs);
      }
    }
    if (open == null) {
      awaitEnded();
      return;
    }
    closing.countDown();
    closeQuietly(server);
    join(acceptor);
    for (Pair p : open) {
      p.abort("the relay closed");
    }
    for (Pair p : open) {
      p.join();
    }
    ended.countDown();
  }

  private void awaitEnded() {
    try {
      ended.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private synchronized boolean isClosed() {
    return closed;
  }

  private void acceptLoop() {
    String lastError = null;
    while (true) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        if (isClosed()) {
          return;
        }
        // Too many open files and the like: say so once and try again shortly, rather than spin
        // or give up on the connections to come.
        if (!e.toString().equals(lastError)) {
          lastError = e.toString();
          log.accept("accepting a connection failed: " + describe(e) + "; still listening");
        }
        try {
          if (closing.await(100, TimeUnit.MILLISECONDS)) {
            return;
          }
        } catch (InterruptedException ie) {
          return;
        }
        continue;
      }
      lastError = null;
      admit(client);
    }
  }

  private void admit(Socket client) {
    synchronized (this) {
      if (closed) {
        closeQuietly(client);
        return;
      }
      java.net.InetAddress source = client.getInetAddress();
      int fromSource = bySource.getOrDefault(source, 0);
      if (pairs.size() < options.maxConnections() && fromSource < options.maxPerSource()) {
        Pair pair = new Pair(ids.incrementAndGet(), client);
        pairs.add(pair);
        bySource.put(source, fromSource + 1);
        pair.up.start();
        return;
      }
    }
    log.accept(
        "refused "
            + peer(client)
            + ": "
            + (connections() >= options.maxConnections()
                ? options.maxConnections() + " connections are open already"
                : options.maxPerSource() + " connections from its address are open already"));
    closeQuietly(client);
  }

  private synchronized void remove(Pair pair) {
    if (pairs.remove(pair)) {
      bySource.computeIfPresent(pair.client.getInetAddress(), (a, n) -> n == 1 ? null : n - 1);
    }
  }

  /**
   * One accepted connection and its own connection to the target. The up thread connects to the
   * target, starts the down thread, then copies client to target; the down thread copies target to
   * client. The last of the two to end closes both sockets.
   */
  private final class Pair {
    private final long id;
    private final Socket client;
    private final Socket outbound = new Socket();
    private final Thread up;
    private final Thread down;
    private final AtomicLong upBytes = new AtomicLong();
    private final AtomicLong downBytes = new AtomicLong();
    private final AtomicInteger running = new AtomicInteger(2);
    private final AtomicReference<String> failure = new AtomicReference<>();
    private final long opened = System.nanoTime();
    private final AtomicLong lastByte = new AtomicLong(opened);
    private final AtomicLong halfClosedAt = new AtomicLong();

    Pair(long id, Socket client) {
      this.id = id;
      this.client = client;
      this.up = new Thread(this::runUp, "sdm-relay-" + id + "-up");
      this.down = new Thread(this::runDown, "sdm-relay-" + id + "-down");
      up.setDaemon(true);
      down.setDaemon(true);
    }

    private void runUp() {
      String from = peer(client);
      try {
        // Interactive traffic (a debugger's commands and replies) must not wait for Nagle; the
        // relay writes what it read at once, so it coalesces nothing the sender did not.
        client.setTcpNoDelay(true);
        client.setKeepAlive(true);
        outbound.setTcpNoDelay(true);
        outbound.setKeepAlive(true);
        outbound.connect(targetAddress, (int) options.connectTimeout().toMillis());
      } catch (IOException e) {
        String aborted = failure.get();
        log.accept(
            "#"
                + id
                + " from "
                + from
                + (aborted != null
                    ? ": closed before " + target + " answered (" + aborted + ")"
                    : ": cannot reach " + target + ": " + describe(e)));
        closeQuietly(client);
        closeQuietly(outbound);
        remove(this);
        return;
      }
      if (options.logConnections()) {
        log.accept("#" + id + " open " + from + " -> " + target);
      }
      down.start();
      pump(client, outbound, upBytes, "client", "target");
    }

    private void runDown() {
      pump(outbound, client, downBytes, "target", "client");
    }

    /**
     * Copies {@code from} to {@code to} until end of stream, passed on as a half-close, or an
     * error, which closes both.
     */
    private void pump(Socket from, Socket to, AtomicLong count, String fromName, String toName) {
      byte[] buffer = new byte[options.bufferBytes()];
      try {
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        // Reads wake up now and then to see whether the pair has been idle or half-closed too long.
        from.setSoTimeout(
            (int)
                Math.max(
                    50,
                    Math.min(
                            options.idleTimeout().toMillis(), options.halfCloseTimeout().toMillis())
                        / 4));
        while (true) {
          int n;
          try {
            n = in.read(buffer);
          } catch (java.net.SocketTimeoutException e) {
            String overdue = overdue();
            if (overdue == null) {
              continue;
            }
            fail(overdue);
            return;
          } catch (IOException e) {
            fail(fromName + ": " + describe(e));
            return;
          }
          if (n < 0) {
            break;
          }
          lastByte.set(System.nanoTime());
          try {
            out.write(buffer, 0, n);
          } catch (IOException e) {
            if (halfClosedAt.get() != 0) {
              // The side written to had ended its stream and has gone since: what was still on
              // its way to it (a TLS close_notify, say) has no one to read it. A normal end.
              return;
            }
            fail(toName + ": " + describe(e));
            return;
          }
          count.addAndGet(n);
        }
        halfClosedAt.compareAndSet(0, System.nanoTime());
        to.shutdownOutput();
      } catch (IOException e) {
        fail(toName + ": " + describe(e));
      } finally {
        if (running.decrementAndGet() == 0) {
          end();
        }
      }
    }

    /** Why the pair must close now: silent, idle or half-closed for too long; null if none. */
    private String overdue() {
      long now = System.nanoTime();
      if (upBytes.get() + downBytes.get() == 0
          && now - opened > options.firstByteTimeout().toNanos()) {
        return "not a byte either way within " + options.firstByteTimeout().toSeconds() + " s";
      }
      long half = halfClosedAt.get();
      if (half != 0 && now - half > options.halfCloseTimeout().toNanos()) {
        return "half-closed for more than " + options.halfCloseTimeout().toSeconds() + " s";
      }
      if (now - lastByte.get() > options.idleTimeout().toNanos()) {
        return "idle for more than " + options.idleTimeout().toSeconds() + " s";
      }
      return null;
    }

    private void fail(String why) {
      failure.compareAndSet(null, why);
      closeQuietly(client);
      closeQuietly(outbound);
    }

    /** Closes both sides now, for {@code why}, from another thread. */
    void abort(String why) {
      fail(why);
    }

    private void end() {
      closeQuietly(client);
      closeQuietly(outbound);
      remove(this);
      String why = failure.get();
      if (options.logConnections() || why != null) {
        log.accept(
            "#"
                + id
                + " closed: "
                + upBytes.get()
                + " bytes to the target, "
                + downBytes.get()
                + " back"
                + (why == null ? "" : " (" + why + ")"));
      }
    }

    void join() {
      // Up first: it is the one that starts down, so once it has ended down has started or never
      // will.
      Relay.this.join(up);
      Relay.this.join(down);
    }
  }

  private void join(Thread thread) {
    try {
      thread.join(JOIN.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    if (thread.isAlive()) {
      log.accept("thread " + thread.getName() + " did not end within " + JOIN.toSeconds() + " s");
    }
  }

  private static String peer(Socket socket) {
    return socket.getRemoteSocketAddress() instanceof InetSocketAddress a
        ? HostPort.of(a).toString()
        : String.valueOf(socket.getRemoteSocketAddress());
  }

  /** The exception's message, or its type when it has none. */
  private static String describe(IOException e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  private static void closeQuietly(java.io.Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // Closing is all that is left to do with it; an error here changes nothing.
    }
  }
}
