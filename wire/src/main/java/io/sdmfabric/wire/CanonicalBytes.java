package io.sdmfabric.wire;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.WireFormat;
import io.sdmfabric.wire.proto.EventBody;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * The deterministic serialization of messages, the key by which replies are aggregated (DESIGN.md
 * §4): ranks whose reply bodies have identical canonical bytes are merged into one group.
 *
 * <p>Two {@linkplain Object#equals equal} messages always give identical bytes, however they were
 * built (field setters called in any order, parsed from the wire, copied through a builder), and
 * unequal messages give different bytes. This holds because the schema has no maps (the only fields
 * whose order protobuf does not fix without deterministic mode) and because every converter in
 * {@link Protos} writes unordered model collections sorted. A message parsed from a newer peer
 * keeps the fields this build does not know and writes them back, so it still compares by content.
 */
public final class CanonicalBytes {

  /**
   * How deep parsed messages may nest. protobuf's default, 100, is too shallow: a stack tree nests
   * one level per frame, and a value one per level of expansion. The parser recurses once per
   * level, so a bound still keeps a hostile message from exhausting the thread's stack.
   */
  static final int RECURSION_LIMIT = 1000;

  private CanonicalBytes() {}

  /** The message's deterministic serialization; a fresh array each call. */
  public static byte[] of(MessageLite message) {
    Objects.requireNonNull(message, "message");
    byte[] out = new byte[message.getSerializedSize()];
    CodedOutputStream stream = CodedOutputStream.newInstance(out);
    stream.useDeterministicSerialization();
    try {
      message.writeTo(stream);
    } catch (IOException e) {
      // An array-backed stream sized by getSerializedSize cannot fail short of a protobuf bug.
      throw new UncheckedIOException("serializing " + message.getClass().getSimpleName(), e);
    }
    stream.checkNoSpaceLeft();
    return out;
  }

  /**
   * The kind of the reply body written by {@link #of}, read from its first tag alone, without
   * parsing the rest: what a server node needs to know of each event it passes on. {@code
   * KIND_NOT_SET} for an empty body or one that does not start with a kind's field.
   */
  public static EventBody.KindCase kindOf(byte[] body) {
    Objects.requireNonNull(body, "body");
    try {
      int tag = CodedInputStream.newInstance(body).readTag();
      EventBody.KindCase kind = EventBody.KindCase.forNumber(WireFormat.getTagFieldNumber(tag));
      return kind == null ? EventBody.KindCase.KIND_NOT_SET : kind;
    } catch (IOException e) {
      return EventBody.KindCase.KIND_NOT_SET;
    }
  }

  /**
   * Parses a reply body written by {@link #of}.
   *
   * @throws IllegalArgumentException if the bytes are not an {@code EventBody}, with protobuf's
   *     reason attached
   */
  public static EventBody eventBody(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    CodedInputStream input = CodedInputStream.newInstance(bytes);
    input.setRecursionLimit(RECURSION_LIMIT);
    try {
      EventBody body = EventBody.parseFrom(input);
      input.checkLastTagWas(0);
      return body;
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "malformed EventBody (" + bytes.length + " bytes): " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("reading an EventBody from an array", e);
    }
  }
}
