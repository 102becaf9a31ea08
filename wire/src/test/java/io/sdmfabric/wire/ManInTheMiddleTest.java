package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.wire.proto.Bye;
import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Progress;
import io.sdmfabric.wire.proto.Role;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A hop on the path of the front-end protocol (a relay, a router) that is hostile: it forwards the
 * handshake, then injects, alters or replays bytes; or it terminates TLS on both sides with
 * certificates of its own and relays the handshake's frames. Every time the connection is refused
 * or ended, and the side that was attacked is told why; nothing it sent arrives as a frame.
 */
class ManInTheMiddleTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final SessionSecret SECRET = SessionSecret.random();

  /** What a started connection heard. */
  private record Heard(BlockingQueue<Frame> frames, CompletableFuture<String> closed)
      implements FrameConnection.Listener {
    Heard() {
      this(new LinkedBlockingQueue<>(), new CompletableFuture<>());
    }

    @Override
    public void frame(Frame frame) {
      frames.add(frame);
    }

    @Override
    public void closed(String reason) {
      closed.complete(reason);
    }
  }

  /**
   * Forwards bytes both ways between a dialer and {@code target}; what goes from the dialer to the
   * target passes through {@code tamper} once {@code armed} completes.
   */
  private static final class Proxy implements AutoCloseable {
    final ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    final CompletableFuture<Void> armed = new CompletableFuture<>();
    final ByteArrayOutputStream seen = new ByteArrayOutputStream();
    private Socket in;
    private Socket out;

    Proxy(int target, UnaryOperator<byte[]> tamper) throws IOException {
      Thread t =
          new Thread(
              () -> {
                try {
                  in = server.accept();
                  out = new Socket(InetAddress.getLoopbackAddress(), target);
                  pump(out.getInputStream(), in.getOutputStream(), UnaryOperator.identity());
                  pump(in.getInputStream(), out.getOutputStream(), tamper);
                } catch (IOException e) {
                  // The test's own assertions tell what went wrong.
                }
              });
      t.setDaemon(true);
      t.start();
    }

    private void pump(InputStream from, OutputStream to, UnaryOperator<byte[]> tamper) {
      Thread t =
          new Thread(
              () -> {
                byte[] buffer = new byte[16384];
                try {
                  for (int n; (n = from.read(buffer)) > 0; ) {
                    byte[] chunk = java.util.Arrays.copyOf(buffer, n);
                    if (armed.isDone()) {
                      chunk = tamper.apply(chunk);
                    } else {
                      synchronized (seen) {
                        seen.writeBytes(chunk);
                      }
                    }
                    to.write(chunk);
                    to.flush();
                  }
                } catch (IOException e) {
                  // One side closed: the other learns it from its own socket.
                }
              });
      t.setDaemon(true);
      t.start();
    }

    int port() {
      return server.getLocalPort();
    }

    @Override
    public void close() throws IOException {
      server.close();
      if (in != null) {
        in.close();
      }
      if (out != null) {
        out.close();
      }
    }
  }

  /** An answerer in its own thread, started once authenticated, hearing into {@code heard}. */
  private static CompletableFuture<FrameConnection> answerer(ServerSocket server, Heard heard) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            FrameConnection c = FrameConnection.accept(server.accept(), WAIT);
            Handshake.answer(c, Role.ROLE_FRONT_END, s -> Optional.of(SECRET), WAIT);
            c.start(heard, "answerer");
            return c;
          } catch (IOException e) {
            throw new CompletionException(e);
          }
        });
  }

  private static Frame progress(String text) {
    return Frame.newBuilder().setProgress(Progress.newBuilder().setText(text)).build();
  }

  /** Runs a session through a proxy that tampers with the dialer's bytes after the handshake. */
  private static Heard attacked(UnaryOperator<byte[]> tamper) throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Heard heard = new Heard();
      CompletableFuture<FrameConnection> answered = answerer(server, heard);
      try (Proxy proxy = new Proxy(server.getLocalPort(), tamper)) {
        FrameConnection dialer = FrameConnection.dial("127.0.0.1", proxy.port(), WAIT);
        Handshake.dial(dialer, Role.ROLE_MASTER, "job-1", SECRET, WAIT);
        answered.get(10, TimeUnit.SECONDS);
        dialer.start(new Heard(), "dialer");
        dialer.send(progress("before"));
        assertEquals("before", heard.frames().poll(10, TimeUnit.SECONDS).getProgress().getText());
        proxy.armed.complete(null);
        dialer.send(progress("after"));
        heard.closed().get(10, TimeUnit.SECONDS);
        dialer.close();
        return heard;
      }
    }
  }

  @Test
  void aByteAlteredAfterTheHandshakeEndsTheConnectionAndNothingAlteredArrives() throws Exception {
    Heard heard =
        attacked(
            chunk -> {
              chunk[chunk.length - 1] ^= 1;
              return chunk;
            });
    assertTrue(heard.closed().get().startsWith("connection lost"), heard.closed().get());
    assertTrue(heard.frames().isEmpty(), heard.frames().toString());
  }

  @Test
  void aFrameInjectedInClearEndsTheConnectionAndIsNeverDelivered() throws Exception {
    Frame bye = Frame.newBuilder().setBye(Bye.newBuilder().setEndSession(true)).build();
    ByteArrayOutputStream injected = new ByteArrayOutputStream();
    Frames.write(new java.io.DataOutputStream(injected), bye);
    Heard heard = attacked(chunk -> injected.toByteArray());
    assertTrue(heard.closed().get().startsWith("connection lost"), heard.closed().get());
    assertTrue(heard.frames().isEmpty(), heard.frames().toString());
  }

  @Test
  void aRecordReplayedAfterTheHandshakeEndsTheConnection() throws Exception {
    Heard heard =
        attacked(
            chunk -> {
              // The dialer's next record, then the same bytes again.
              byte[] twice = java.util.Arrays.copyOf(chunk, chunk.length * 2);
              System.arraycopy(chunk, 0, twice, chunk.length, chunk.length);
              return twice;
            });
    assertTrue(heard.closed().get().startsWith("connection lost"), heard.closed().get());
    // The first copy is the real one; the replay is never delivered.
    assertEquals(1, heard.frames().size(), heard.frames().toString());
    assertEquals("after", heard.frames().poll().getProgress().getText());
  }

  @Test
  void aMiddleManWithCertificatesOfItsOwnCannotRelayTheHandshake() throws Exception {
    try (ServerSocket front = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        ServerSocket middle = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      CompletableFuture<String> answered =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  FrameConnection c = FrameConnection.accept(front.accept(), WAIT);
                  return Handshake.answer(c, Role.ROLE_FRONT_END, s -> Optional.of(SECRET), WAIT);
                } catch (IOException e) {
                  throw new CompletionException(e);
                }
              });
      // The middle man ends TLS on each side (so each side sees its certificate, not the other
      // side's) and relays every frame of the handshake unchanged, both ways.
      CompletableFuture<Void> relayed =
          CompletableFuture.runAsync(
              () -> {
                try (FrameConnection fromDialer = FrameConnection.accept(middle.accept(), WAIT);
                    FrameConnection toAnswerer =
                        FrameConnection.dial("127.0.0.1", front.getLocalPort(), WAIT)) {
                  for (int i = 0; i < 2; i++) {
                    toAnswerer.write(fromDialer.read(WAIT));
                    fromDialer.write(toAnswerer.read(WAIT));
                  }
                } catch (IOException e) {
                  // A refusal ends the relay.
                }
              });
      IOException refused =
          org.junit.jupiter.api.Assertions.assertThrows(
              IOException.class,
              () ->
                  Handshake.dial(
                      FrameConnection.dial("127.0.0.1", middle.getLocalPort(), WAIT),
                      Role.ROLE_MASTER,
                      "job-1",
                      SECRET,
                      WAIT));
      assertTrue(refused.getMessage().contains("proof does not match"), refused.getMessage());
      relayed.get(20, TimeUnit.SECONDS);
      assertFalse(answered.handle((s, e) -> e == null).get(20, TimeUnit.SECONDS));
    }
  }
}
