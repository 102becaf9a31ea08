package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.WatchKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The command lines sdm sends gdb, byte for byte: they are the protocol with gdb. */
class MiCommandsTest {
  private static final MiScope RANK = MiScope.group("i2");
  private static final MiScope FRAME = MiScope.frame(7, 1);

  @Test
  void startupSetsNonStopAsyncAndTheFirstTerminal() {
    assertEquals(
        List.of(
            "-gdb-set non-stop on",
            "-gdb-set mi-async on",
            "-gdb-set pagination off",
            "-gdb-set confirm off",
            "-gdb-set width 0",
            "-gdb-set height 0",
            "-gdb-set breakpoint pending on",
            "-inferior-tty-set /dev/pts/7"),
        MiCommands.startup("/dev/pts/7").stream().map(MiCommand::text).toList());
  }

  @Test
  void scopesAreTheCommandsFirstOptions() {
    assertEquals("-exec-continue", MiCommands.resume(MiScope.GDB).text());
    assertEquals("-exec-continue --thread-group i2", MiCommands.resume(RANK).text());
    assertEquals(
        "-exec-step --thread 7",
        MiCommands.step(MiScope.thread(7), io.sdmfabric.model.StepKind.INTO).text());
    assertEquals(
        "-stack-list-variables --thread 7 --frame 1 --simple-values",
        MiCommands.variables(FRAME).text());
  }

  @Test
  void cliCommandsAreOneQuotedParameterOfInterpreterExec() {
    assertEquals(
        "-interpreter-exec --thread 7 --frame 1 console \"handle SIGSTOP nostop noprint nopass\"",
        MiCommands.handle(FRAME, "SIGSTOP", List.of("nostop", "noprint", "nopass")).text());
    assertEquals("-interpreter-exec --thread-group i2 console kill", MiCommands.kill(RANK).text());
    assertEquals(
        "-interpreter-exec console \"set auto-solib-add off\"",
        MiCommands.readLibrarySymbols(false).text());
    assertEquals(
        "-interpreter-exec --thread 7 --frame 1 console \"set environment A=b c\"",
        MiCommands.environment(FRAME, "A", "b c").text());
  }

  @Test
  void jointCommandsNameEachRanksThreadAndFrameInOneCommandOfGdbItself() {
    assertEquals(
        "-interpreter-exec console \"sdm-frames 7 3,5,12\"",
        MiCommands.sdmFrames(7, List.of(3, 5, 12)).text());
    assertEquals(
        "-interpreter-exec console \"sdm-values 8 2 100 3.0,5.2 a[\\\"i\\\"]\"",
        MiCommands.sdmValues(
                8,
                List.of(new MiScope.AtFrame(3, 0), new MiScope.AtFrame(5, 2)),
                2,
                100,
                "a[\"i\"]")
            .text());
    assertEquals("-gdb-show sdm-answer", MiCommands.jointAnswer().text());
  }

  @Test
  void breakpointInsertHasItsOptionsBeforeTheLocation() {
    assertEquals(
        "-break-insert --thread 7 -f -c \"$_inferior == 2\" main",
        MiCommands.insertBreakpoint(MiScope.thread(7), BreakpointSpec.at("main"), "$_inferior == 2")
            .text());
    BreakpointSpec all = BreakpointSpec.at("f.c:3").asTemporary().asDisabled().withIgnoreCount(4);
    assertEquals(
        "-break-insert --thread 7 -f -t -d -c x -i 4 f.c:3",
        MiCommands.insertBreakpoint(MiScope.thread(7), all, "x").text());
  }

  @Test
  void watchpointsSayTheirKindByOption() {
    assertEquals(
        "-break-watch --thread-group i2 v",
        MiCommands.insertWatchpoint(RANK, "v", WatchKind.WRITE).text());
    assertEquals(
        "-break-watch --thread-group i2 -r v",
        MiCommands.insertWatchpoint(RANK, "v", WatchKind.READ).text());
    assertEquals(
        "-break-watch --thread-group i2 -a v",
        MiCommands.insertWatchpoint(RANK, "v", WatchKind.ACCESS).text());
  }

  @Test
  void enablingALocationNamesItByItsDottedNumber() {
    assertEquals("-break-disable 2.1", MiCommands.enableBreakpoint("2.1", false).text());
    assertEquals("-break-enable 3", MiCommands.enableBreakpoint(3, true).text());
  }

  @Test
  void argumentsAreQuotedForTheShellAndPassedAsTheyAre() {
    assertEquals(
        "-exec-arguments --thread-group i2 plain 'two words'",
        MiCommands.arguments(RANK, List.of("plain", "two words")).text());
    assertThrows(IllegalArgumentException.class, () -> MiCommands.arguments(RANK, List.of("a\nb")));
  }

  @Test
  void aCommandForNothingSelectsNoThreadThroughAnEmptyInferior() {
    assertEquals(
        "-gdb-show --thread-group i9 confirm", MiCommands.nothing(MiScope.group("i9")).text());
    assertEquals("-gdb-show confirm", MiCommands.nothing(MiScope.GDB).text());
  }

  @Test
  void valueCommandsNameTheirDepthAndWidth() {
    assertEquals(
        "-interpreter-exec --thread 7 --frame 1 console \"sdm-value 2 100 a[1]\"",
        MiCommands.sdmValue(FRAME, 2, 100, "a[1]").text());
    assertEquals(
        "-var-create --thread 7 --frame 1 \"-\" * p", MiCommands.createVariable(FRAME, "p").text());
    assertEquals(
        "-var-list-children --all-values var1 0 100",
        MiCommands.variableChildren("var1", 100).text());
  }
}
