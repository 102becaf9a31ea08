package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Progress;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FramesTest {
  private static final Frame PROGRESS =
      Frame.newBuilder().setProgress(Progress.newBuilder().setText("launching")).build();

  private static byte[] written(Frame... frames) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    for (Frame f : frames) {
      Frames.write(out, f);
    }
    out.flush();
    return bytes.toByteArray();
  }

  private static DataInputStream in(byte[] bytes) {
    return new DataInputStream(new ByteArrayInputStream(bytes));
  }

  @Test
  void aFrameIsItsBigEndianLengthThenItsBytes() throws IOException {
    byte[] bytes = written(PROGRESS);
    int length = PROGRESS.getSerializedSize();
    assertEquals(4 + length, bytes.length);
    assertEquals(0, bytes[0]);
    assertEquals(0, bytes[1]);
    assertEquals(0, bytes[2]);
    assertEquals(length, bytes[3]);
    assertEquals(PROGRESS, Frame.parseFrom(Arrays.copyOfRange(bytes, 4, bytes.length)));
  }

  @Test
  void framesReadBackInOrderAndTheCleanEndIsAnEof() throws IOException {
    Frame other = Frame.newBuilder().setProgress(Progress.newBuilder().setText("ready")).build();
    DataInputStream in = in(written(PROGRESS, other));
    assertEquals(PROGRESS, Frames.read(in, 1000));
    assertEquals(other, Frames.read(in, 1000));
    assertThrows(EOFException.class, () -> Frames.read(in, 1000));
  }

  @Test
  void aLengthOverTheLimitIsRefusedBeforeItsBytesAreRead() {
    // Announces 4 GiB - 1 and sends nothing more: the reader must not wait for, or allocate, it.
    byte[] bytes = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
    FrameException e = assertThrows(FrameException.class, () -> Frames.read(in(bytes), 1 << 20));
    assertTrue(
        e.getMessage().contains("4294967295 bytes is over the limit of 1048576"), e.getMessage());
  }

  @Test
  void bytesThatAreNotAFrameAreRefused() {
    byte[] garbage = {0, 0, 0, 3, (byte) 0xff, (byte) 0xff, (byte) 0xff};
    FrameException e = assertThrows(FrameException.class, () -> Frames.read(in(garbage), 1000));
    assertTrue(e.getMessage().startsWith("a frame that is not a protocol Frame"), e.getMessage());
  }

  @Test
  void anEmptyFrameIsRefused() {
    FrameException e =
        assertThrows(FrameException.class, () -> Frames.read(in(new byte[] {0, 0, 0, 0}), 1000));
    assertTrue(e.getMessage().contains("no known kind"), e.getMessage());
  }

  @Test
  void aConnectionThatEndsInsideAFrameIsRefused() throws IOException {
    byte[] whole = written(PROGRESS);
    for (int cut : new int[] {2, 5}) {
      FrameException e =
          assertThrows(
              FrameException.class,
              () -> Frames.read(in(Arrays.copyOf(whole, cut)), 1000),
              "cut at " + cut);
      assertTrue(e.getMessage().contains("middle of a frame"), e.getMessage());
    }
  }
}
