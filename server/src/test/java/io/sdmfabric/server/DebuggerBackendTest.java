package io.sdmfabric.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.sim.SimulatedDebugger;
import io.sdmfabric.sim.SimulatedProgram;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Commands of the wire's command set become Debugger requests, and results become replies. */
class DebuggerBackendTest {
  private final List<EventBody> events = new ArrayList<>();
  private final DebuggerBackend backend =
      new DebuggerBackend(SimulatedDebugger.direct(SimulatedProgram.defaults(), 2, 8));

  DebuggerBackendTest() {
    backend.subscribe(events::add);
  }

  private EventBody run(CommandBody command) throws Exception {
    return backend.execute(command).toCompletableFuture().get(10, TimeUnit.SECONDS).body();
  }

  @Test
  void aSessionRunsToABreakpointAndAnswersQueries() throws Exception {
    EventBody loaded = run(Commands.startSession(LaunchSpec.of("/bin/sim")));
    assertTrue(loaded.hasLoaded(), loaded.toString());
    EventBody bp = run(Commands.setBreakpoint(BreakpointSpec.at("compute")));
    assertEquals("compute", Protos.fromProto(bp.getBreakpoint()).location().split(" ")[0]);
    assertEquals(EventBodies.running(), run(Commands.run()));
    assertTrue(events.stream().anyMatch(EventBody::hasSuspended), events.toString());
    EventBody frames = run(Commands.listFrames());
    assertEquals("compute", frames.getFrames().getFrames(0).getFunction());
    EventBody rank = run(Commands.evaluate("rank"));
    assertEquals("2", rank.getValue().getText());
    assertEquals(EventBodies.running(), run(Commands.step(StepKind.OVER)));
  }

  @Test
  void framesLeaveWithoutTheirAddressesSoThatRandomizedProcessesStillMerge() throws Exception {
    SimulatedDebugger debugger = SimulatedDebugger.direct(SimulatedProgram.defaults(), 2, 8);
    DebuggerBackend b = new DebuggerBackend(debugger);
    List<EventBody> stops = new ArrayList<>();
    b.subscribe(stops::add);
    b.execute(Commands.startSession(LaunchSpec.of("/bin/sim")))
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
    debugger.insertBreakpoint(BreakpointSpec.at("compute")).get(10, TimeUnit.SECONDS);
    b.execute(Commands.run()).toCompletableFuture().get(10, TimeUnit.SECONDS);
    // The debugger itself knows the program counters.
    assertTrue(debugger.frames().get(10, TimeUnit.SECONDS).get(0).address() != 0);
    EventBody frames =
        b.execute(Commands.listFrames()).toCompletableFuture().get(10, TimeUnit.SECONDS).body();
    assertTrue(frames.getFrames().getFramesCount() > 1);
    frames.getFrames().getFramesList().forEach(f -> assertEquals(0, f.getAddress(), f.toString()));
    EventBody stop = stops.stream().filter(EventBody::hasSuspended).findFirst().orElseThrow();
    assertEquals("compute", stop.getSuspended().getFrame().getFunction());
    assertEquals(0, stop.getSuspended().getFrame().getAddress());
  }

  @Test
  void processInfoNamesThisHostAndThisJvmAndNoPidForASimulatedRank() throws Exception {
    String host =
        Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.UTF_8).strip();
    assertEquals(
        EventBodies.processInfo(0, host, (int) ProcessHandle.current().pid()),
        run(Commands.processInfo()));
  }

  @Test
  void aDebuggerErrorIsAnErrorReplyWithItsText() throws Exception {
    EventBody reply = run(Commands.evaluate("nosuch"));
    assertEquals(EventBodies.error("No symbol table is loaded.  Use the \"file\" command."), reply);
  }

  @Test
  void aDebuggerThatEndsOnItsOwnIsReportedAndLaterCommandsGetItsReason() throws Exception {
    SimulatedDebugger debugger = SimulatedDebugger.direct(SimulatedProgram.defaults(), 1, 8);
    DebuggerBackend ending = new DebuggerBackend(debugger);
    List<EventBody> reported = new ArrayList<>();
    ending.subscribe(reported::add);
    String why = "gdb exited unexpectedly (killed by SIGKILL)";
    debugger.end(why);
    assertEquals(List.of(EventBodies.event(new DebugEvent.DebuggerEnded(why))), reported);
    EventBody reply =
        ending.execute(Commands.evaluate("rank")).toCompletableFuture().getNow(null).body();
    assertEquals(EventBodies.error(why), reply);
  }

  @Test
  void detachRepliesDetachedAndLaterCommandsSaySo() throws Exception {
    CommandBody detach = Commands.detach();
    run(Commands.startSession(LaunchSpec.of("/bin/sim")));
    assertEquals(
        EventBodies.error("The program is not being run."),
        run(detach),
        "nothing to detach from yet");
    run(Commands.setBreakpoint(BreakpointSpec.at("compute")));
    run(Commands.run());
    assertEquals(EventBodies.detached(), run(detach));
    assertEquals(
        EventBodies.error(io.sdmfabric.model.Debugger.DETACHED), run(Commands.listFrames()));
    assertEquals(EventBodies.error(io.sdmfabric.model.Debugger.DETACHED), run(detach));
  }

  @Test
  void anEmptyCommandIsAnErrorReply() throws Exception {
    assertEquals(
        EventBodies.error("unknown command: KIND_NOT_SET"), run(CommandBody.newBuilder().build()));
  }
}
