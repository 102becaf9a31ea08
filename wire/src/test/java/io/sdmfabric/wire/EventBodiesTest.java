package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.proto.EventBody;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventBodiesTest {
  static final Frame MAIN = ProtosTest.MAIN;
  static final Frame SOLVE = ProtosTest.SOLVE;
  static final Frame BARRIER = ProtosTest.BARRIER;
  static final Value V = Value.scalar("n", "int", Value.Kind.INTEGER, 4, "42");
  static final Breakpoint BP =
      new Breakpoint(1, Breakpoint.Kind.BREAKPOINT, "main", "m.c", 3, true, false, "", 0, 0);
  static final ThreadInfo T = new ThreadInfo(1, "LWP 7", "", true, MAIN);
  static final SignalInfo S = new SignalInfo("SIGINT", true, true, false, "Interrupt");

  @Test
  void everyDebugEventKindRoundTripsThroughItsBody() {
    List<DebugEvent> events =
        List.of(
            new DebugEvent.Stopped(StopReason.BREAKPOINT_HIT, "", SOLVE, 1, 3),
            new DebugEvent.Stopped(StopReason.SIGNAL_RECEIVED, "SIGSEGV", BARRIER, 2, 0),
            new DebugEvent.Resumed(),
            DebugEvent.Exited.withCode(3),
            DebugEvent.Exited.bySignal("SIGKILL"),
            new DebugEvent.Output("hello\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
            new DebugEvent.Output(new byte[] {(byte) 0xe2, (byte) 0x82}),
            new DebugEvent.DebuggerEnded("gdb exited unexpectedly (killed by SIGKILL)"));
    for (DebugEvent event : events) {
      EventBody body = EventBodies.event(event);
      assertEquals(event, EventBodies.debugEvent(body));
      assertEquals(
          event, EventBodies.debugEvent(CanonicalBytes.eventBody(CanonicalBytes.of(body))));
    }
  }

  @Test
  void debugEventsUseTheirBodyKinds() {
    assertEquals(
        EventBody.KindCase.SUSPENDED,
        EventBodies.event(new DebugEvent.Stopped(StopReason.UNKNOWN, "", MAIN, 0, 0))
            .getKindCase());
    assertEquals(
        EventBody.KindCase.RUNNING, EventBodies.event(new DebugEvent.Resumed()).getKindCase());
    assertEquals(EventBodies.running(), EventBodies.event(new DebugEvent.Resumed()));
    assertEquals(
        EventBody.KindCase.EXIT, EventBodies.event(DebugEvent.Exited.withCode(0)).getKindCase());
    assertEquals(
        EventBody.KindCase.OUTPUT,
        EventBodies.event(new DebugEvent.Output(new byte[0])).getKindCase());
    assertEquals(
        EventBody.KindCase.DEBUGGER_ENDED,
        EventBodies.event(new DebugEvent.DebuggerEnded("gdb ended")).getKindCase());
  }

  @Test
  void repliesThatAreNotDebugEventsAreRejected() {
    for (EventBody body :
        List.of(
            EventBodies.ok(),
            EventBodies.error("x"),
            EventBodies.depth(3),
            EventBodies.detached(),
            EventBodies.rankLost(),
            EventBody.getDefaultInstance())) {
      assertThrows(IllegalArgumentException.class, () -> EventBodies.debugEvent(body));
    }
  }

  @Test
  void replyFactoriesSetTheirKindAndContent() {
    Value v = V;
    Breakpoint bp = BP;
    ThreadInfo t = T;
    SignalInfo s = S;

    assertEquals(EventBody.KindCase.OK, EventBodies.ok().getKindCase());
    assertEquals(EventBody.KindCase.DETACHED, EventBodies.detached().getKindCase());
    assertEquals(EventBody.KindCase.LOST, EventBodies.rankLost().getKindCase());
    assertEquals("no symbol", EventBodies.error("no symbol").getError().getMessage());
    assertEquals(bp, Protos.fromProto(EventBodies.breakpoint(bp).getBreakpoint()));
    assertEquals(
        List.of(bp, bp),
        Protos.fromProto(EventBodies.breakpoints(List.of(bp, bp)).getBreakpoints()));
    assertEquals(
        List.of(BARRIER, SOLVE, MAIN),
        Protos.fromProto(EventBodies.frames(List.of(BARRIER, SOLVE, MAIN)).getFrames()));
    assertEquals(SOLVE, Protos.fromProto(EventBodies.frame(SOLVE).getFrame()));
    assertEquals(17, EventBodies.depth(17).getDepth().getDepth());
    assertEquals(v, Protos.fromProto(EventBodies.value(v).getValue()));
    assertEquals("struct point *", EventBodies.type("struct point *").getType().getType());
    assertEquals(List.of(v), Protos.fromProto(EventBodies.variables(List.of(v)).getVariables()));
    assertEquals(List.of(t), Protos.fromProto(EventBodies.threads(List.of(t)).getThreads()));
    assertEquals(t, Protos.fromProto(EventBodies.thread(t).getThread()));
    assertArrayEquals(
        new byte[] {1, 2, 3},
        EventBodies.memory(new byte[] {1, 2, 3}).getMemory().getBytes().toByteArray());
    assertEquals(List.of(s), Protos.fromProto(EventBodies.signals(List.of(s)).getSignals()));
    assertEquals("done", EventBodies.text("done").getText().getText());
    StackTree tree = StackTree.of(List.of(SOLVE, MAIN), RankSet.of(1, 2));
    assertEquals(tree, StackTree.fromProto(EventBodies.stackTree(tree).getStackTree()));
  }

  @Test
  void aLostRankIsABodyOfItsOwnNotAnError() {
    assertEquals(
        EventBodies.rankLost(),
        CanonicalBytes.eventBody(CanonicalBytes.of(EventBodies.rankLost())));
    assertNotEquals(EventBodies.error(EventBodies.RANK_LOST), EventBodies.rankLost());
    assertFalse(EventBodies.rankLost().hasError());
  }

  @Test
  void emptyListRepliesStillHaveTheirKind() {
    assertEquals(EventBody.KindCase.FRAMES, EventBodies.frames(List.of()).getKindCase());
    assertNotEquals(
        CanonicalBytes.of(EventBodies.frames(List.of())).length,
        CanonicalBytes.of(EventBody.getDefaultInstance()).length);
  }

  @Test
  void memoryReplyCopiesTheCallersArray() {
    byte[] bytes = {1, 2, 3};
    EventBody body = EventBodies.memory(bytes);
    bytes[0] = 9;
    assertEquals(1, body.getMemory().getBytes().byteAt(0));
  }
}
