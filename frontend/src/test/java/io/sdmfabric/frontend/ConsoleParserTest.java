package io.sdmfabric.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.frontend.ConsoleCommand.BreakpointChange.Change;
import io.sdmfabric.frontend.ConsoleCommand.Simple;
import io.sdmfabric.model.Location;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalAction;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConsoleParserTest {
  private static ConsoleCommand command(String line) {
    return ConsoleParser.parse(line).orElseThrow().command();
  }

  private static String error(String line) {
    return assertThrows(ConsoleSyntaxException.class, () -> ConsoleParser.parse(line)).getMessage();
  }

  @Test
  void aRankSetPrefixPicksTheRanks() {
    ParsedLine line = ConsoleParser.parse("[0-3,7] print x + 1").orElseThrow();
    assertEquals(Optional.of(RankSet.parse("0-3,7")), line.ranks());
    assertEquals(new ConsoleCommand.Print("x + 1"), line.command());
    assertEquals(RankSet.of(9), ConsoleParser.parse("p y").orElseThrow().ranksOr(RankSet.of(9)));
  }

  @Test
  void ptypeSpellsATypeOutAndWhatisNamesIt() {
    assertEquals(new ConsoleCommand.Ptype("*first"), command("ptype *first"));
    assertEquals(new ConsoleCommand.Whatis("cells[1]"), command("whatis cells[1]"));
    assertEquals("whatis needs an expression", error("whatis"));
  }

  @Test
  void blankLinesAndCommentsAreNothing() {
    assertTrue(ConsoleParser.parse("   ").isEmpty());
    assertTrue(ConsoleParser.parse("# a comment").isEmpty());
  }

  @Test
  void breakpointsTakeALocationAndACondition() {
    assertEquals(
        new ConsoleCommand.Break(new Location.Line("solver.c", 212), "i > 3", false),
        command("break solver.c:212 if i > 3"));
    assertEquals(
        new ConsoleCommand.Break(new Location.Function("MPI_Barrier"), "", true),
        command("tbreak MPI_Barrier"));
    assertEquals(new ConsoleCommand.BreakpointChange(Change.DISABLE, 2), command("disable 2"));
  }

  @ParameterizedTest
  @CsvSource({
    "run, RUN",
    "r, RUN",
    "c, CONTINUE",
    "continue, CONTINUE",
    "s, STEP",
    "n, NEXT",
    "finish, FINISH",
    "interrupt, INTERRUPT",
    "kill, KILL",
    "detach, DETACH",
    "bt, BACKTRACE",
    "where, BACKTRACE",
    "bt all, BACKTRACE_ALL",
    "backtrace ALL, BACKTRACE_ALL",
    "locals, LOCALS",
    "args, ARGS",
    "procs, PROCS",
    "help, HELP",
    "quit, QUIT",
    "q, QUIT",
    "info breakpoints, INFO_BREAKPOINTS",
    "info threads, INFO_THREADS",
    "info signals, INFO_SIGNALS"
  })
  void simpleCommandsAndTheirAbbreviations(String line, Simple expected) {
    assertEquals(expected, command(line));
  }

  @Test
  void commandsWithArguments() {
    assertEquals(new ConsoleCommand.Examine(16, "&buffer"), command("x/16 &buffer"));
    assertEquals(new ConsoleCommand.SelectFrame(2), command("frame 2"));
    assertEquals(new ConsoleCommand.MoveFrame(1), command("up"));
    assertEquals(new ConsoleCommand.MoveFrame(-3), command("down 3"));
    assertEquals(new ConsoleCommand.SelectThread(4), command("thread 4"));
    assertEquals(
        new ConsoleCommand.Handle("SIGUSR1", EnumSet.of(SignalAction.NOSTOP, SignalAction.PASS)),
        command("handle SIGUSR1 nostop pass"));
    assertEquals(new ConsoleCommand.Raw("info registers rip"), command("gdb info registers rip"));
    assertEquals(new ConsoleCommand.Input("hello world"), command("input hello world"));
    assertEquals(new ConsoleCommand.Wait(Duration.ofMillis(500)), command("wait 500ms"));
    assertEquals(new ConsoleCommand.Wait(Duration.ofSeconds(10)), command("wait 10"));
    assertEquals(new ConsoleCommand.Wait(ConsoleParser.DEFAULT_WAIT), command("wait"));
    assertEquals(new ConsoleCommand.Focus(RankSet.parse("0-15"), false), command("focus 0-15"));
    assertEquals(new ConsoleCommand.Focus(RankSet.empty(), true), command("focus all"));
  }

  @Test
  void badInputGetsAMessageThatSaysWhatToDo() {
    assertEquals("unknown command \"frobnicate\": try \"help\"", error("frobnicate"));
    assertTrue(error("[0-3 bt").startsWith("missing ]"));
    assertTrue(error("[3-1] bt").contains("3-1"), error("[3-1] bt"));
    assertEquals("a rank set needs a command after it, e.g. [0-3] bt", error("[1]"));
    assertEquals("print needs an expression", error("print"));
    assertEquals("frame needs a number, not \"x\"", error("frame x"));
    assertTrue(error("handle SIGUSR1 sometimes").startsWith("unknown signal action"));
    assertTrue(error("wait soon").startsWith("bad timeout"));
    assertTrue(error("info registers").startsWith("info what?"));
    assertEquals("\"bt\" takes \"all\" (every thread) or nothing", error("bt full"));
    assertEquals("\"detach\" takes no arguments: now", error("detach now"));
    assertEquals("break needs a location: FILE:LINE or FUNCTION", error("break"));
  }

  @Test
  void printTakesAllOrANumberOfValueClassesBeforeItsExpressionAndCsPreDecrementStaysOne() {
    assertEquals(
        new ConsoleCommand.Print("x + 1", Integer.MAX_VALUE),
        ConsoleParser.parse("print --all x + 1").orElseThrow().command());
    assertEquals(
        new ConsoleCommand.Print("a[i]", 1000),
        ConsoleParser.parse("p --classes 1000 a[i]").orElseThrow().command());
    assertEquals(
        new ConsoleCommand.Print("--all", 0),
        ConsoleParser.parse("print --all").orElseThrow().command());
    assertEquals(
        new ConsoleCommand.Print("--classes", 0),
        ConsoleParser.parse("print --classes").orElseThrow().command());
    assertEquals(
        "--classes needs a number of values from 1, e.g. print --classes 1000 x",
        error("print --classes many x"));
    assertEquals(
        "--classes needs a number of values from 1, e.g. print --classes 1000 x",
        error("print --classes 0 x"));
    assertEquals("print needs an expression", error("print --classes 10"));
    assertTrue(ConsoleParser.help().contains("print --all EXPR"));
  }
}
