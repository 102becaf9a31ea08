package io.sdmfabric.wire;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
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
   * The kind of a reply body in its canonical bytes, read from its first tag without parsing the
   * rest: an {@code EventBody} has no field outside its oneof, and a deterministic serialization
   * writes the set one first. {@code KIND_NOT_SET} for no bytes, a truncated tag, or a kind this
   * build does not know. Lets a node of the tree sort a million bodies without decoding them.
   */
  public static EventBody.KindCase kindOf(byte[] body) {
    int tag = 0;
    for (int i = 0, shift = 0; i < Math.min(body.length, 5); i++, shift += 7) {
      tag |= (body[i] & 0x7f) << shift;
      if (body[i] >= 0) {
        EventBody.KindCase kind = EventBody.KindCase.forNumber(tag >>> 3);
        return kind == null ? EventBody.KindCase.KIND_NOT_SET : kind;
      }
    }
    return EventBody.KindCase.KIND_NOT_SET;
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
