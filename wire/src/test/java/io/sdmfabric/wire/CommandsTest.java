package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.SignalAction;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.model.WatchKind;
import io.sdmfabric.wire.proto.CommandBody;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class CommandsTest {

  private static List<CommandBody> everyKind() {
    return List.of(
        Commands.startSession(LaunchSpec.of("/bin/true")),
        Commands.setBreakpoint(BreakpointSpec.at("main")),
        Commands.deleteBreakpoint(1),
        Commands.enableBreakpoint(1),
        Commands.disableBreakpoint(1),
        Commands.setWatchpoint("x", WatchKind.WRITE),
        Commands.listBreakpoints(),
        Commands.run(),
        Commands.go(),
        Commands.step(StepKind.OVER),
        Commands.suspend(),
        Commands.terminate(),
        Commands.listFrames(),
        Commands.selectFrame(2),
        Commands.stackDepth(),
        Commands.evaluate("x"),
        Commands.getType("x"),
        Commands.listLocals(),
        Commands.listArgs(),
        Commands.listGlobals(),
        Commands.listThreads(),
        Commands.selectThread(3),
        Commands.readMemory("&x", 4),
        Commands.writeMemory("&x", new byte[] {1}),
        Commands.listSignals(),
        Commands.handleSignal("SIGUSR1", Set.of(SignalAction.NOSTOP)),
        Commands.cli("info frame"),
        Commands.input(new byte[] {'a'}),
        Commands.detach(),
        Commands.listAllStacks(),
        Commands.mpiWait(),
        Commands.processInfo());
  }

  @Test
  void everyKindOfTheCommandSetHasAFactory() {
    Set<CommandBody.KindCase> made =
        everyKind().stream().map(CommandBody::getKindCase).collect(Collectors.toSet());
    Set<CommandBody.KindCase> all = EnumSet.allOf(CommandBody.KindCase.class);
    all.remove(CommandBody.KindCase.KIND_NOT_SET);
    assertEquals(all, made);
  }

  @Test
  void argumentsLandInTheirFields() {
    assertEquals("x", Commands.evaluate("x").getEvaluate().getExpression());
    assertEquals(
        Protos.toProto(StepKind.RETURN), Commands.step(StepKind.RETURN).getStep().getKind());
    assertEquals(2, Commands.selectFrame(2).getSelectFrame().getLevel());
    assertEquals(7, Commands.disableBreakpoint(7).getDisableBreakpoint().getId());
    assertEquals(
        BreakpointSpec.at("main").asTemporary(),
        Protos.fromProto(
            Commands.setBreakpoint(BreakpointSpec.at("main").asTemporary()).getSetBreakpoint()));
    assertEquals(
        LaunchSpec.of("/bin/true"),
        Protos.fromProto(
            Commands.startSession(LaunchSpec.of("/bin/true")).getStartSession().getLaunch()));
    assertEquals(16, Commands.readMemory("&x", 16).getReadMemory().getCount());
    assertEquals(
        List.of("nostop", "nopass"),
        Commands.handleSignal("SIGUSR1", Set.of(SignalAction.NOPASS, SignalAction.NOSTOP))
            .getHandleSignal()
            .getActionsList());
  }

  @Test
  void anInputLineIsUtf8WithItsNewline() {
    assertEquals(
        "größe 1\n",
        Commands.inputLine("größe 1").getInput().getBytes().toString(StandardCharsets.UTF_8));
  }

  @Test
  void handleSignalCommandCarriesSortedActions() {
    var cmd =
        Commands.handleSignal("SIGUSR1", Set.of(SignalAction.PASS, SignalAction.NOSTOP))
            .getHandleSignal();
    assertEquals("SIGUSR1", cmd.getSignal());
    assertEquals(List.of("nostop", "pass"), cmd.getActionsList());
  }

  @Test
  void aCommandCarriesTheValueClassesItAsksForAndRefusesANegativeCount() {
    CommandBody print = Commands.withValueClasses(Commands.evaluate("x"), 10_000);

    assertEquals(10_000, print.getValueClasses());
    assertEquals("x", print.getEvaluate().getExpression());
    assertEquals(0, Commands.evaluate("x").getValueClasses());
    assertThrows(
        IllegalArgumentException.class,
        () -> Commands.withValueClasses(Commands.evaluate("x"), -1));
  }
}
