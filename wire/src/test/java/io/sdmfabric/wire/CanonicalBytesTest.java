package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.Frame;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.FrameProto;
import io.sdmfabric.wire.proto.FramesEvent;
import io.sdmfabric.wire.proto.ReplyGroupProto;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CanonicalBytesTest {

  private static final Frame SOLVE = new Frame(0, 0x401020L, "solve", "solver.c", 212, "");

  @Test
  void equalMessagesBuiltInDifferentFieldOrderGiveIdenticalBytes() {
    FrameProto forward =
        FrameProto.newBuilder()
            .setLevel(1)
            .setAddress(0x401020L)
            .setFunction("solve")
            .setFile("solver.c")
            .setLine(212)
            .setLibrary("libx.so")
            .build();
    FrameProto backward =
        FrameProto.newBuilder()
            .setLibrary("libx.so")
            .setLine(212)
            .setFile("solver.c")
            .setFunction("solve")
            .setAddress(0x401020L)
            .setLevel(1)
            .build();
    assertEquals(forward, backward);
    assertArrayEquals(CanonicalBytes.of(forward), CanonicalBytes.of(backward));
  }

  @Test
  void overwrittenAndClearedFieldsLeaveNoTrace() {
    EventBody direct = EventBodies.text("done");
    EventBody rewritten =
        EventBody.newBuilder().setDepth(EventBodies.depth(3).getDepth()).clearKind().build();
    rewritten = rewritten.toBuilder().setText(EventBodies.text("other").getText()).build();
    rewritten = rewritten.toBuilder().setText(EventBodies.text("done").getText()).build();
    assertArrayEquals(CanonicalBytes.of(direct), CanonicalBytes.of(rewritten));
  }

  @Test
  void reparsedMessagesGiveIdenticalBytes() {
    Value v =
        new Value(
            "p",
            "struct point",
            Value.Kind.STRUCT,
            8,
            "{...}",
            2,
            List.of(
                Value.scalar("x", "int", Value.Kind.INTEGER, 4, "1"),
                Value.scalar("y", "int", Value.Kind.INTEGER, 4, "2")));
    EventBody body = EventBodies.value(v);
    byte[] bytes = CanonicalBytes.of(body);
    EventBody reparsed = CanonicalBytes.eventBody(bytes);
    assertEquals(body, reparsed);
    assertArrayEquals(bytes, CanonicalBytes.of(reparsed));
  }

  @Test
  void equalModelObjectsFromDifferentRanksGiveIdenticalBytes() {
    // What aggregation relies on: two ranks convert equal stacks independently.
    List<Frame> a = List.of(SOLVE, new Frame(1, 0x401136L, "main", "demo.c", 30, ""));
    List<Frame> b = new ArrayList<>(a);
    assertArrayEquals(
        CanonicalBytes.of(EventBodies.frames(a)), CanonicalBytes.of(EventBodies.frames(b)));
    RankSet r1 = RankSet.range(0, 1000);
    RankSet r2 = RankSet.builder().addRange(500, 1000).addRange(0, 500).build();
    assertArrayEquals(CanonicalBytes.of(Protos.toProto(r1)), CanonicalBytes.of(Protos.toProto(r2)));
  }

  @Test
  void differentMessagesGiveDifferentBytes() {
    List<EventBody> bodies =
        List.of(
            EventBodies.ok(),
            EventBodies.running(),
            EventBodies.error(""),
            EventBodies.text(""),
            EventBodies.text("a"),
            EventBodies.depth(0),
            EventBodies.depth(1),
            EventBodies.frames(List.of()),
            EventBodies.frames(List.of(SOLVE)),
            EventBodies.frame(SOLVE),
            EventBodies.frame(new Frame(0, 0x401020L, "solve", "solver.c", 213, "")),
            EventBody.getDefaultInstance());
    for (int i = 0; i < bodies.size(); i++) {
      for (int j = i + 1; j < bodies.size(); j++) {
        assertFalse(
            Arrays.equals(CanonicalBytes.of(bodies.get(i)), CanonicalBytes.of(bodies.get(j))),
            bodies.get(i) + " vs " + bodies.get(j));
      }
    }
  }

  @Test
  void eachCallReturnsAFreshArray() {
    EventBody body = EventBodies.text("x");
    byte[] first = CanonicalBytes.of(body);
    first[0] ^= 0x7f;
    assertFalse(Arrays.equals(first, CanonicalBytes.of(body)));
  }

  @Test
  void malformedEventBodyBytesAreRejectedNamingTheType() {
    byte[] truncated = Arrays.copyOf(CanonicalBytes.of(EventBodies.text("hello")), 4);
    var e = assertThrows(IllegalArgumentException.class, () -> CanonicalBytes.eventBody(truncated));
    assertTrue(e.getMessage().contains("EventBody"), e.getMessage());

    byte[] badWireType = {(byte) 0x0f};
    assertThrows(IllegalArgumentException.class, () -> CanonicalBytes.eventBody(badWireType));
  }

  @Test
  void emptyBytesAreTheEmptyBody() {
    assertEquals(EventBody.getDefaultInstance(), CanonicalBytes.eventBody(new byte[0]));
  }

  @Test
  void deepStackTreesParseBeyondProtobufsDefaultNesting() {
    List<Frame> deep = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      deep.add(new Frame(i, 0x1000L + i, "recurse", "r.c", 10, ""));
    }
    EventBody body = EventBodies.stackTree(StackTree.of(deep, RankSet.of(0)));
    StackTree back =
        StackTree.fromProto(CanonicalBytes.eventBody(CanonicalBytes.of(body)).getStackTree());
    assertEquals(400, back.nodeCount());
  }

  @Test
  void canonicalBytesWorkForAnyMessage() {
    ReplyGroupProto group =
        ReplyGroupProto.newBuilder()
            .setRanks(Protos.toProto(RankSet.of(1, 2)))
            .setBody(com.google.protobuf.ByteString.copyFrom(CanonicalBytes.of(EventBodies.ok())))
            .build();
    assertArrayEquals(group.toByteArray(), CanonicalBytes.of(group));
    assertEquals(
        FramesEvent.getDefaultInstance().getSerializedSize(),
        CanonicalBytes.of(FramesEvent.getDefaultInstance()).length);
  }

  @Test
  void theKindOfABodyIsReadFromItsBytesForEveryKindUpToTheSummary() {
    Value v = Value.scalar("x", "int", Value.Kind.INTEGER, 4, "42");
    assertEquals(
        EventBody.KindCase.VALUE, CanonicalBytes.kindOf(CanonicalBytes.of(EventBodies.value(v))));
    assertEquals(EventBody.KindCase.OK, CanonicalBytes.kindOf(CanonicalBytes.of(EventBodies.ok())));
    assertEquals(
        EventBody.KindCase.ERROR, CanonicalBytes.kindOf(CanonicalBytes.of(EventBodies.error("e"))));
    // Field 28 takes a tag of two bytes.
    assertEquals(
        EventBody.KindCase.VALUE_SUMMARY,
        CanonicalBytes.kindOf(CanonicalBytes.of(EventBodies.valueSummary(2, List.of()))));
    assertEquals(EventBody.KindCase.KIND_NOT_SET, CanonicalBytes.kindOf(new byte[0]));
    assertEquals(EventBody.KindCase.KIND_NOT_SET, CanonicalBytes.kindOf(new byte[] {(byte) 0xe2}));
    // Field 1000, which this build does not know.
    assertEquals(
        EventBody.KindCase.KIND_NOT_SET, CanonicalBytes.kindOf(new byte[] {(byte) 0xc2, 0x3e, 0}));
  }
}
