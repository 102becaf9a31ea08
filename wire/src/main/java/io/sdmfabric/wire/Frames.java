package io.sdmfabric.wire;

import com.google.protobuf.InvalidProtocolBufferException;
import io.sdmfabric.wire.proto.Frame;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;

/**
 * The framing of the front-end protocol: each frame is a 4-byte big-endian unsigned length, then
 * that many bytes of one serialized {@link Frame}. A reader refuses a length over its limit before
 * reading the bytes, so that a bad or hostile peer cannot make it allocate what it announces.
 */
public final class Frames {
  /** The largest frame a side accepts unless told otherwise: 16 MiB. */
  public static final int DEFAULT_MAX_BYTES = 16 << 20;

  private Frames() {}

  /** Writes one frame (not flushed). */
  public static void write(DataOutputStream out, Frame frame) throws IOException {
    out.writeInt(frame.getSerializedSize());
    frame.writeTo(out);
  }

  /**
   * Reads one frame.
   *
   * @throws EOFException when the connection ended cleanly, between frames
   * @throws FrameException when what came is not a frame of at most {@code maxBytes} bytes
   */
  public static Frame read(DataInputStream in, int maxBytes) throws IOException {
    int first = in.read();
    if (first < 0) {
      throw new EOFException("the other side closed the connection");
    }
    long length;
    byte[] body;
    try {
      length = ((long) first << 24) | (in.readUnsignedByte() << 16) | in.readUnsignedShort();
      if (length > maxBytes) {
        throw new FrameException(
            "a frame of " + length + " bytes is over the limit of " + maxBytes + " bytes");
      }
      body = new byte[(int) length];
      in.readFully(body);
    } catch (EOFException e) {
      throw new FrameException("the connection ended in the middle of a frame", e);
    }
    Frame frame;
    try {
      frame = Frame.parseFrom(body);
    } catch (InvalidProtocolBufferException e) {
      throw new FrameException("a frame that is not a protocol Frame: " + e.getMessage(), e);
    }
    if (frame.getKindCase() == Frame.KindCase.KIND_NOT_SET) {
      throw new FrameException(
          "a frame of " + length + " bytes with no known kind (not a protocol Frame)");
    }
    return frame;
  }
}
