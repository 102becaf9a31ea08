package io.sdmfabric.bench;

import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.FrameConnection;
import io.sdmfabric.wire.proto.Bye;
import io.sdmfabric.wire.proto.Call;
import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Progress;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;

/**
 * {@link RelayRunner}'s measurements in the front-end protocol as sdm runs it: TLS 1.3 (the
 * protocol's {@link FrameConnection#dial} and {@link FrameConnection#accept}, a fresh certificate
 * per connection), frames of protocol buffers. Throughput: {@code Call} frames of 64 KiB of input
 * bytes each; round trip: a 64-byte {@code Progress} frame there and back. The handshake's proofs
 * are left out (each connection is marked authenticated at once): they cost once per connection,
 * not per byte.
 */
final class ProtectedStreams {
  private static final Duration WAIT = Duration.ofMinutes(5);
  private static final String SINK = "sink";
  private static final String ECHO = "echo";

  private ProtectedStreams() {}

  /** The server: the first frame says what a connection is, as {@link RelayRunner}'s byte does. */
  static Void serve(ServerSocket server, ExecutorService pool) throws IOException {
    while (true) {
      Socket s = server.accept();
      pool.submit(
          () -> {
            try (FrameConnection c = FrameConnection.accept(s, Duration.ofSeconds(30))) {
              c.authenticated();
              String mode = c.read(WAIT).getProgress().getText();
              while (true) {
                Frame f = c.read(WAIT);
                if (f.hasBye()) {
                  break;
                }
                if (mode.equals(ECHO)) {
                  c.write(f);
                }
              }
              c.write(progress("done"));
            }
            return null;
          });
    }
  }

  /** Seconds for {@code connections} connections at once to send {@code mb} MB of input in all. */
  static double throughput(
      InetSocketAddress to, int connections, long mb, byte[] chunk, ExecutorService pool)
      throws Exception {
    long each = mb * 1_000_000 / connections;
    Frame call =
        Frame.newBuilder()
            .setCall(Call.newBuilder().setId(1).setBody(Commands.input(chunk)))
            .build();
    List<FrameConnection> open = new ArrayList<>();
    try {
      for (int i = 0; i < connections; i++) {
        FrameConnection c = dial(to);
        open.add(c);
        c.write(progress(SINK));
      }
      List<Callable<Void>> senders = new ArrayList<>();
      for (FrameConnection c : open) {
        senders.add(
            () -> {
              for (long left = each; left > 0; left -= chunk.length) {
                c.write(call);
              }
              c.write(Frame.newBuilder().setBye(Bye.getDefaultInstance()).build());
              if (!c.read(WAIT).hasProgress()) {
                throw new IOException("the server did not confirm the end");
              }
              return null;
            });
      }
      return RelayRunner.secondsForAll(senders, pool);
    } finally {
      open.forEach(FrameConnection::close);
    }
  }

  /** Round trips of a 64-byte frame in microseconds, sorted, after as many unmeasured. */
  static double[] pings(InetSocketAddress to, int count) throws IOException {
    try (FrameConnection c = dial(to)) {
      c.write(progress(ECHO));
      Frame ping = progress("x".repeat(60));
      double[] us =
          RelayRunner.roundTrips(
              count,
              () -> {
                c.write(ping);
                c.read(WAIT);
              });
      c.write(Frame.newBuilder().setBye(Bye.getDefaultInstance()).build());
      return us;
    }
  }

  private static FrameConnection dial(InetSocketAddress to) throws IOException {
    FrameConnection c =
        FrameConnection.dial(
            to.getAddress().getHostAddress(), to.getPort(), Duration.ofSeconds(30));
    c.authenticated();
    return c;
  }

  private static Frame progress(String text) {
    return Frame.newBuilder().setProgress(Progress.newBuilder().setText(text)).build();
  }
}
