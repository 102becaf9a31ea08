package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Progress;
import io.sdmfabric.wire.proto.Role;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One deadline for a connection's whole handshake, TLS included, on the side that dials as on the
 * side that accepts: a peer that sends its bytes slowly enough to renew any timeout per read is
 * still cut at the deadline, and a handshake that succeeded in time is not.
 */
class HandshakeDeadlineTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final SessionSecret SECRET = SessionSecret.random();

  private ServerSocket server;
  private ScheduledExecutorService scheduler;

  @BeforeEach
  void listen() throws IOException {
    server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
    scheduler = Executors.newSingleThreadScheduledExecutor();
  }

  @AfterEach
  void close() throws IOException {
    scheduler.shutdownNow();
    server.close();
  }

  private CompletableFuture<FrameConnection> dial(Duration timeout) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return FrameConnection.dial("127.0.0.1", server.getLocalPort(), timeout);
          } catch (IOException e) {
            throw new CompletionException(e);
          }
        });
  }

  /** A whole connection, handshake and all, so that TLS's classes are loaded and warm. */
  private void warmUp() throws Exception {
    CompletableFuture<FrameConnection> dialed = dial(WAIT);
    try (FrameConnection answerer = FrameConnection.accept(server.accept(), WAIT);
        FrameConnection dialer = dialed.get(20, TimeUnit.SECONDS)) {
      dialer.authenticated();
      answerer.authenticated();
    }
  }

  @Test
  void aDialerIsCutAtItsDeadlineHoweverSlowlyTheAnswererSendsItsTlsBytes() throws Exception {
    CompletableFuture<FrameConnection> dialed = dial(Duration.ofSeconds(2));
    try (Socket answerer = server.accept()) {
      // A TLS handshake record of 16 KiB announced, then its bytes one every 20 ms: every read
      // gets a byte long before any timeout per read, and the record is never whole.
      byte[] header = {0x16, 0x03, 0x03, 0x40, 0x00, 0x02};
      AtomicInteger sent = new AtomicInteger();
      OutputStream out = answerer.getOutputStream();
      scheduler.scheduleAtFixedRate(
          () -> {
            int i = sent.getAndIncrement();
            try {
              out.write(i < header.length ? header[i] : 0);
              out.flush();
            } catch (IOException e) {
              throw new UncheckedIOException(e); // closed: the trickle ends
            }
          },
          0,
          20,
          TimeUnit.MILLISECONDS);
      ExecutionException e =
          assertThrows(ExecutionException.class, () -> dialed.get(60, TimeUnit.SECONDS));
      assertInstanceOf(Handshake.DeadlineException.class, e.getCause(), e.getCause().toString());
      assertTrue(
          e.getCause().getMessage().contains("the handshake did not end within 2000 ms"),
          e.getCause().getMessage());
    }
  }

  @Test
  void aConnectionNotAuthenticatedByItsDeadlineIsClosedAfterTls() throws Exception {
    warmUp();
    CompletableFuture<FrameConnection> dialed = dial(Duration.ofSeconds(2));
    try (FrameConnection answerer = FrameConnection.accept(server.accept(), WAIT)) {
      FrameConnection dialer = dialed.get(20, TimeUnit.SECONDS);
      // TLS is done; the answerer says nothing. The read would wait 60 s; the deadline ends it.
      assertThrows(Handshake.DeadlineException.class, () -> dialer.read(Duration.ofSeconds(60)));
      assertThrows(Handshake.DeadlineException.class, dialer::authenticated);
      assertTrue(dialer.isClosed());
    }
  }

  @Test
  void aHandshakeThatSucceededInTimeOutlivesItsDeadline() throws Exception {
    CompletableFuture<FrameConnection> dialed = dial(WAIT);
    FrameConnection answerer = FrameConnection.accept(server.accept(), Duration.ofSeconds(2));
    CompletableFuture<String> answered =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return Handshake.answer(
                    answerer, Role.ROLE_FRONT_END, s -> Optional.of(SECRET), WAIT);
              } catch (IOException e) {
                throw new CompletionException(e);
              }
            });
    try (FrameConnection dialer = dialed.get(20, TimeUnit.SECONDS)) {
      Handshake.dial(dialer, Role.ROLE_MASTER, "job-1", SECRET, WAIT);
      assertEquals("job-1", answered.get(20, TimeUnit.SECONDS));
      // Well after the answerer's deadline of 2 s, the connection still carries frames.
      scheduler.schedule(
          () -> {
            answerer.write(
                Frame.newBuilder().setProgress(Progress.newBuilder().setText("later")).build());
            return null;
          },
          3,
          TimeUnit.SECONDS);
      assertEquals("later", dialer.read(Duration.ofSeconds(30)).getProgress().getText());
    } finally {
      answerer.close();
    }
  }
}
