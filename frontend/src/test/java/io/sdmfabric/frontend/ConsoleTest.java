package io.sdmfabric.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.NodeState;
import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StopReason;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.EventSubscribers;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.Subscription;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.ValueProto;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The console over a session that answers from a script: what {@code detach} and an attach's {@link
 * Console#recordStops} leave in the process table.
 */
class ConsoleTest {
  private static final Frame SLEEP = new Frame(0, 0x7f00L, "nanosleep", "", 0, "libc.so.6");
  private static final String NOT_ATTACHED = "gdb could not attach to pid 7: ptrace failed";

  /**
   * A value that breaks the model's rules (a child its count does not allow), named with a
   * terminal's escape and a line feed, as a peer that breaks the protocol might send it.
   */
  private static final EventBody MALFORMED_VALUE =
      EventBody.newBuilder()
          .setValue(
              ValueProto.newBuilder()
                  .setName("x\u001b[2J\nfake")
                  .addChildren(ValueProto.newBuilder().setName("y")))
          .build();

  /**
   * Four ranks: 0-2 attached and stopped in nanosleep (0 and 1 on node1, 2 on node2), 3 without a
   * debugger.
   */
  private static final class Scripted implements SessionClient {
    final List<CommandBody.KindCase> calls = new ArrayList<>();
    final EventSubscribers events = new EventSubscribers();

    @Override
    public int size() {
      return 4;
    }

    @Override
    public Started started() {
      return Started.ATTACH;
    }

    @Override
    public CompletableFuture<List<RankReply>> call(
        CommandBody command, RankSet dest, Duration timeout) {
      calls.add(command.getKindCase());
      RankSet attached = dest.intersect(RankSet.range(0, 3));
      RankSet failed = dest.intersect(RankSet.of(3));
      List<RankReply> replies = new ArrayList<>();
      if (!failed.isEmpty()) {
        replies.add(new RankReply(failed, EventBodies.error(NOT_ATTACHED)));
      }
      if (command.getEvaluate().getExpression().equals("distinct") && !attached.isEmpty()) {
        // Each rank its own value, rank * 7 + 1; as a tree capped at one class would answer,
        // unless the command asks for more.
        for (int r : attached.stream().toArray()) {
          if (command.getValueClasses() > 1 || r == attached.first()) {
            replies.add(new RankReply(RankSet.of(r), EventBodies.value(distinct(r))));
          }
        }
        if (command.getValueClasses() <= 1 && attached.size() > 1) {
          RankSet rest = attached.minus(RankSet.of(attached.first()));
          replies.add(
              new RankReply(
                  rest,
                  EventBodies.valueSummary(
                      rest.size(),
                      List.of(
                          new Reply.Extreme(distinct(rest.first()), RankSet.of(rest.first())),
                          new Reply.Extreme(distinct(rest.last()), RankSet.of(rest.last()))))));
        }
      } else if (command.getKindCase() == CommandBody.KindCase.PROCESS_INFO) {
        // Ranks 0 and 1 on node1, 2 on node2, each its own pid.
        attached.forEach(
            r ->
                replies.add(
                    new RankReply(
                        RankSet.of(r),
                        EventBodies.processInfo(100 + r, r < 2 ? "node1" : "node2", 7 + r / 2))));
      } else if (!attached.isEmpty()) {
        replies.add(
            new RankReply(
                attached,
                switch (command.getKindCase()) {
                  case DETACH -> EventBodies.detached();
                  case LIST_FRAMES -> EventBodies.frames(List.of(SLEEP));
                  case LIST_THREADS ->
                      EventBodies.threads(
                          List.of(
                              new ThreadInfo(1, "LWP 1", "", true, SLEEP),
                              new ThreadInfo(2, "LWP 2", "", true, SLEEP)));
                  case EVALUATE ->
                      command.getEvaluate().getExpression().equals("broken")
                          ? MALFORMED_VALUE
                          : EventBodies.value(
                              Value.scalar("x", "int", Value.Kind.INTEGER, 4, "42"));
                  default -> EventBodies.error("unexpected " + command.getKindCase());
                }));
      }
      return CompletableFuture.completedFuture(replies);
    }

