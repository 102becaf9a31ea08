package io.sdmfabric.wire;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One deadline for the whole handshake of a connection, TCP connect and TLS included: when it
 * passes before the handshake has been {@linkplain #callOff called off}, the socket is closed,
 * which ends whatever read or write is blocked on it however slowly the other side sends its bytes.
 * A timeout per read cannot do that: a peer that sends a byte now and then renews it forever.
 *
 * <p>One daemon thread serves every deadline of the JVM; a deadline called off leaves its queue at
 * once, so the timer holds no more entries than there are handshakes under way.
 */
final class HandshakeDeadline {
  private static final ScheduledThreadPoolExecutor TIMER = timer();

  /** Which came first; decided once, so that a socket called off is never closed after. */
  private enum State {
    RUNNING,
    PASSED,
    CALLED_OFF
  }

  private final Duration timeout;
  private final AtomicReference<State> state = new AtomicReference<>(State.RUNNING);
  private volatile ScheduledFuture<?> expiry;

  private HandshakeDeadline(Duration timeout) {
    this.timeout = timeout;
  }

  /** Closes {@code socket} {@code timeout} from now unless called off before. */
  static HandshakeDeadline start(Socket socket, Duration timeout) {
    HandshakeDeadline d = new HandshakeDeadline(timeout);
    d.expiry =
        TIMER.schedule(
            () -> {
              if (d.state.compareAndSet(State.RUNNING, State.PASSED)) {
                closeQuietly(socket);
              }
            },
            Math.max(0, timeout.toNanos()),
            TimeUnit.NANOSECONDS);
    return d;
  }

  /** No deadline: for connections whose caller bounds every read itself (tests only). */
  static HandshakeDeadline none() {
    return new HandshakeDeadline(Duration.ZERO);
  }

  /**
   * Calls the deadline off; calling it again changes nothing.
   *
   * @return true when it had not passed: the socket is the caller's for good; false when it passed
   *     and the socket is closed
   */
  boolean callOff() {
    boolean mine =
        state.compareAndSet(State.RUNNING, State.CALLED_OFF) || state.get() == State.CALLED_OFF;
    ScheduledFuture<?> e = expiry;
    if (e != null) {
      e.cancel(false); // leaves the timer's queue at once
    }
    return mine;
  }

  /** Whether the deadline passed (and closed the socket) before it was called off. */
  boolean passed() {
    return state.get() == State.PASSED;
  }

  /** The failure to report when the deadline passed. */
  Handshake.DeadlineException failure() {
    return new Handshake.DeadlineException(
        "the handshake did not end within " + timeout.toMillis() + " ms");
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // Closed is closed.
    }
  }

  private static ScheduledThreadPoolExecutor timer() {
    ScheduledThreadPoolExecutor t =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread thread = new Thread(r, "front-end-handshake-deadlines");
              thread.setDaemon(true);
              return thread;
            });
    t.setRemoveOnCancelPolicy(true);
    return t;
  }
}
