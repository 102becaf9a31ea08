package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Progress;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A started connection: frames both ways on its own threads, bad input refused, ends told once. */
class FrameConnectionTest {
  private static final Duration WAIT = Duration.ofSeconds(5);

  /** Collects what a started connection hands on. */
  private static final class Collector implements FrameConnection.Listener {
    final List<Frame> frames = new CopyOnWriteArrayList<>();
    final List<String> closings = new CopyOnWriteArrayList<>();
    final CompletableFuture<String> closed = new CompletableFuture<>();

    @Override
    public void frame(Frame frame) {
      frames.add(frame);
    }

    @Override
    public void closed(String reason) {
      closings.add(reason);
      closed.complete(reason);
    }
  }

  private static Frame progress(int i) {
    return Frame.newBuilder().setProgress(Progress.newBuilder().setText("line " + i)).build();
  }

  @Test
  void queuedFramesArriveInOrderAndAGoodbyeClosesAfterThem() throws Exception {
    try (SocketPair pair = SocketPair.open()) {
      FrameConnection sender = FrameConnection.plain(pair.dialer());
      Collector sent = new Collector();
      sender.start(sent, "test-sender");
      for (int i = 0; i < 1000; i++) {
        sender.send(progress(i));
      }
      sender.sendThenClose(progress(1000), "done");
      FrameConnection receiver = FrameConnection.plain(pair.answerer());
      Collector got = new Collector();
      receiver.start(got, "test-receiver");
      assertEquals("the other side closed the connection", got.closed.get(10, TimeUnit.SECONDS));
      assertEquals(1001, got.frames.size());
      for (int i = 0; i <= 1000; i++) {
        assertEquals(progress(i), got.frames.get(i));
      }
      assertEquals("done", sent.closed.get(10, TimeUnit.SECONDS));
      assertEquals(List.of("done"), sent.closings);
    }
  }

  @Test
  void malformedBytesAfterTheHandshakeAreRefusedAndTheListenerHearsItOnce() throws Exception {
    try (SocketPair pair = SocketPair.open()) {
      FrameConnection c = FrameConnection.plain(pair.answerer());
      Collector got = new Collector();
      c.start(got, "test");
      OutputStream out = pair.dialer().getOutputStream();
      out.write(new byte[] {0, 0, 0, 2, (byte) 0xff, (byte) 0xff});
      out.flush();
      String reason = got.closed.get(10, TimeUnit.SECONDS);
      assertTrue(reason.startsWith("a frame that is not a protocol Frame"), reason);
      FrameConnection other = FrameConnection.plain(pair.dialer());
      assertEquals(reason, other.read(WAIT).getRefused().getReason());
      assertEquals(1, got.closings.size());
      assertTrue(c.isClosed());
    }
  }

  @Test
  void aSideThatDoesNotReadIsGivenUpOnOnceTooMuchWaits() throws Exception {
    try (SocketPair pair = SocketPair.open()) {
      FrameConnection c = FrameConnection.plain(pair.dialer(), Frames.DEFAULT_MAX_BYTES, 1 << 20);
      Collector got = new Collector();
      c.start(got, "test");
      Frame big =
          Frame.newBuilder()
              .setProgress(Progress.newBuilder().setText("x".repeat(64 << 10)))
              .build();
      // The other side never reads: the kernel's buffers fill, then the queue, then it is over.
      for (int i = 0; i < 10_000 && !c.isClosed(); i++) {
        c.send(big);
      }
      String reason = got.closed.get(10, TimeUnit.SECONDS);
      assertTrue(reason.startsWith("the other side does not read"), reason);
    }
  }

  @Test
  void whenClosedCompletesWithTheReasonEvenWithoutAListener() throws Exception {
    try (SocketPair pair = SocketPair.open()) {
      FrameConnection c = FrameConnection.plain(pair.dialer());
      c.close("because");
      assertEquals("because", c.whenClosed().get(1, TimeUnit.SECONDS));
    }
  }
}
