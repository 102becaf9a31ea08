package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.Location;
import io.sdmfabric.model.ProgramInfo;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.model.WatchKind;
import io.sdmfabric.wire.proto.BreakpointKindProto;
import io.sdmfabric.wire.proto.BreakpointProto;
import io.sdmfabric.wire.proto.EnvVar;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.FrameProto;
import io.sdmfabric.wire.proto.LaunchProto;
import io.sdmfabric.wire.proto.RankSetProto;
import io.sdmfabric.wire.proto.SetBreakpointCmd;
import io.sdmfabric.wire.proto.StepKindProto;
import io.sdmfabric.wire.proto.StopReasonProto;
import io.sdmfabric.wire.proto.SuspendedEvent;
import io.sdmfabric.wire.proto.ThreadProto;
import io.sdmfabric.wire.proto.ValueKindProto;
import io.sdmfabric.wire.proto.ValueProto;
import io.sdmfabric.wire.proto.WatchKindProto;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProtosTest {

  static final Frame MAIN = new Frame(2, 0x401136L, "main", "demo.c", 30, "");
  static final Frame SOLVE = new Frame(1, 0x401020L, "solve", "solver.c", 212, "");
  static final Frame BARRIER =
      new Frame(0, 0x7ffff7a0c000L, "MPI_Barrier", "", 0, "/usr/lib/libmpi.so.40");

  // ------------------------------------------------------------------ rank sets

  @Test
  void rankSetsRoundTrip() {
    for (RankSet ranks :
        List.of(
            RankSet.empty(),
            RankSet.of(0),
            RankSet.of(3, 7, 1_000_000),
            RankSet.all(1 << 20),
            RankSet.all(1 << 20).minus(RankSet.of(5, 77, 4096)))) {
      assertEquals(ranks, Protos.fromProto(Protos.toProto(ranks)));
    }
  }

  @Test
  void equalRankSetsBuiltDifferentlyGiveEqualMessages() {
    RankSet byRange = RankSet.range(0, 100);
    RankSet byBuilder = RankSet.builder().add(99).addRange(0, 50).addRange(50, 99).build();
    assertEquals(Protos.toProto(byRange), Protos.toProto(byBuilder));
  }

  @Test
  void malformedRankSetBytesAreRejectedWithAClearMessage() {
    RankSetProto garbage =
        RankSetProto.newBuilder().setRoaring(ByteString.copyFromUtf8("not a bitmap")).build();
    var e = assertThrows(IllegalArgumentException.class, () -> Protos.fromProto(garbage));
    assertTrue(e.getMessage().contains("malformed rank set"), e.getMessage());

    byte[] good = RankSet.of(1, 2, 3).toBytes();
    RankSetProto truncated =
        RankSetProto.newBuilder().setRoaring(ByteString.copyFrom(good, 0, good.length - 1)).build();
    assertThrows(IllegalArgumentException.class, () -> Protos.fromProto(truncated));
  }

  @Test
  void unsetRankSetIsMalformedNotEmpty() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Protos.fromProto(RankSetProto.getDefaultInstance()));
    assertTrue(e.getMessage().contains("no bytes"), e.getMessage());
  }

  // ------------------------------------------------------------------ frames and values

  @Test
  void framesRoundTripIncludingUnsignedAddresses() {
    Frame high = new Frame(7, 0xffff_ffff_ffff_f000L, "handler", "sig.c", 1, "libc.so.6");
    for (Frame f : List.of(MAIN, SOLVE, BARRIER, Frame.UNKNOWN, high)) {
      assertEquals(f, Protos.fromProto(Protos.toProto(f)));
    }
    assertEquals(0xffff_ffff_ffff_f000L, Protos.toProto(high).getAddress());
  }

  @Test
  void frameWithNegativeLineIsRejected() {
    FrameProto bad = Protos.toProto(MAIN).toBuilder().setLine(-1).build();
    assertThrows(IllegalArgumentException.class, () -> Protos.fromProto(bad));
  }

  @Test
  void nestedValuesRoundTrip() {
    Value x = Value.scalar("x", "int", Value.Kind.INTEGER, 4, "1");
    Value y = Value.scalar("y", "double", Value.Kind.FLOAT, 8, "2.5");
    Value inner = new Value("p", "struct point", Value.Kind.STRUCT, 12, "{...}", 2, List.of(x, y));
    Value ptr =
        new Value("*q", "struct point *", Value.Kind.POINTER, 8, "0x7ffd", 1, List.of(inner));
    // A partly read array: three elements exist, one was read.
    Value array =
        new Value(
            "a",
            "int [3]",
            Value.Kind.ARRAY,
            12,
            "{...}",
            3,
            List.of(Value.scalar("[0]", "int", Value.Kind.INTEGER, 4, "7")));
    Value outer =
        new Value("s", "struct outer", Value.Kind.STRUCT, 40, "{...}", 3, List.of(ptr, array, y));
    assertEquals(outer, Protos.fromProto(Protos.toProto(outer)));
    assertEquals(3, Protos.toProto(outer).getChildrenCount());
    assertEquals("x", Protos.toProto(outer).getChildren(0).getChildren(0).getChildren(0).getName());
  }

  @Test
  void valueWithMoreChildrenThanItsCountIsRejected() {
    ValueProto child = ValueProto.newBuilder().setName("a").build();
    ValueProto bad =
        ValueProto.newBuilder().setName("s").setChildCount(0).addChildren(child).build();
    assertThrows(IllegalArgumentException.class, () -> Protos.fromProto(bad));
  }

  @Test
  void everyValueKindMapsBothWays() {
    for (Value.Kind kind : Value.Kind.values()) {
      assertEquals(kind, Protos.fromProto(Protos.toProto(kind)));
    }
    for (ValueKindProto proto : ValueKindProto.values()) {
      if (proto != ValueKindProto.UNRECOGNIZED) {
        assertEquals(proto, Protos.toProto(Protos.fromProto(proto)));
      }
    }
    assertEquals(ValueKindProto.VALUE_KIND_UNKNOWN, Protos.toProto(Value.Kind.UNKNOWN));
  }

  @Test
  void unknownValueKindFromANewerPeerIsUnknown() {
    ValueProto proto = ValueProto.newBuilder().setName("v").setKindValue(99).build();
    assertEquals(Value.Kind.UNKNOWN, Protos.fromProto(proto).kind());
  }

  // ------------------------------------------------------------------ breakpoints

  @Test
  void breakpointsRoundTrip() {
    Breakpoint bp =
        new Breakpoint(
            3,
            Breakpoint.Kind.BREAKPOINT,
            "solve at solver.c:212",
            "solver.c",
            212,
            true,
            false,
            "i > 4",
            2,
            17);
    Breakpoint watch =
        new Breakpoint(
            4, Breakpoint.Kind.ACCESS_WATCHPOINT, "counter", "", 0, false, true, "", 0, 0);
    assertEquals(bp, Protos.fromProto(Protos.toProto(bp)));
    assertEquals(watch, Protos.fromProto(Protos.toProto(watch)));
  }

  @Test
  void everyBreakpointKindMapsBothWays() {
    for (Breakpoint.Kind kind : Breakpoint.Kind.values()) {
      assertEquals(kind, Protos.fromProto(Protos.toProto(kind)));
    }
    for (BreakpointKindProto proto : BreakpointKindProto.values()) {
      if (proto != BreakpointKindProto.UNRECOGNIZED) {
        assertEquals(proto, Protos.toProto(Protos.fromProto(proto)));
      }
    }
  }

  @Test
  void unknownBreakpointKindFromANewerPeerIsOther() {
    BreakpointProto proto = BreakpointProto.newBuilder().setId(1).setKindValue(42).build();
    assertEquals(Breakpoint.Kind.OTHER, Protos.fromProto(proto).kind());
  }

  @Test
  void breakpointSpecsRoundTripForLinesAndFunctions() {
    List<BreakpointSpec> specs =
        List.of(
            BreakpointSpec.at("solver.c:212"),
            BreakpointSpec.at("MPI_Barrier"),
            BreakpointSpec.at("solver.c:212").withCondition("rank == 3").withIgnoreCount(5),
            BreakpointSpec.at("main").asTemporary().asDisabled());
    for (BreakpointSpec spec : specs) {
      assertEquals(spec, Protos.fromProto(Protos.toProto(spec)));
    }
  }

  @Test
  void breakpointSpecLocationAndEnabledMapToTheCommandFields() {
    SetBreakpointCmd line = Protos.toProto(BreakpointSpec.at(new Location.Line("a.c", 9)));
    assertEquals(SetBreakpointCmd.LocationCase.LINE, line.getLocationCase());
    assertEquals("a.c", line.getLine().getFile());
    assertEquals(9, line.getLine().getLine());
    assertFalse(line.getDisabled());

    SetBreakpointCmd function = Protos.toProto(BreakpointSpec.at("main").asDisabled());
    assertEquals("main", function.getFunction());
    assertTrue(function.getDisabled());
  }

  @Test
  void setBreakpointWithoutALocationIsRejected() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Protos.fromProto(SetBreakpointCmd.getDefaultInstance()));
    assertTrue(e.getMessage().contains("location"), e.getMessage());
  }

  // ------------------------------------------------------------------ threads and signals

  @Test
  void threadsRoundTripAlsoWhileRunning() {
    ThreadInfo stopped = new ThreadInfo(1, "Thread 0x7ffff7d8a740 (LWP 1234)", "main", true, SOLVE);
    ThreadInfo running =
        new ThreadInfo(2, "Thread 0x7ffff7589640 (LWP 1235)", "", false, Frame.UNKNOWN);
    assertEquals(stopped, Protos.fromProto(Protos.toProto(stopped)));
    assertEquals(running, Protos.fromProto(Protos.toProto(running)));
  }

  @Test
  void threadWithoutAFrameIsAtTheUnknownFrame() {
    ThreadProto proto = ThreadProto.newBuilder().setId(5).setTargetId("LWP 9").build();
    assertEquals(Frame.UNKNOWN, Protos.fromProto(proto).frame());
  }

  @Test
  void signalsRoundTrip() {
    SignalInfo segv = new SignalInfo("SIGSEGV", true, true, true, "Segmentation fault");
    SignalInfo alrm = new SignalInfo("SIGALRM", false, false, true, "Alarm clock");
    assertEquals(segv, Protos.fromProto(Protos.toProto(segv)));
    assertEquals(alrm, Protos.fromProto(Protos.toProto(alrm)));
  }

  // ------------------------------------------------------------------ enums of commands

  @Test
  void everyStopReasonMapsBothWays() {
    for (StopReason reason : StopReason.values()) {
      assertEquals(reason, Protos.fromProto(Protos.toProto(reason)));
    }
    for (StopReasonProto proto : StopReasonProto.values()) {
      if (proto != StopReasonProto.UNRECOGNIZED) {
        assertEquals(proto, Protos.toProto(Protos.fromProto(proto)));
      }
    }
  }

  @Test
  void unknownStopReasonFromANewerPeerIsUnknown() {
    EventBody body =
        EventBody.newBuilder()
            .setSuspended(SuspendedEvent.newBuilder().setReasonValue(1234).setThreadId(1))
            .build();
    var stopped = (DebugEvent.Stopped) EventBodies.debugEvent(body);
    assertEquals(StopReason.UNKNOWN, stopped.reason());
    assertEquals(Frame.UNKNOWN, stopped.frame());
  }

  @Test
  void everyStepKindMapsBothWays() {
    for (StepKind kind : StepKind.values()) {
      assertEquals(kind, Protos.fromProto(Protos.toProto(kind)));
    }
    for (StepKindProto proto : StepKindProto.values()) {
      if (proto != StepKindProto.UNRECOGNIZED) {
        assertEquals(proto, Protos.toProto(Protos.fromProto(proto)));
      }
    }
  }

  @Test
  void everyWatchKindMapsBothWays() {
    for (WatchKind kind : WatchKind.values()) {
      assertEquals(kind, Protos.fromProto(Protos.toProto(kind)));
    }
    for (WatchKindProto proto : WatchKindProto.values()) {
      if (proto != WatchKindProto.UNRECOGNIZED) {
        assertEquals(proto, Protos.toProto(Protos.fromProto(proto)));
      }
    }
  }

  @Test
  void unknownStepOrWatchKindIsRefusedBecauseThereIsNoSafeGuess() {
    assertThrows(
        IllegalArgumentException.class, () -> Protos.fromProto(StepKindProto.UNRECOGNIZED));
    assertThrows(
        IllegalArgumentException.class, () -> Protos.fromProto(WatchKindProto.UNRECOGNIZED));
  }

  // ------------------------------------------------------------------ launch and load

  @Test
  void launchSpecsRoundTrip() {
    LaunchSpec spec =
        new LaunchSpec(
            "./solver",
            List.of("-n", "100", "a b"),
            Map.of("OMP_NUM_THREADS", "4", "A", ""),
            Path.of("/scratch/run1"));
    assertEquals(spec, Protos.fromProto(Protos.toProto(spec)));
    LaunchSpec relative = LaunchSpec.of("a.out").withWorkingDirectory(Path.of("rel/dir"));
    assertEquals(relative, Protos.fromProto(Protos.toProto(relative)));
  }

  @Test
  void launchEnvironmentIsSortedSoEqualSpecsSerializeEqually() {
    Map<String, String> forward = new LinkedHashMap<>();
    Map<String, String> backward = new LinkedHashMap<>();
    for (int i = 0; i < 20; i++) {
      forward.put("V" + i, "x" + i);
    }
    for (int i = 19; i >= 0; i--) {
      backward.put("V" + i, "x" + i);
    }
    LaunchSpec a = new LaunchSpec("p", List.of(), forward, Path.of("/w"));
    LaunchSpec b = new LaunchSpec("p", List.of(), backward, Path.of("/w"));
    LaunchProto proto = Protos.toProto(a);
    assertArrayEquals(CanonicalBytes.of(proto), CanonicalBytes.of(Protos.toProto(b)));
    List<String> names = proto.getEnvironmentList().stream().map(EnvVar::getName).toList();
    assertEquals(names.stream().sorted().toList(), names);
    assertEquals("/w", proto.getWorkingDirectory());
  }

  @Test
  void launchSettingAVariableTwiceIsRejected() {
    LaunchProto twice =
        LaunchProto.newBuilder()
            .setProgram("p")
            .addEnvironment(EnvVar.newBuilder().setName("A").setValue("1"))
            .addEnvironment(EnvVar.newBuilder().setName("A").setValue("2"))
            .build();
    var e = assertThrows(IllegalArgumentException.class, () -> Protos.fromProto(twice));
    assertTrue(e.getMessage().contains("A"), e.getMessage());
  }

  @Test
  void programInfoRoundTrips() {
    for (ProgramInfo info :
        List.of(new ProgramInfo("/bin/solver", true), new ProgramInfo("stripped", false))) {
      assertEquals(info, Protos.fromProto(Protos.toProto(info)));
      assertEquals(info, Protos.fromProto(EventBodies.loaded(info).getLoaded()));
    }
  }
}
