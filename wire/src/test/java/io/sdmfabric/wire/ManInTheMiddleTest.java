package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import java.util.concurrent.atomic.AtomicReference;
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

    /** The size of each chunk of the dialer's that went through {@code tamper}. */
    final BlockingQueue<Integer> taken = new LinkedBlockingQueue<>();

    private volatile Socket in;
    private volatile Socket out;

    Proxy(int target, UnaryOperator<byte[]> tamper) throws IOException {
      Thread t =
          new Thread(
              () -> {
                try {
                  in = server.accept();
                  out = new Socket(InetAddress.getLoopbackAddress(), target);
                  pump(out.getInputStream(), in.getOutputStream(), UnaryOperator.identity(), false);
                  pump(in.getInputStream(), out.getOutputStream(), tamper, true);
                } catch (IOException e) {
                  // The test's own assertions tell what went wrong.
                }
              });
      t.setDaemon(true);
      t.start();
    }

    private void pump(
        InputStream from, OutputStream to, UnaryOperator<byte[]> tamper, boolean watched) {
      Thread t =
          new Thread(
              () -> {
                byte[] buffer = new byte[16384];
                try {
                  for (int n; (n = from.read(buffer)) > 0; ) {
                    byte[] chunk = java.util.Arrays.copyOf(buffer, n);
                    if (armed.isDone()) {
                      chunk = tamper.apply(chunk);
                      if (watched) {
                        taken.add(n);
                      }
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

  /**
   * Runs a session through a proxy that tampers with the dialer's bytes after the handshake: the
   * dialer sends {@code after} frames one at a time, each once the proxy has taken the one before.
   * Returns what the answerer heard, once its connection has ended; the dialer must have been told
   * of the end too.
   */
  private static Heard attacked(UnaryOperator<byte[]> tamper, String... after) throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Heard heard = new Heard();
      CompletableFuture<FrameConnection> answered = answerer(server, heard);
      try (Proxy proxy = new Proxy(server.getLocalPort(), tamper)) {
        FrameConnection dialer = FrameConnection.dial("127.0.0.1", proxy.port(), WAIT);
        Handshake.dial(dialer, Role.ROLE_MASTER, "job-1", SECRET, WAIT);
        answered.get(10, TimeUnit.SECONDS);
        Heard dialerHeard = new Heard();
        dialer.start(dialerHeard, "dialer");
        dialer.send(progress("before"));
        assertEquals("before", heard.frames().poll(10, TimeUnit.SECONDS).getProgress().getText());
        proxy.armed.complete(null);
        for (String text : after) {
          dialer.send(progress(text));
          assertNotNull(proxy.taken.poll(10, TimeUnit.SECONDS), "the proxy took " + text);
        }
        String reason = heard.closed().get(10, TimeUnit.SECONDS);
        assertTrue(
            reason.contains("altered, injected, replayed or reordered on the way"),
            "the answerer is told what it means: " + reason);
        // The answerer's TLS answers the bad record with an alert: the dialer is told too.
        String dialerReason = dialerHeard.closed().get(10, TimeUnit.SECONDS);
        assertTrue(dialerReason.startsWith("connection lost"), dialerReason);
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
            },
            "after");
    assertTrue(heard.closed().get().startsWith("connection lost"), heard.closed().get());
    assertTrue(heard.frames().isEmpty(), heard.frames().toString());
  }

  @Test
  void aFrameInjectedInClearEndsTheConnectionAndIsNeverDelivered() throws Exception {
    Frame bye = Frame.newBuilder().setBye(Bye.newBuilder().setEndSession(true)).build();
    ByteArrayOutputStream injected = new ByteArrayOutputStream();
    Frames.write(new java.io.DataOutputStream(injected), bye);
    Heard heard = attacked(chunk -> injected.toByteArray(), "after");
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
            },
            "after");
    assertTrue(heard.closed().get().startsWith("connection lost"), heard.closed().get());
    // The first copy is the real one; the replay is never delivered.
    assertEquals(1, heard.frames().size(), heard.frames().toString());
    assertEquals("after", heard.frames().poll().getProgress().getText());
  }

  @Test
  void twoRecordsSwappedOnTheWayEndTheConnectionAndNeitherArrives() throws Exception {
    AtomicReference<byte[]> held = new AtomicReference<>();
    Heard heard =
        attacked(
            chunk -> {
              // The dialer's first record is held back and sent after its second.
              byte[] first = held.getAndSet(chunk);
              if (first == null) {
                return new byte[0];
              }
              byte[] swapped = java.util.Arrays.copyOf(chunk, chunk.length + first.length);
              System.arraycopy(first, 0, swapped, chunk.length, first.length);
              return swapped;
            },
            "first",
            "second");
    assertTrue(heard.frames().isEmpty(), heard.frames().toString());
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
