package io.sdmfabric.relay;

import io.sdmfabric.model.RateLimitedLog;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.wire.HostPort;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 *   <li><b>Opening.</b> The relay dials the target only once the accepted connection has sent its
 *       first bytes (a master's TLS ClientHello: in the front-end protocol the dialer speaks
 *       first). A connection that sends nothing within {@link Options#openingTimeout} is closed,
 *       and the target never hears of it. A protocol whose server speaks first cannot be relayed.
 *   <li>Each direction of a pair of connections has its own thread and a buffer of {@link
 *       Options#bufferBytes}: it reads into the buffer and writes it out with a blocking write
 *       before it reads again. A reader that does not read thus stops its writer once the socket
 *       buffers on the way are full; nothing in the relay grows.
 *   <li>End of stream on one side is passed on to the other as a half-close ({@link
 *       Socket#shutdownOutput}); the pair is closed once both directions have ended. An error on
 *       either side closes both at once.
 *   <li>A pair that carries no byte either way for {@link Options#idleTimeout}, or that stays
 *       half-closed for {@link Options#halfCloseTimeout}, is closed. So sockets that strangers open
 *       and leave cannot hold the relay's slots for longer than those.
 *   <li>When the target cannot be reached, the accepted connection is closed at once and the log
 *       says why. Beyond {@link Options#maxConnections} connections at once, or {@link
 *       Options#maxPerSource} from one address, new connections are closed at once too, so that one
 *       host cannot take every slot; the log says so at most once every 10 s, counting the others,
 *       so that a flood of connections cannot flood it.
 *   <li>The lines about admitted connections (opened, closed, failed) are limited too: at most
 *       {@value #LINES_PER_SOURCE} a minute per address they come from, the others counted in a
 *       line of their own once the minute is over (or when the relay closes). Churn, connections
 *       opened and closed as fast as they go, so writes at most 63 lines a minute.
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
   * The lines about connections (opened, closed, failed), per address they come from: at most
   * {@value #LINES_PER_SOURCE} a {@link #LOG_INTERVAL}, counting the others, for at most {@value
   * #LOG_SOURCES} addresses at once and one more for all others. So connection churn, which costs
   * its sender nothing, writes at most 63 lines a minute however many hosts take part.
   */
  static final Duration LOG_INTERVAL = Duration.ofMinutes(1);

  static final int LINES_PER_SOURCE = 6;
  static final int LOG_SOURCES = 8;

  /**
   * How often the acceptor, waiting for a connection, writes the counts of intervals that ended.
   */
  private static final Duration FLUSH = Duration.ofSeconds(1);

  /**
   * How a relay behaves; the constructor refuses values out of the bounds below.
   *
   * @param bufferBytes the buffer of each direction of a pair: the most the relay holds of it
   * @param maxConnections the most connections at once, 1 to {@link #MAX_CONNECTIONS}; more are
   *     closed as they come
   * @param maxPerSource the most connections at once from one address, 1 to {@code maxConnections},
   *     so that one host cannot take every slot
   * @param connectTimeout how long to wait for the target to accept a connection
   * @param openingTimeout how long a new connection may send nothing: the target is dialled once it
   *     has sent its first bytes, which a master sends at once (its TLS ClientHello)
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
      Duration openingTimeout,
      Duration idleTimeout,
      Duration halfCloseTimeout,
      boolean logConnections) {
    /** The most connections a relay may be asked to take: each costs two threads. */
    public static final int MAX_CONNECTIONS = 4096;

    /** The shortest timeout: socket timeouts count milliseconds, and 0 would mean none. */
    public static final Duration MIN_TIMEOUT = Duration.ofMillis(1);

    /** The longest timeout: a week, longer than any debug session left alone over a weekend. */
    public static final Duration MAX_TIMEOUT = Duration.ofDays(7);

    public Options {
      if (bufferBytes < 1) {
        throw new IllegalArgumentException(
            "the buffer must be at least 1 byte, not " + bufferBytes);
      }
      if (maxConnections < 1 || maxConnections > MAX_CONNECTIONS) {
        throw new IllegalArgumentException(
            "the limit of connections must be between 1 and "
                + MAX_CONNECTIONS
                + ", not "
                + maxConnections);
      }
      if (maxPerSource < 1 || maxPerSource > maxConnections) {
        throw new IllegalArgumentException(
            "the limit of connections per address must be between 1 and the limit of connections ("
                + maxConnections
                + "), not "
                + maxPerSource);
      }
      for (Duration d : List.of(connectTimeout, openingTimeout, idleTimeout, halfCloseTimeout)) {
        if (!withinTimeoutBounds(d)) {
          throw new IllegalArgumentException(
              "every timeout must be between "
                  + Texts.duration(MIN_TIMEOUT)
                  + " and "
                  + Texts.duration(MAX_TIMEOUT)
                  + ", not "
                  + Texts.duration(d));
        }
      }
    }

    /**
     * Whether {@code d} is a timeout these options take: {@link #MIN_TIMEOUT} to {@link
     * #MAX_TIMEOUT}.
     */
    public static boolean withinTimeoutBounds(Duration d) {
      return d.compareTo(MIN_TIMEOUT) >= 0 && d.compareTo(MAX_TIMEOUT) <= 0;
    }

    /**
     * 64 KiB per direction; 256 connections, 16 from one address (a compute node runs few debug
     * sessions at once, and it takes 16 hosts to fill the relay); 10 s to connect to the target; 10
     * s for a new connection's first bytes (the front-end protocol gives its whole handshake 10 s:
     * a master that has not started it by then fails anyway); 12 hours without a byte (a debug
     * session may sit a working day while its user reads code: the front-end protocol sends nothing
     * meanwhile); 60 s half-closed (a side that ended its stream is leaving); a line per connection
     * opened and closed (at most {@value Relay#LINES_PER_SOURCE} a minute per address).
     */
    public static Options defaults() {
      return new Options(
          64 * 1024,
          256,
          16,
          Duration.ofSeconds(10),
          Duration.ofSeconds(10),
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
          openingTimeout,
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
          openingTimeout,
          idleTimeout,
          halfCloseTimeout,
          logConnections);
    }

    /** The same with other timeouts for silent, idle and half-closed connections. */
    public Options withTimeouts(Duration opening, Duration idle, Duration halfClosed) {
      return new Options(
          bufferBytes,
          maxConnections,
          maxPerSource,
          connectTimeout,
          opening,
          idle,
          halfClosed,
          logConnections);
    }

    /** The same with another timeout for connecting to the target. */
    public Options withConnectTimeout(Duration connect) {
      return new Options(
          bufferBytes,
          maxConnections,
          maxPerSource,
          connect,
          openingTimeout,
          idleTimeout,
          halfCloseTimeout,
          logConnections);
    }
  }

  private final ServerSocket server;
  private final HostPort target;
  private final InetSocketAddress targetAddress;
  private final Options options;
  private final Consumer<String> log;
  private final RefusalLog refusals;
  private final RateLimitedLog connectionLines;
  private final Thread acceptor;
  private final AtomicLong ids = new AtomicLong();
  private final CountDownLatch closing = new CountDownLatch(1);
  private final CountDownLatch ended = new CountDownLatch(1);

  // Guarded by this: a connection is admitted, and its first thread started, only while open, so
  // that close() sees every thread it must end.
  private final Set<Pair> pairs = new HashSet<>();
  private final Map<InetAddress, Integer> bySource = new HashMap<>();
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
    this.refusals = new RefusalLog(log, System::nanoTime);
    this.connectionLines =
        new RateLimitedLog(
            log,
            LOG_INTERVAL,
            LINES_PER_SOURCE,
            LOG_SOURCES,
            "lines about its connections",
            System::nanoTime);
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
      // The acceptor wakes now and then to write the counts of intervals that are over. Set here,
      // before its thread starts, so that a relay closed at once (tests) has nothing to say.
      server.setSoTimeout((int) FLUSH.toMillis());
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

  /** The connections open now: those in their opening and the pairs. */
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
    Pair.closeQuietly(server);
    join(acceptor);
    for (Pair p : open) {
      p.abort("the relay closed");
    }
    for (Pair p : open) {
      p.join(JOIN);
    }
    connectionLines.flushAll();
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
      } catch (SocketTimeoutException e) {
        connectionLines.flush();
        continue;
      } catch (IOException e) {
        if (isClosed()) {
          return;
        }
        // Too many open files and the like: say so once and try again shortly, rather than spin
        // or give up on the connections to come.
        if (!e.toString().equals(lastError)) {
          lastError = e.toString();
          log.accept("accepting a connection failed: " + Texts.describe(e) + "; still listening");
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

  /** Takes {@code client} as a new pair, or closes it at once when a limit is reached. */
  private void admit(Socket client) {
    InetAddress source = client.getInetAddress();
    String refusal;
    synchronized (this) {
      if (closed) {
        Pair.closeQuietly(client);
        return;
      }
      int fromSource = bySource.getOrDefault(source, 0);
      if (pairs.size() >= options.maxConnections()) {
        refusal = options.maxConnections() + " connections are open already";
      } else if (fromSource >= options.maxPerSource()) {
        refusal = options.maxPerSource() + " connections from its address are open already";
      } else {
        String key = TerminalText.escape(source.getHostAddress());
        Pair pair =
            new Pair(
                ids.incrementAndGet(),
                client,
                target,
                targetAddress,
                options,
                line -> connectionLines.log(key, line),
                this::remove);
        pairs.add(pair);
        bySource.put(source, fromSource + 1);
        pair.start();
        return;
      }
    }
    refusals.refused(Texts.peer(client), refusal);
    Pair.closeQuietly(client);
  }

  private synchronized void remove(Pair pair) {
    if (pairs.remove(pair)) {
      bySource.computeIfPresent(pair.source(), (a, n) -> n == 1 ? null : n - 1);
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
}
