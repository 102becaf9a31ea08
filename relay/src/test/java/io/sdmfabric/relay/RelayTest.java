package io.sdmfabric.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.relay.BytePattern.Received;
import io.sdmfabric.wire.HostPort;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Relay} on loopback, with real sockets: data both ways on many connections, half-closes, a
 * target that is down, closing the relay, back-pressure, the limits; and attacks on its slots: many
 * idle connections from one address (127.0.0.2) beside a real session, a silent connection, idle
 * and half-closed pairs. Every wait has a bound; every socket and thread is closed after each test,
 * also when it fails.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RelayTest {
  private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
  private static final Duration BOUND = Duration.ofSeconds(60);
  private static final int MiB = 1024 * 1024;

  /** A timeout no test reaches: what the defence under test does not rely on. */
  private static final Duration LONG = Duration.ofHours(1);

  /** A client's first byte, after which the relay dials the target. */
  private static final int OPENING = 0x16;

  private final ExecutorService pool = Executors.newCachedThreadPool();
  private final List<Closeable> open = new CopyOnWriteArrayList<>();
  private final List<Throwable> serverErrors = new CopyOnWriteArrayList<>();
  private final BlockingQueue<String> log = new LinkedBlockingQueue<>();
  private final AtomicInteger targetAccepted = new AtomicInteger();
  private Relay relay;

  @AfterEach
  void closeEverything() throws Exception {
    if (relay != null) {
      relay.close();
    }
    // Closing the sockets ends the test's own threads blocked on them.
    for (Closeable c : open) {
      try {
        c.close();
      } catch (IOException e) {
        // Already broken: closed is what we want.
      }
    }
    pool.shutdownNow();
    assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "the test's threads did not end");
    assertEquals(List.of(), relayThreads(), "threads of the relay left after close()");
  }

  @Test
  void manyConnectionsAtOnceCarryDataBothWaysCompleteAndInOrder() throws Exception {
    int connections = 32;
    int size = 4 * MiB;
    Map<Long, Ends> servers = new ConcurrentHashMap<>();
    ServerSocket target =
        serve(
            s -> {
              InputStream in = s.getInputStream();
              byte[] head = in.readNBytes(Long.BYTES);
              long seed = ByteBuffer.wrap(head).getLong();
              Future<String> sent =
                  pool.submit(() -> sendAndShutdown(s, reply(seed), size, s.getOutputStream()));
              Received got = Received.readAll(in, head);
              servers.put(seed, new Ends(sent.get(), got));
            });
    relayTo(target.getLocalPort());
    List<Future<Ends>> clients = new ArrayList<>();
    for (long seed = 1; seed <= connections; seed++) {
      long s = seed;
      clients.add(
          pool.submit(
              () -> {
                Socket c = connect();
                Future<String> sent =
                    pool.submit(() -> sendAndShutdown(c, s, size, c.getOutputStream()));
                Received got = Received.readAll(c.getInputStream(), new byte[0]);
                return new Ends(sent.get(), got);
              }));
    }
    for (int i = 0; i < connections; i++) {
      long seed = i + 1;
      Ends client = clients.get(i).get(BOUND.toSeconds(), TimeUnit.SECONDS);
      await(() -> servers.containsKey(seed), "the server's end of connection " + seed);
      Ends server = servers.get(seed);
      assertEquals(size, server.received().bytes(), "bytes the target got on " + seed);
      assertEquals(client.sent(), server.received().digest(), "what the target got on " + seed);
      assertEquals(size, client.received().bytes(), "bytes the client got on " + seed);
      assertEquals(server.sent(), client.received().digest(), "what the client got on " + seed);
      assertEquals(BytePattern.digest(reply(seed), size), client.received().digest());
    }
    await(() -> relay.connections() == 0, "every pair closed");
    relay.close(); // which writes the count of the lines not shown
    // All from one address: the first lines in full, the others counted.
    String closed = "closed: " + size + " bytes to the target, " + size + " back";
    assertTrue(
        log.stream().noneMatch(l -> l.contains(" closed: ") && !l.endsWith(closed)),
        log.toString());
    assertEquals(2 * connections, linesShownOrCounted(), log.toString());
    assertEquals(List.of(), serverErrors);
  }

  /**
   * 2,000 connections, one after the other as fast as they go, each one byte there and closed (the
   * relay used to write two lines for each, 297 a second): the log stays within the lines the rate
   * limit allows for the time it took, holds no control character, and counts the lines it did not
   * show.
   */
  @Test
  void connectionChurnWritesABoundedLogThatCountsTheLinesItDoesNotShow() throws Exception {
    int connections = 2000;
    ServerSocket target =
        serve(
            s -> {
              s.getInputStream().read();
              s.close();
            });
    relayTo(target.getLocalPort());
    long start = System.nanoTime();
    for (int i = 0; i < connections; i++) {
      Socket c = connect();
      c.getOutputStream().write(OPENING);
      assertEnded(c, "connection " + i);
      c.close();
      open.remove(c);
    }
    await(() -> relay.connections() == 0, "every pair closed");
    relay.close();
    long intervals = 1 + (System.nanoTime() - start) / Relay.LOG_INTERVAL.toNanos();
    // One address: per interval its first lines and a count; the rest of the log is a few lines.
    long allowed = intervals * (Relay.LINES_PER_SOURCE + 1);
    assertTrue(log.size() <= allowed, log.size() + " lines, over " + allowed + ": " + log);
    long bytes = log.stream().mapToLong(l -> l.length() + 1).sum();
    assertTrue(bytes <= allowed * 160, bytes + " bytes: " + log);
    assertTrue(
        log.stream().allMatch(l -> l.chars().noneMatch(ch -> ch < 0x20 || ch == 0x7f)),
        log.toString());
    assertEquals(2 * connections, linesShownOrCounted(), "open and closed each: " + log);
    assertTrue(
        log.stream()
            .anyMatch(
                l ->
                    l.matches(
                        "127\\.0\\.0\\.1: \\d+ more lines about its connections not shown \\(at"
                            + " most 6 lines per source every 60 s\\)")),
        log.toString());
  }

  /** The lines about connections in the log, those shown and those it counted. */
  private long linesShownOrCounted() {
    long n = 0;
    for (String l : log) {
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile(": (\\d+) more lines about its connections").matcher(l);
      if (m.find()) {
        n += Long.parseLong(m.group(1));
      } else if (l.startsWith("#")) {
        n++;
      }
    }
    return n;
  }

  @Test
  void aClientThatShutsDownItsOutputStillReceivesTheWholeReply() throws Exception {
    int request = MiB;
    int reply = 3 * MiB;
    BlockingQueue<Received> requests = new LinkedBlockingQueue<>();
    ServerSocket target =
        serve(
            s -> {
              // The reply goes out only after the request's end has arrived, as a half-close.
              requests.add(Received.readAll(s.getInputStream(), new byte[0]));
              sendAndShutdown(s, 2, reply, s.getOutputStream());
              s.close();
            });
    relayTo(target.getLocalPort());
    Socket c = connect();
    String sent = sendAndShutdown(c, 1, request, c.getOutputStream());
    Received got = Received.readAll(c.getInputStream(), new byte[0]);
    Received atTarget = requests.poll(BOUND.toSeconds(), TimeUnit.SECONDS);
    assertNotNull(atTarget, "the target never saw the end of the request");
    assertEquals(new Received(request, sent), atTarget);
    assertEquals(new Received(reply, BytePattern.digest(2, reply)), got);
    await(() -> relay.connections() == 0, "the pair closed");
    assertEquals(List.of(), serverErrors);
  }

  @Test
  void aTargetThatShutsDownItsOutputStillReceivesTheWholeRequest() throws Exception {
    int greeting = 3 * MiB;
    int request = MiB;
    BlockingQueue<Received> requests = new LinkedBlockingQueue<>();
    ServerSocket target =
        serve(
            s -> {
              // The client's opening byte (the relay dials only once it has it), then a greeting.
              InputStream in = s.getInputStream();
              assertEquals(OPENING, in.read(), "the client's opening byte");
              sendAndShutdown(s, 3, greeting, s.getOutputStream());
              requests.add(Received.readAll(in, new byte[0]));
              s.close();
            });
    relayTo(target.getLocalPort());
    Socket c = connect();
    c.getOutputStream().write(OPENING);
    // The client writes its request only after the greeting's end has arrived, as a half-close.
    Received got = Received.readAll(c.getInputStream(), new byte[0]);
    assertEquals(new Received(greeting, BytePattern.digest(3, greeting)), got);
    String sent = sendAndShutdown(c, 4, request, c.getOutputStream());
    Received atTarget = requests.poll(BOUND.toSeconds(), TimeUnit.SECONDS);
    assertNotNull(atTarget, "the target never saw the end of the request");
    assertEquals(new Received(request, sent), atTarget);
    await(() -> relay.connections() == 0, "the pair closed");
    assertEquals(List.of(), serverErrors);
  }

  @Test
  void aTargetThatIsDownGetsTheClientsConnectionClosedAtOnceWithTheReasonLogged() throws Exception {
    int port;
    try (ServerSocket gone = new ServerSocket(0, 1, LOOPBACK)) {
      port = gone.getLocalPort();
    }
    relayTo(port);
    Socket c = connect();
    // The relay dials the target once the client has sent its first bytes.
    c.getOutputStream().write(OPENING);
    try {
      assertEquals(-1, c.getInputStream().read(), "the client's connection should end");
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the client's connection was still open after " + BOUND, e);
    } catch (IOException e) {
      // Reset rather than closed: ended either way.
    }
    await(
        () -> log.stream().anyMatch(l -> l.contains("cannot reach 127.0.0.1:" + port + ": ")),
        "a line saying the target cannot be reached");
    await(() -> relay.connections() == 0, "no pair left");
  }

  @Test
  void closingTheRelayClosesEveryForwardedConnectionAndStopsListening() throws Exception {
    int connections = 8;
    BlockingQueue<Socket> atTarget = new LinkedBlockingQueue<>();
    ServerSocket target =
        serve(
            s -> {
              atTarget.add(s);
              s.getOutputStream().write(s.getInputStream().read());
            });
    relayTo(target.getLocalPort());
    List<Socket> clients = new ArrayList<>();
    for (int i = 0; i < connections; i++) {
      Socket c = connect();
      c.getOutputStream().write(i);
      assertEquals(i, c.getInputStream().read(), "the echo through connection " + i);
      clients.add(c);
    }
    assertEquals(connections, relay.connections());
    InetSocketAddress address = relay.address();
    relay.close();
    assertEquals(List.of(), relayThreads(), "close() returned with threads of the relay running");
    assertEquals(0, relay.connections());
    for (Socket c : clients) {
      assertEnded(c, "a client's connection");
    }
    for (int i = 0; i < connections; i++) {
      Socket s = atTarget.poll(BOUND.toSeconds(), TimeUnit.SECONDS);
      assertNotNull(s, "the target accepted fewer connections than the clients made");
      s.setSoTimeout((int) BOUND.toMillis());
      assertEnded(s, "the target's connection");
    }
    try (Socket late = new Socket()) {
      assertThrows(ConnectException.class, () -> late.connect(address, 10_000));
    }
    relay.close();
    assertEquals(List.of(), serverErrors);
  }

  @Test
  void connectionsBeyondTheLimitAreClosedAtOnceAndTheOthersGoOn() throws Exception {
    ServerSocket target = serve(s -> s.getOutputStream().write(s.getInputStream().read()));
    relay =
        Relay.start(
            new InetSocketAddress(LOOPBACK, 0),
            new HostPort(LOOPBACK.getHostAddress(), target.getLocalPort()),
            Relay.Options.defaults().withLimits(2, 2),
            log::add);
    List<Socket> admitted = List.of(connect(), connect());
    for (int i = 0; i < admitted.size(); i++) {
      admitted.get(i).getOutputStream().write(i);
      assertEquals(i, admitted.get(i).getInputStream().read(), "the echo through connection " + i);
    }
    Socket third = connect();
    assertEnded(third, "the connection beyond the limit");
    await(
        () -> log.stream().anyMatch(l -> l.contains("2 connections are open already")),
        "a line saying why the third was refused");
    assertEquals(2, relay.connections());
    assertEquals(List.of(), serverErrors);
  }

  /**
   * Writes without blocking into a relay whose target never reads, until the way is full: no
   * progress while the writer waits {@code QUIET} for room. What it wrote then is what the socket
   * buffers on the way and the relay's own buffer hold; a relay that queued without bound would
   * take all of {@code cap}. Then the target reads, and every byte arrives, in order.
   */
  @Test
  void aTargetThatDoesNotReadStopsTheWriterAfterABoundedAmount() throws Exception {
    long cap = 512L * MiB;
    // The most the kernel lets the four socket buffers on the way hold (the writer's send buffer,
    // the relay's receive and send buffers, the target's receive buffer: two of each kind at
    // their tuning maximum) plus the relay's own 64 KiB and as much again for slack. Measured
    // here: 8-9 MiB of a bound of 72 MiB; a relay that queues takes all of `cap`.
    long bound = 2 * (maxBuffer("tcp_rmem") + maxBuffer("tcp_wmem")) + 2 * 64 * 1024;
    Duration quiet = Duration.ofSeconds(2);
    BlockingQueue<Socket> atTarget = new LinkedBlockingQueue<>();
    ServerSocket target = serve(atTarget::add);
    relayTo(target.getLocalPort());

    SocketChannel channel = SocketChannel.open(relay.address());
    open.add(channel);
    channel.configureBlocking(false);
    BytePattern pattern = new BytePattern(5);
    // Filled (and digested) only once all of it is written, so the digest is of what went out.
    ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
    chunk.position(chunk.limit());
    long written = 0;
    try (Selector selector = Selector.open()) {
      channel.register(selector, SelectionKey.OP_WRITE);
      while (written < cap) {
        if (!chunk.hasRemaining()) {
          chunk.clear();
          pattern.fill(chunk.array(), 0, chunk.capacity());
        }
        int n = channel.write(chunk);
        written += n;
        if (n == 0) {
          selector.selectedKeys().clear();
          if (selector.select(quiet.toMillis()) == 0) {
            break;
          }
        }
      }
    }
    System.out.printf(
        "the way held %.1f MiB (bound %.1f MiB)%n", written / 1.0 / MiB, bound / 1.0 / MiB);
    assertTrue(
        written < bound,
        "the writer was never held back: it wrote "
            + written
            + " bytes into a target that reads nothing (bound "
            + bound
            + ")");

    // Now the target reads: the writer goes on, and what arrives is exactly what was written.
    Socket s = atTarget.poll(BOUND.toSeconds(), TimeUnit.SECONDS);
    assertNotNull(s, "the target never got the connection");
    s.setSoTimeout((int) BOUND.toMillis());
    Future<Received> reading = pool.submit(() -> Received.readAll(s.getInputStream(), new byte[0]));
    channel.configureBlocking(true);
    long end = written + 4 * MiB;
    while (written < end || chunk.hasRemaining()) {
      if (!chunk.hasRemaining()) {
        chunk.clear();
        pattern.fill(chunk.array(), 0, chunk.capacity());
      }
      written += channel.write(chunk);
    }
    channel.shutdownOutput();
    Received got = reading.get(BOUND.toSeconds(), TimeUnit.SECONDS);
    assertEquals(new Received(written, pattern.digest()), got);
  }

  // ------------------------------------------------------------------------------------ attacks
  // Each attack runs against a relay whose other timeouts are LONG, so that only the defence
  // under test can end what the attacker holds, and the test fails without it.

  /**
   * One host opens five times the relay's slots and says a byte on each, so every connection it
   * gets admitted is a real pair to the target that then sits idle. Without a limit per address it
   * would hold all 8 slots and the real session below would be closed at once.
   */
  @Test
  void manyIdleConnectionsFromOneAddressCannotKeepARealSessionOut() throws Exception {
    int slots = 8;
    int perSource = 4;
    relayTo(
        echo().getLocalPort(),
        Relay.Options.defaults().withLimits(slots, perSource).withTimeouts(LONG, LONG, LONG));
    InetAddress attacker = InetAddress.getByName("127.0.0.2");
    List<Socket> held = new ArrayList<>();
    int refused = 0;
    for (int i = 0; i < 5 * slots; i++) {
      Socket s = new Socket(relay.address().getAddress(), relay.address().getPort(), attacker, 0);
      open.add(s);
      s.setSoTimeout((int) BOUND.toMillis());
      if (echoes(s, i)) {
        held.add(s);
      } else {
        refused++;
      }
    }
    assertEquals(perSource, held.size(), "the attacker's connections the relay kept");
    assertEquals(5 * slots - perSource, refused, "the attacker's connections the relay refused");
    assertTrue(
        log.stream().anyMatch(l -> l.contains("4 connections from its address are open already")),
        log.toString());

    // A real session, from another address, while the attacker holds all it may and says nothing.
    Socket real = connect();
    assertEquals(InetAddress.getByName("127.0.0.1"), real.getLocalAddress());
    real.getOutputStream().write("ping".getBytes(StandardCharsets.US_ASCII));
    assertEquals(
        "ping", new String(real.getInputStream().readNBytes(4), StandardCharsets.US_ASCII));
    assertEquals(perSource + 1, relay.connections());
    // The attacker's pairs are still there (nothing timed out): the limit let the session in.
    for (int i = 0; i < held.size(); i++) {
      assertTrue(echoes(held.get(i), 100 + i), "the attacker's connection " + i + " is still open");
    }
  }

  @Test
  void aConnectionThatSendsNothingIsClosedAtTheOpeningDeadlineAndNeverReachesTheTarget()
      throws Exception {
    relayTo(
        echo().getLocalPort(),
        Relay.Options.defaults().withTimeouts(Duration.ofMillis(500), LONG, LONG));
    Socket silent = connect();
    assertEnded(silent, "a connection that sent nothing");
    await(
        () -> log.stream().anyMatch(l -> l.contains("closed, not a byte within 500 ms")),
        "a line saying why the silent connection was closed");
    await(() -> relay.connections() == 0, "no pair left");
    // The target accepts in order: had the relay dialled it for the silent connection, that one
    // would have been accepted before the real one, whose echo comes back only once accepted.
    Socket real = connect();
    assertTrue(echoes(real, 'r'), "a real session after the silent one");
    assertEquals(1, targetAccepted.get(), "connections the target accepted");
  }

  @Test
  void aPairThatCarriesNothingForTheIdleTimeoutIsClosed() throws Exception {
    relayTo(
        echo().getLocalPort(),
        Relay.Options.defaults().withTimeouts(LONG, Duration.ofMillis(500), LONG));
    Socket idle = connect();
    assertTrue(echoes(idle, 'x'), "the echo before the pair goes quiet");
    assertEnded(idle, "a pair idle past its timeout");
    await(() -> relay.connections() == 0, "no pair left");
    await(
        () -> log.stream().anyMatch(l -> l.endsWith("(idle for more than 500 ms)")),
        "a line saying the pair was idle");
  }

  /** The client ends its stream; the target never closes its side. */
  @Test
  void aPairTheClientHalfClosedIsClosedAfterTheHalfCloseTimeout() throws Exception {
    relayTo(
        echo().getLocalPort(),
        Relay.Options.defaults().withTimeouts(LONG, LONG, Duration.ofMillis(500)));
    Socket half = connect();
    assertTrue(echoes(half, 'y'), "the echo before the half-close");
    half.shutdownOutput();
    assertEnded(half, "a pair half-closed past its timeout");
    await(() -> relay.connections() == 0, "no pair left");
    await(
        () -> log.stream().anyMatch(l -> l.endsWith("(half-closed for more than 500 ms)")),
        "a line saying the pair stayed half-closed");
  }

  /** The target ends its stream; the client never closes its side. */
  @Test
  void aPairTheTargetHalfClosedIsClosedAfterTheHalfCloseTimeout() throws Exception {
    BlockingQueue<Integer> targetSaw = new LinkedBlockingQueue<>();
    ServerSocket target =
        serve(
            s -> {
              InputStream in = s.getInputStream();
              s.getOutputStream().write(in.read());
              s.shutdownOutput();
              // Reads on, without closing: only the relay can end this connection.
              int end;
              try {
                end = in.read();
              } catch (SocketException e) {
                end = -1; // reset rather than closed: ended either way
              }
              targetSaw.add(end);
            });
    relayTo(
        target.getLocalPort(),
        Relay.Options.defaults().withTimeouts(LONG, LONG, Duration.ofMillis(500)));
    Socket c = connect();
    c.getOutputStream().write('z');
    assertEquals('z', c.getInputStream().read());
    assertEquals(-1, c.getInputStream().read(), "the target's half-close, passed on");
    Integer end = targetSaw.poll(BOUND.toSeconds(), TimeUnit.SECONDS);
    assertEquals(-1, end, "the target's connection ending: the relay closed the pair");
    await(() -> relay.connections() == 0, "no pair left");
    await(
        () -> log.stream().anyMatch(l -> l.endsWith("(half-closed for more than 500 ms)")),
        "a line saying the pair stayed half-closed");
    assertEquals(List.of(), serverErrors);
  }

  @Test
  void optionsOutsideTheirBoundsAreRefused() {
    Relay.Options d = Relay.Options.defaults();
    for (Runnable bad :
        List.<Runnable>of(
            () -> d.withLimits(0, 1),
            () -> d.withLimits(Relay.Options.MAX_CONNECTIONS + 1, 1),
            () -> d.withLimits(8, 0),
            () -> d.withLimits(8, 9),
            () -> d.withTimeouts(Duration.ZERO, LONG, LONG),
            () -> d.withTimeouts(LONG, Duration.ofNanos(999_999), LONG),
            () -> d.withTimeouts(LONG, LONG, Duration.ofSeconds(-1)),
            () -> d.withConnectTimeout(Relay.Options.MAX_TIMEOUT.plusMillis(1)))) {
      assertThrows(IllegalArgumentException.class, bad::run);
    }
    // The bounds themselves are taken.
    d.withLimits(Relay.Options.MAX_CONNECTIONS, Relay.Options.MAX_CONNECTIONS);
    d.withLimits(1, 1);
    d.withTimeouts(Relay.Options.MIN_TIMEOUT, Relay.Options.MAX_TIMEOUT, LONG);
  }

  // ---------------------------------------------------------------------------------- helpers

  /** What a server does with each connection it accepts, on a thread of its own. */
  private interface Handler {
    void handle(Socket s) throws Exception;
  }

  /** A server on loopback handing each connection to {@code handler}; errors are kept. */
  private ServerSocket serve(Handler handler) throws IOException {
    ServerSocket server = new ServerSocket(0, 128, LOOPBACK);
    open.add(server);
    pool.submit(
        (Callable<Void>)
            () -> {
              while (!server.isClosed()) {
                Socket s = server.accept();
                open.add(s);
                targetAccepted.incrementAndGet();
                s.setSoTimeout((int) BOUND.toMillis());
                pool.submit(
                    () -> {
                      try {
                        handler.handle(s);
                      } catch (Exception e) {
                        serverErrors.add(e);
                      }
                    });
              }
              return null;
            });
    return server;
  }

  /** A relay to {@code port} with the default options but for the limit per address. */
  private void relayTo(int port) throws IOException {
    // Every connection of these tests comes from loopback: one address.
    relayTo(port, Relay.Options.defaults().withLimits(256, 256));
  }

  private void relayTo(int port, Relay.Options options) throws IOException {
    relay =
        Relay.start(
            new InetSocketAddress(LOOPBACK, 0),
            new HostPort(LOOPBACK.getHostAddress(), port),
            options,
            log::add);
  }

  /** An echo server: each connection gets back what it sent, until it closes. */
  private ServerSocket echo() throws IOException {
    return serve(
        s -> {
          InputStream in = s.getInputStream();
          OutputStream out = s.getOutputStream();
          for (int b; (b = in.read()) >= 0; ) {
            out.write(b);
            out.flush();
          }
        });
  }

  /** A connection to the relay whose reads give up after {@link #BOUND}. */
  private Socket connect() throws IOException {
    Socket s = new Socket();
    open.add(s);
    s.connect(relay.address(), (int) BOUND.toMillis());
    s.setSoTimeout((int) BOUND.toMillis());
    return s;
  }

  /**
   * Whether {@code s} carries {@code b} there and back, false when the relay closed it (before or
   * after the byte was written).
   */
  private static boolean echoes(Socket s, int b) throws IOException {
    try {
      s.getOutputStream().write(b);
      int got = s.getInputStream().read();
      if (got < 0) {
        return false;
      }
      assertEquals(b & 0xff, got, "the echo");
      return true;
    } catch (SocketTimeoutException e) {
      throw new AssertionError("neither an echo nor an end within " + BOUND, e);
    } catch (IOException e) {
      return false; // reset: refused
    }
  }

  private static void assertEnded(Socket s, String what) throws IOException {
    try {
      assertEquals(-1, s.getInputStream().read(), what + " should have ended");
    } catch (SocketTimeoutException e) {
      throw new AssertionError(what + " was still open after " + BOUND, e);
    } catch (IOException e) {
      // Reset rather than closed: ended either way.
    }
  }

  private static List<String> relayThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("sdm-relay") && t.isAlive())
        .map(Thread::getName)
        .toList();
  }

  /** Waits at most {@link #BOUND} for {@code condition}. */
  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + BOUND.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + BOUND + ": " + what);
      }
      TimeUnit.MILLISECONDS.sleep(10);
    }
  }

  /** The largest buffer the kernel gives a TCP socket that tunes its own ({@code tcp_rmem}...). */
  private static long maxBuffer(String sysctl) throws IOException {
    // Files.readString trusts the size /proc reports and returns a piece of the file.
    try (InputStream in = Files.newInputStream(Path.of("/proc/sys/net/ipv4", sysctl))) {
      String[] values =
          new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim().split("\\s+");
      return Long.parseLong(values[2]);
    }
  }

  /** The seed of the reply to a stream of seed {@code seed}. */
  private static long reply(long seed) {
    return seed + 1_000_000;
  }

  /** What each end of a connection sent (its digest) and received. */
  private record Ends(String sent, Received received) {}

  /**
   * Writes {@code size} bytes of the pattern of {@code seed} in pieces of random sizes, half-closes
   * the socket, and returns their digest.
   */
  private static String sendAndShutdown(Socket s, long seed, long size, OutputStream out)
      throws IOException {
    BytePattern pattern = new BytePattern(seed);
    SplittableRandom sizes = new SplittableRandom(~seed);
    byte[] buffer = new byte[32 * 1024];
    for (long left = size; left > 0; ) {
      int n = (int) Math.min(left, 1 + sizes.nextInt(buffer.length));
      pattern.fill(buffer, 0, n);
      out.write(buffer, 0, n);
      left -= n;
    }
    out.flush();
    s.shutdownOutput();
    return pattern.digest();
  }
}
