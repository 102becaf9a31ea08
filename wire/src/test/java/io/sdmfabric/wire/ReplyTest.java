package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.MpiWait;
import io.sdmfabric.model.ProgramInfo;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.FrameProto;
import io.sdmfabric.wire.proto.FramesEvent;
import io.sdmfabric.wire.proto.RankSetProto;
import io.sdmfabric.wire.proto.StackTreeNode;
import io.sdmfabric.wire.proto.StackTreeProto;
import io.sdmfabric.wire.proto.SuspendedEvent;
import io.sdmfabric.wire.proto.ValueExtreme;
import io.sdmfabric.wire.proto.ValueProto;
import io.sdmfabric.wire.proto.ValueSummaryEvent;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ReplyTest {
  static final Frame MAIN = ProtosTest.MAIN;
  static final Frame SOLVE = ProtosTest.SOLVE;

  @Test
  void everyKindOfBodyDecodesToItsRecordWithItsContent() {
    Value v = EventBodiesTest.V;
    Breakpoint bp = EventBodiesTest.BP;
    ThreadInfo t = EventBodiesTest.T;
    SignalInfo s = EventBodiesTest.S;
    StackTree tree = StackTree.of(List.of(SOLVE, MAIN), RankSet.of(1, 2));
    MpiWait idle = MpiWait.IDLE;
    Map<EventBody, Reply> expected =
        Map.ofEntries(
            Map.entry(EventBodies.ok(), new Reply.Ok()),
            Map.entry(EventBodies.error("no symbol"), new Reply.Error("no symbol")),
            Map.entry(
                EventBodies.loaded(new ProgramInfo("/bin/a", true)),
                new Reply.Loaded(new ProgramInfo("/bin/a", true))),
            Map.entry(EventBodies.breakpoint(bp), new Reply.NewBreakpoint(bp)),
            Map.entry(EventBodies.breakpoints(List.of(bp)), new Reply.Breakpoints(List.of(bp))),
            Map.entry(EventBodies.running(), new Reply.Running()),
            Map.entry(
                EventBodies.event(
                    new DebugEvent.Stopped(StopReason.BREAKPOINT_HIT, "", SOLVE, 2, 3)),
                new Reply.Stopped(StopReason.BREAKPOINT_HIT, "", SOLVE, 2, 3)),
            Map.entry(
                EventBodies.event(DebugEvent.Exited.bySignal("SIGKILL")),
                new Reply.Exited(0, "SIGKILL", false)),
            Map.entry(
                EventBodies.event(new DebugEvent.Output(new byte[] {'h', 'i'})),
                new Reply.Output("hi")),
            Map.entry(
                EventBodies.frames(List.of(SOLVE, MAIN)), new Reply.Frames(List.of(SOLVE, MAIN))),
            Map.entry(EventBodies.frame(SOLVE), new Reply.SelectedFrame(SOLVE)),
            Map.entry(EventBodies.depth(17), new Reply.Depth(17)),
            Map.entry(EventBodies.value(v), new Reply.Evaluated(v)),
            Map.entry(EventBodies.type("int *"), new Reply.TypeOf("int *")),
            Map.entry(EventBodies.variables(List.of(v)), new Reply.Variables(List.of(v))),
            Map.entry(EventBodies.threads(List.of(t)), new Reply.Threads(List.of(t))),
            Map.entry(EventBodies.thread(t), new Reply.SelectedThread(t)),
            Map.entry(
                EventBodies.memory(new byte[] {1, 2}),
                new Reply.Memory(ByteString.copyFrom(new byte[] {1, 2}))),
            Map.entry(EventBodies.signals(List.of(s)), new Reply.Signals(List.of(s))),
            Map.entry(EventBodies.text("done"), new Reply.Text("done")),
            Map.entry(
                EventBodies.processInfo(4100, "node1", 77),
                new Reply.ProcessInfo(4100, "node1", 77)),
            Map.entry(EventBodies.stackTree(tree), new Reply.Stacks(tree)),
            Map.entry(
                EventBodies.event(new DebugEvent.DebuggerEnded("gdb died")),
                new Reply.DebuggerEnded("gdb died")),
            Map.entry(EventBodies.detached(), new Reply.Detached()),
            Map.entry(EventBodies.rankLost("why"), new Reply.Lost("why")),
            Map.entry(
                EventBodies.threadStacks(List.of(List.of(SOLVE, MAIN))),
                new Reply.ThreadStacks(List.of(List.of(SOLVE, MAIN)))),
            Map.entry(EventBodies.mpiWait(idle), new Reply.WaitsInMpi(idle)),
            Map.entry(
                EventBodies.valueSummary(3, List.of()), new Reply.ValuesSummarized(3, List.of())),
            Map.entry(EventBody.getDefaultInstance(), new Reply.Unknown()));
    expected.forEach((body, reply) -> assertEquals(reply, Reply.decode(body), body.toString()));
    // One body per kind of the oneof, so that a kind added to debug.proto is added here too.
    Set<EventBody.KindCase> kinds =
        expected.keySet().stream().map(EventBody::getKindCase).collect(Collectors.toSet());
    assertEquals(EnumSet.allOf(EventBody.KindCase.class), kinds);
  }

  @Test
  void aValueSummaryRoundTripsItsCountAndItsExtremesWithTheirRanks() {
    Value least = Value.scalar("x", "double", Value.Kind.FLOAT, 8, "-2.5");
    Value greatest = Value.scalar("x", "double", Value.Kind.FLOAT, 8, "1e+300");
    List<Reply.Extreme> extremes =
        List.of(
            new Reply.Extreme(least, RankSet.of(7, 9)),
            new Reply.Extreme(greatest, RankSet.range(100, 1 << 20)));
    EventBody body = EventBodies.valueSummary(1_048_512, extremes);

    Reply decoded = Reply.decode(CanonicalBytes.eventBody(CanonicalBytes.of(body)));

    Reply.ValuesSummarized s = assertInstanceOf(Reply.ValuesSummarized.class, decoded);
    assertEquals(1_048_512, s.classes());
    assertEquals(new Reply.Extreme(least, RankSet.of(7, 9)), s.least().orElseThrow());
    assertEquals(greatest, s.greatest().orElseThrow().value());
    assertEquals(RankSet.range(100, 1 << 20), s.greatest().orElseThrow().ranks());
    assertEquals("value_summary", Reply.kindName(body));
  }

  @Test
  void aValueSummaryWithOneExtremeOrNoClassIsMalformed() {
    ValueExtreme one =
        ValueExtreme.newBuilder()
            .setValue(Protos.toProto(EventBodiesTest.V))
            .setRanks(Protos.toProto(RankSet.of(1)))
            .build();
    EventBody halfRange =
        EventBody.newBuilder()
            .setValueSummary(ValueSummaryEvent.newBuilder().setClasses(2).setLeast(one))
            .build();
    EventBody noClass =
        EventBody.newBuilder().setValueSummary(ValueSummaryEvent.getDefaultInstance()).build();

    assertInstanceOf(Reply.Malformed.class, Reply.decode(halfRange));
    assertInstanceOf(Reply.Malformed.class, Reply.decode(noClass));
  }

  @Test
  void aLostRankIsAFailureThatSaysRankLostAndWhy() {
    Reply.Failure withReason =
        assertInstanceOf(Reply.Failure.class, Reply.decode(EventBodies.rankLost("node 3 stopped")));
    assertEquals("rank lost: node 3 stopped", withReason.message());
    assertEquals(
        EventBodies.RANK_LOST,
        assertInstanceOf(Reply.Failure.class, Reply.decode(EventBodies.rankLost())).message());
    assertEquals(
        "gdb said no",
        assertInstanceOf(Reply.Failure.class, Reply.decode(EventBodies.error("gdb said no")))
            .message());
  }

  @Test
  void outputIsReadAsUtf8WithWhatIsNotAsReplacementCharacters() {
    byte[] bytes = {'g', (byte) 0xc3, (byte) 0xb6, (byte) 0xe2, (byte) 0x82, '\n'};
    var output = (Reply.Output) Reply.decode(EventBodies.event(new DebugEvent.Output(bytes)));
    assertEquals("gö\ufffd\n", output.text());
  }

  @Test
  void contentNoModelValueCanHoldDecodesAsAMalformedFailureThatNamesItsKindAndWhy() {
    EventBody negativeLine =
        EventBody.newBuilder()
            .setFrames(FramesEvent.newBuilder().addFrames(FrameProto.newBuilder().setLine(-1)))
            .build();
    assertEquals(
        new Reply.Malformed("frames", "level and line must be >= 0"), Reply.decode(negativeLine));
    Reply.Failure failure = assertInstanceOf(Reply.Failure.class, Reply.decode(negativeLine));
    assertEquals("malformed frames reply: level and line must be >= 0", failure.message());
  }

  @Test
  void everyModelRuleABodyBreaksIsMalformedNotThrown() {
    EventBody tooManyChildren =
        EventBody.newBuilder()
            .setValue(
                ValueProto.newBuilder().setName("a").addChildren(ValueProto.newBuilder()).build())
            .build();
    EventBody treeWithoutRanks =
        EventBody.newBuilder()
            .setStackTree(
                StackTreeProto.newBuilder()
                    .addRoots(StackTreeNode.newBuilder().setFrame(Protos.toProto(MAIN)).build()))
            .build();
    EventBody corruptRanks =
        EventBody.newBuilder()
            .setStackTree(
                StackTreeProto.newBuilder()
                    .addRoots(
                        StackTreeNode.newBuilder()
                            .setFrame(Protos.toProto(MAIN))
                            .setRanks(
                                RankSetProto.newBuilder()
                                    .setRoaring(ByteString.copyFrom(new byte[] {1, 2, 3})))))
            .build();
    EventBody stopAtNegativeLevel =
        EventBody.newBuilder()
            .setSuspended(
                SuspendedEvent.newBuilder().setFrame(FrameProto.newBuilder().setLevel(-2)))
            .build();
    Map<EventBody, String> kinds =
        Map.of(
            tooManyChildren, "value",
            treeWithoutRanks, "stack_tree",
            corruptRanks, "stack_tree",
            stopAtNegativeLevel, "suspended");
    kinds.forEach(
        (body, kind) -> {
          Reply.Malformed m = assertInstanceOf(Reply.Malformed.class, Reply.decode(body));
          assertEquals(kind, m.kind());
          assertTrue(m.message().startsWith("malformed " + kind + " reply: "), m.message());
          assertFalse(m.why().isEmpty(), m.why());
        });
  }

  @Test
  void aRankReplyOfAMalformedBodyDecodesWithoutThrowingAndNamesItsKind() {
    EventBody negativeLine =
        EventBody.newBuilder()
            .setFrame(FrameProto.newBuilder().setLine(-1).setFunction("main"))
            .build();
    RankReply r = new RankReply(RankSet.of(3), negativeLine);
    assertInstanceOf(Reply.Malformed.class, r.reply());
    assertEquals("frame", r.kind());
    assertEquals(
        "stack_tree",
        Reply.kindName(EventBodies.stackTree(StackTree.of(List.of(MAIN), RankSet.of(0)))));
    assertEquals(
        "kind_not_set", new RankReply(RankSet.of(0), EventBody.getDefaultInstance()).kind());
  }

  @Test
  void aRankReplyDecodesItsBodyOnceAndIsEqualByRanksAndBody() {
    RankReply r = new RankReply(RankSet.of(0, 1), EventBodies.frames(List.of(MAIN)));
    assertSame(r.reply(), r.reply());
    assertEquals(new Reply.Frames(List.of(MAIN)), r.reply());
    assertEquals(new RankReply(RankSet.of(0, 1), EventBodies.frames(List.of(MAIN))), r);
    assertEquals(
        new RankReply(RankSet.of(0, 1), EventBodies.frames(List.of(MAIN))).hashCode(),
        r.hashCode());
    assertNotEquals(new RankReply(RankSet.of(0), EventBodies.frames(List.of(MAIN))), r);
    assertNotEquals(new RankReply(RankSet.of(0, 1), EventBodies.ok()), r);
  }
}