    private static Value distinct(int rank) {
      return Value.scalar("distinct", "int", Value.Kind.INTEGER, 4, Integer.toString(rank * 7 + 1));
    }

    @Override
    public Subscription subscribe(Consumer<RankReply> listener) {
      return events.subscribe(listener);
    }

    @Override
    public void close() {}
  }

  private final Scripted session = new Scripted();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final Console console =
      new Console(session, new TextRenderer(new PrintStream(out, true, StandardCharsets.UTF_8)));

  @Test
  void recordStopsPutsAttachedRanksWhereTheyStoppedAndFailedOnesInErrorSilently() throws Exception {
    console.recordStops(RankSet.all(4));
    assertEquals(
        List.of(
            new ProcessTable.Row(ProcessState.STOPPED, SLEEP.describe(), RankSet.range(0, 3)),
            new ProcessTable.Row(ProcessState.ERROR, NOT_ATTACHED, RankSet.of(3))),
        console.table().rows(RankSet.all(4)));
    assertEquals("", out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void procsSaysHowManyThreadsTheStoppedRanksHaveAndHowTheRanksWereStarted() throws Exception {
    console.recordStops(RankSet.all(4));
    console.execute("procs");
    List<String> shown = out.toString(StandardCharsets.UTF_8).lines().toList();
    assertEquals(
        List.of(
            String.format("%-12s %-40s %-8s %s", "state", "location", "threads", "ranks"),
            String.format("%-12s %-40s %-8s [%s]", "stopped", SLEEP.describe(), 6, "0-2"),
            String.format("%-12s %-40s %-8s [%s]", "error", NOT_ATTACHED, "", "3"),
            String.format("%-20s %-6s %-10s %s", "host", "state", "server", "ranks"),
            String.format("%-20s %-6s %-10s [%s]", "node1", "up", "pid 7", "0,1"),
            String.format("%-20s %-6s %-10s [%s]", "node2", "up", "pid 8", "2"),
            "(attached to running processes)"),
        shown);
  }

  @Test
  void procsDashLShowsEveryRankWithItsHostPidAndThreads() throws Exception {
    console.recordStops(RankSet.all(4));
    console.execute("[1-3] procs -l");
    List<String> shown = out.toString(StandardCharsets.UTF_8).lines().toList();
    String each = "%-6s %-12s %-20s %-8s %-8s %s";
    assertEquals(
        List.of(
            String.format(each, "rank", "state", "host", "pid", "threads", "location"),
            String.format(each, 1, "stopped", "node1", 101, 2, SLEEP.describe()),
            String.format(each, 2, "stopped", "node2", 102, 2, SLEEP.describe()),
            String.format(each, 3, "error", "", "", "", NOT_ATTACHED)),
        shown.subList(6, 10),
        String.join("\n", shown));
    // Only the ranks asked were located.
    assertEquals(String.format("%-20s %-6s %-10s [%s]", "node1", "up", "pid 7", "1"), shown.get(4));
  }

  @Test
  void nodesGoDownWhenAllTheirRanksAreLost() throws Exception {
    console.recordStops(RankSet.all(4));
    console.execute("procs");
    console.table().lose(RankSet.of(2));
    assertEquals(
        List.of(
            new ProcessTable.Node("node1", NodeState.UP, 7, RankSet.of(0, 1)),
            new ProcessTable.Node("node2", NodeState.DOWN, 8, RankSet.of(2))),
        console.table().nodes());
  }

  @Test
  void aRankStoppedByASignalHasItsPlaceNameTheSignal() {
    console
        .table()
        .apply(
            new RankReply(
                RankSet.of(1),
                EventBodies.event(
                    new DebugEvent.Stopped(StopReason.SIGNAL_RECEIVED, "SIGSEGV", SLEEP, 1, 0))));
    ProcessTable.Row row = console.table().rows(RankSet.of(1)).get(0);
    assertEquals("SIGSEGV in " + SLEEP.describe(), row.location());
    assertEquals("SIGSEGV", ProcessTable.signalOf(row.location()).orElseThrow());
    assertEquals(SLEEP.describe(), ProcessTable.whereStopped(row.location()));
    assertTrue(ProcessTable.signalOf(SLEEP.describe()).isEmpty());
  }

  @Test
  void procsTakesOnlyDashL() {
    console.execute("procs --all");
    assertEquals(
        "error: \"procs\" takes \"-l\" (every rank with its host and pid) or nothing",
        out.toString(StandardCharsets.UTF_8).strip());
  }

  @Test
  void detachOfASetDoesWhatTheDetachLineDoes() throws Exception {
    console.recordStops(RankSet.all(4));
    console.detach(RankSet.range(1, 4));
    assertEquals(
        List.of(CommandBody.KindCase.LIST_FRAMES, CommandBody.KindCase.DETACH), session.calls);
    assertEquals(RankSet.of(1, 2), console.table().ranksIn(ProcessState.DETACHED, RankSet.all(4)));
    String shown = out.toString(StandardCharsets.UTF_8);
    assertEquals(
        List.of("[3] error: " + NOT_ATTACHED, "[1,2] detached"), shown.lines().toList(), shown);
  }

  @Test
  void focusOfASetDoesWhatTheFocusLineDoes() {
    console.focus(RankSet.of(0, 2));
    assertEquals(RankSet.of(0, 2), console.focus());
    console.execute("focus 1");
    assertEquals(RankSet.of(1), console.focus());
    console.focus(RankSet.of(1, 9));
    assertEquals(RankSet.all(4), console.focus());
    console.execute("focus 7");
    assertEquals(RankSet.all(4), console.focus());
    assertEquals(
        List.of(
            "[1,9] error: rank 9 is out of range: the job has ranks 0-3",
            "[7] error: rank 7 is out of range: the job has ranks 0-3"),
        out.toString(StandardCharsets.UTF_8).lines().toList());
    assertEquals(List.of(), session.calls);
  }

  @Test
  void aRankLostEventIsShownAsAnErrorAndMarksTheRanksLost() throws Exception {
    console.recordStops(RankSet.all(4));
    session.events.publish(new RankReply(RankSet.of(1, 2), EventBodies.rankLost()));
    assertEquals(RankSet.of(1, 2), console.table().ranksIn(ProcessState.LOST, RankSet.all(4)));
    assertEquals(
        List.of("[1,2] error: rank lost"), out.toString(StandardCharsets.UTF_8).lines().toList());
  }

  @Test
  void detachMarksTheRanksThatDetachedAndShowsTheOthersErrors() throws Exception {
    console.recordStops(RankSet.all(4));
    console.execute("[1-3] detach");
    assertEquals(
        List.of(CommandBody.KindCase.LIST_FRAMES, CommandBody.KindCase.DETACH), session.calls);
    assertEquals(RankSet.of(1, 2), console.table().ranksIn(ProcessState.DETACHED, RankSet.all(4)));
    assertEquals(RankSet.of(0), console.table().ranksIn(ProcessState.STOPPED, RankSet.all(4)));
    String shown = out.toString(StandardCharsets.UTF_8);
    assertEquals(
        List.of("[3] error: " + NOT_ATTACHED, "[1,2] detached"), shown.lines().toList(), shown);
  }

  @Test
  void aMalformedReplyIsAnEscapedErrorLineOfItsRanksAndTheNextReplyIsShown() throws Exception {
    console.execute("print broken");
    console.execute("print x");
    assertEquals(
        List.of(
            "[3] error: " + NOT_ATTACHED,
            "[0-2] error: malformed value reply: size must be >= 0 and childCount >= children"
                + " read, for x\\x1b[2J\\x0afake",
            "[3] error: " + NOT_ATTACHED,
            "[0-2] x = 42"),
        out.toString(StandardCharsets.UTF_8).lines().toList());
  }

  @Test
  void valuesTheTreeSummedUpAreOneLineWithTheirRangeAndPrintAllListsThem() throws Exception {
    console.execute("print distinct");
    console.execute("print --all distinct");
    assertEquals(
        List.of(
            "[3] error: " + NOT_ATTACHED,
            "[0] distinct = 1",
            "[1,2] distinct = ... and 2 more values on 2 ranks, min 8 [1], max 15 [2]"
                + " (print --all shows them)",
            "[3] error: " + NOT_ATTACHED,
            "[0] distinct = 1",
            "[1] distinct = 8",
            "[2] distinct = 15"),
        out.toString(StandardCharsets.UTF_8).lines().toList());
  }
}
