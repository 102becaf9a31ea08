package io.sdmfabric.frontend.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalAction;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.SignalWords;
import io.sdmfabric.wire.proto.CommandBody;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.eclipse.lsp4j.debug.ExceptionInfoResponse;
import org.eclipse.lsp4j.debug.SetExceptionBreakpointsResponse;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.junit.jupiter.api.Test;

class SignalFiltersTest {
  private final List<String> sent = new ArrayList<>();
  private final SignalFilters signals =
      new SignalFilters(
          (command, ranks) -> {
            sent.add(shown(command) + " to [" + ranks + "]");
            return List.of(new RankReply(ranks, EventBodies.ok()));
          });

  @Test
  void theChosenSignalsStopTheLiveRanksAndTheOthersPassSilently() {
    SetExceptionBreakpointsResponse response =
        signals.choose(new String[] {"SIGSEGV"}, RankSet.of(0, 1));
    assertEquals(
        List.of(
            "SIGSEGV "
                + EnumSet.of(SignalAction.STOP, SignalAction.PRINT, SignalAction.PASS)
                + " to [0,1]",
            "SIGABRT " + quiet() + " to [0,1]",
            "SIGFPE " + quiet() + " to [0,1]",
            "SIGBUS " + quiet() + " to [0,1]"),
        sent);
    assertEquals(1, response.getBreakpoints().length);
    assertTrue(response.getBreakpoints()[0].isVerified());
  }

  @Test
  void noRankIsAskedWhenNoneIsLive() {
    signals.choose(null, RankSet.empty());
    assertEquals(List.of(), sent);
  }

  @Test
  void exceptionInfoNamesTheSignalOfAGroupStoppedByOneAndRefusesAGroupThatIsNot() {
    RankGroups.Group crashed =
        new RankGroups.Group(5, RankSet.of(0, 2), ProcessState.STOPPED, "SIGSEGV in f at a.c:3");
    ExceptionInfoResponse info = signals.exceptionInfo(crashed);
    assertEquals("SIGSEGV", info.getExceptionId());
    assertEquals("SIGSEGV on [0,2] in f at a.c:3", info.getDescription());

    RankGroups.Group atABreakpoint =
        new RankGroups.Group(6, RankSet.of(1), ProcessState.STOPPED, "f at a.c:3");
    assertThrows(ResponseErrorException.class, () -> signals.exceptionInfo(atABreakpoint));
  }

  private static String shown(CommandBody command) {
    return command.getHandleSignal().getSignal()
        + " "
        + SignalWords.actions(command.getHandleSignal().getActionsList());
  }

  private static EnumSet<SignalAction> quiet() {
    return EnumSet.of(SignalAction.NOSTOP, SignalAction.NOPRINT, SignalAction.PASS);
  }
}
