package io.sdmfabric.relay;

import io.sdmfabric.wire.HostPort;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One accepted connection of a {@link Relay} and, once it has sent its first bytes, its own
 * connection to the target. The up thread waits for those bytes (the opening, within {@link
 * Relay.Options#openingTimeout}), dials the target, starts the down thread, then copies client to
 * target, the opening's bytes first; the down thread copies target to client. Each direction's read
 * wakes up now and then to see whether the pair has been idle or half-closed too long. The last
 * thread to end closes both sockets and hands the pair back to the relay, exactly once on every
 * path.
 */
final class Pair {
  /** {@link #halfClosedAt} while neither side has ended its stream. */
  private static final long NOT_HALF_CLOSED = Long.MIN_VALUE;

  /** The bounds of how often a blocked read wakes up to check the timeouts. */
  private static final Duration MIN_POLL = Duration.ofMillis(50);

  private static final Duration MAX_POLL = Duration.ofSeconds(60);

  private final long id;
  private final Socket client;
  private final String from;
  private final InetAddress source;
  private final Socket outbound = new Socket();
  private final HostPort target;
  private final InetSocketAddress targetAddress;
  private final Relay.Options options;
  private final Consumer<String> log;
  private final Consumer<Pair> ended;
  private final Thread up;
  private final Thread down;
  private final AtomicLong upBytes = new AtomicLong();
  private final AtomicLong downBytes = new AtomicLong();
  // The up thread alone until it starts the down thread.
  private final AtomicInteger running = new AtomicInteger(1);
  private final AtomicReference<String> failure = new AtomicReference<>();
  private final AtomicLong lastByte = new AtomicLong();
  private final AtomicLong halfClosedAt = new AtomicLong(NOT_HALF_CLOSED);

  /**
   * @param ended called once, from the pair's last thread, when both sockets are closed
   */
  Pair(
      long id,
      Socket client,
      HostPort target,
      InetSocketAddress targetAddress,
      Relay.Options options,
      Consumer<String> log,
      Consumer<Pair> ended) {
    this.id = id;
    this.client = client;
    this.from = Texts.peer(client);
    this.source = client.getInetAddress();
    this.target = target;
    this.targetAddress = targetAddress;
    this.options = options;
    this.log = log;
    this.ended = ended;
    this.up = new Thread(this::runUp, "sdm-relay-" + id + "-up");
    this.down = new Thread(this::runDown, "sdm-relay-" + id + "-down");
    up.setDaemon(true);
    down.setDaemon(true);
  }

  /** The address the accepted connection came from. */
  InetAddress source() {
    return source;
  }

  void start() {
    up.start();
  }

  /** Closes both sides now, for {@code why}, from another thread. */
  void abort(String why) {
    fail(why);
  }

  /** Waits at most {@code bound} for each of its threads to end, and says so if one does not. */
  void join(Duration bound) {
    // Up first: it is the one that starts down, so once it has ended down has started or never
    // will.
    for (Thread t : new Thread[] {up, down}) {
      try {
        t.join(bound.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (t.isAlive()) {
        log.accept("thread " + t.getName() + " did not end within " + Texts.duration(bound));
      }
    }
  }

  private void runUp() {
    byte[] buffer = new byte[options.bufferBytes()];
    int opening = awaitOpening(buffer);
    if (opening < 0 || !dial()) {
      closeBoth();
      ended.accept(this);
      return;
    }
    if (options.logConnections()) {
      log.accept("#" + id + " open " + from + " -> " + target);
    }
    running.incrementAndGet();
    down.start();
    pump(client, outbound, upBytes, "client", "target", buffer, opening);
  }

  private void runDown() {
    pump(outbound, client, downBytes, "target", "client", new byte[options.bufferBytes()], 0);
  }

  /**
   * Reads the client's first bytes into {@code buffer}, waiting at most the opening timeout.
   *
   * @return how many it read, or -1 when the connection is to be closed (said in the log)
   */
  private int awaitOpening(byte[] buffer) {
    try {
      // Interactive traffic (a debugger's commands and replies) must not wait for Nagle; the relay
      // writes what it read at once, so it coalesces nothing the sender did not.
      client.setTcpNoDelay(true);
      client.setKeepAlive(true);
      client.setSoTimeout(millis(options.openingTimeout()));
      int n = client.getInputStream().read(buffer);
      if (n < 0) {
        if (options.logConnections()) {
          log.accept("#" + id + " from " + from + ": ended before its first byte");
        }
        return -1;
      }
      lastByte.set(System.nanoTime());
      return n;
    } catch (SocketTimeoutException e) {
      log.accept(
          "#"
              + id
              + " from "
              + from
              + ": closed, not a byte within "
              + Texts.duration(options.openingTimeout())
              + " (the target never heard of it)");
      return -1;
    } catch (IOException e) {
      logEarlyEnd(
          ": closed before its first byte", ": failed before its first byte: " + Texts.describe(e));
      return -1;
    }
  }

  /**
   * Logs why the pair ended before it carried anything: {@code closed} with the reason when the
   * relay closed it meanwhile (its failure), {@code failed} otherwise.
   */
  private void logEarlyEnd(String closed, String failed) {
    String aborted = failure.get();
    log.accept(
        "#" + id + " from " + from + (aborted != null ? closed + " (" + aborted + ")" : failed));
  }

  /** Connects to the target; false, said in the log, when it cannot. */
  private boolean dial() {
    try {
      outbound.setTcpNoDelay(true);
      outbound.setKeepAlive(true);
      outbound.connect(targetAddress, millis(options.connectTimeout()));
      return true;
    } catch (IOException e) {
      logEarlyEnd(
          ": closed before " + target + " answered",
          ": cannot reach " + target + ": " + Texts.describe(e));
      return false;
    }
  }

  /**
   * Copies {@code from} to {@code to}, the {@code pending} bytes at the start of {@code buffer}
   * first, until end of stream, passed on as a half-close, or an error or a timeout, which close
   * both sides.
   */
  private void pump(
      Socket from,
      Socket to,
      AtomicLong count,
      String fromName,
      String toName,
      byte[] buffer,
      int pending) {
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      from.setSoTimeout(pollMillis());
      int n = pending;
      while (true) {
        if (n > 0) {
          if (!forward(out, buffer, n, toName)) {
            return;
          }
          count.addAndGet(n);
        }
        try {
          n = in.read(buffer);
        } catch (SocketTimeoutException e) {
          String overdue = overdue();
          if (overdue != null) {
            fail(overdue);
            return;
          }
          n = 0;
          continue;
        } catch (IOException e) {
          fail(fromName + ": " + Texts.describe(e));
          return;
        }
        if (n < 0) {
          break;
        }
        lastByte.set(System.nanoTime());
      }
      halfClosedAt.compareAndSet(NOT_HALF_CLOSED, System.nanoTime());
      to.shutdownOutput();
    } catch (IOException e) {
      fail(toName + ": " + Texts.describe(e));
    } finally {
      if (running.decrementAndGet() == 0) {
        end();
      }
    }
  }

  /** Writes {@code n} bytes of {@code buffer}; false when the pump must stop. */
  private boolean forward(OutputStream out, byte[] buffer, int n, String toName) {
    try {
      out.write(buffer, 0, n);
      return true;
    } catch (IOException e) {
      if (halfClosedAt.get() == NOT_HALF_CLOSED) {
        fail(toName + ": " + Texts.describe(e));
      }
      // Otherwise the side written to had ended its stream and has gone since: what was still on
      // its way to it (a TLS close_notify, say) has no one to read it. A normal end.
      return false;
    }
  }

  /** Why the pair must close now: idle or half-closed for too long; null if neither. */
  private String overdue() {
    long now = System.nanoTime();
    long half = halfClosedAt.get();
    if (half != NOT_HALF_CLOSED && now - half > options.halfCloseTimeout().toNanos()) {
      return "half-closed for more than " + Texts.duration(options.halfCloseTimeout());
    }
    if (now - lastByte.get() > options.idleTimeout().toNanos()) {
      return "idle for more than " + Texts.duration(options.idleTimeout());
    }
    return null;
  }

  /** A quarter of the shorter of the idle and half-close timeouts, within the poll's bounds. */
  private int pollMillis() {
    Duration shorter =
        options.idleTimeout().compareTo(options.halfCloseTimeout()) < 0
            ? options.idleTimeout()
            : options.halfCloseTimeout();
    Duration quarter = shorter.dividedBy(4);
    if (quarter.compareTo(MIN_POLL) < 0) {
      return millis(MIN_POLL);
    }
    return millis(quarter.compareTo(MAX_POLL) > 0 ? MAX_POLL : quarter);
  }

  private void fail(String why) {
    failure.compareAndSet(null, why);
    closeBoth();
  }

  private void end() {
    closeBoth();
    ended.accept(this);
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

  private void closeBoth() {
    closeQuietly(client);
    closeQuietly(outbound);
  }

  /** A socket timeout in milliseconds: at least 1, since 0 would mean none. */
  private static int millis(Duration d) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, d.toMillis()));
  }

  static void closeQuietly(Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // Closing is all that is left to do with it; an error here changes nothing.
    }
  }
}
