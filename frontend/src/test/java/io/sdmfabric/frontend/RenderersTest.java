package io.sdmfabric.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.NodeState;
import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.FrameProto;
import io.sdmfabric.wire.proto.SuspendedEvent;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * How the session's start, the end of a rank, of its debugger, a detach, and a reply a peer sent
 * malformed show as text and as JSON.
 */
class RenderersTest {
  private static final String WHY = "gdb exited unexpectedly (killed by SIGKILL)";
  private static final RankReply ENDED =
      new RankReply(RankSet.of(3), EventBodies.event(new DebugEvent.DebuggerEnded(WHY)));
  private static final List<ProcessTable.Row> ROWS =
      List.of(
          new ProcessTable.Row(ProcessState.EXITED, "exit code 0", RankSet.of(0, 1, 2)),
          new ProcessTable.Row(ProcessState.ERROR, WHY, RankSet.of(3)));

  private static String render(Function<PrintStream, Renderer> make, RankReply event) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Renderer r = make.apply(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    r.session(RankSet.all(4), SessionClient.Started.PMIX);
    r.event(event);
    r.procs(new ProcessTable.Listing(ROWS, List.of(), List.of()), SessionClient.Started.PMIX);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void textShowsTheRankInErrorWithTheReason() {
    String out = render(TextRenderer::new, ENDED);
    assertEquals(
        String.join(
            System.lineSeparator(),
            "[0-3] started by the launcher through the PMIx tool interface",
            "[3] error: " + WHY,
            String.format("%-12s %-40s %s", "state", "location", "ranks"),
            String.format("%-12s %-40s [%s]", "exited", "exit code 0", "0-2"),
            String.format("%-12s %-40s [%s]", "error", WHY, "3"),
            "(started by the launcher through the PMIx tool interface)",
            ""),
        out);
  }

  @Test
  void jsonProcsHasTheNodesAndWithDashLEveryRank() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new JsonRenderer(new PrintStream(bytes, true, StandardCharsets.UTF_8))
        .procs(
            new ProcessTable.Listing(
                List.of(new ProcessTable.Row(ProcessState.STOPPED, "main at a.c:3", RankSet.of(0))),
                List.of(new ProcessTable.Node("node1", NodeState.UP, 77, RankSet.of(0, 1))),
                List.of(
                    new ProcessTable.Process(
                        0, ProcessState.STOPPED, "main at a.c:3", "node1", 4100, 2))),
            SessionClient.Started.SHIM);
    assertEquals(
        "{\"event\":\"procs\",\"ranks\":\"0\",\"rows\":["
            + "{\"state\":\"stopped\",\"location\":\"main at a.c:3\",\"ranks\":\"0\"}],"
            + "\"nodes\":[{\"host\":\"node1\",\"state\":\"up\",\"serverPid\":77,"
            + "\"ranks\":\"0,1\"}],"
            + "\"processes\":[{\"rank\":0,\"state\":\"stopped\",\"location\":\"main at a.c:3\","
            + "\"host\":\"node1\",\"pid\":4100,\"threads\":2}],\"started\":\"shim\"}",
        bytes.toString(StandardCharsets.UTF_8).strip());
  }

  @Test
  void jsonHasADebuggerEndedEventAndAnErrorRowWithTheMessage() {
    String out = render(JsonRenderer::new, ENDED);
    assertEquals(
        String.join(
            System.lineSeparator(),
            "{\"event\":\"session\",\"ranks\":\"0-3\",\"started\":\"pmix\"}",
            "{\"event\":\"debugger-ended\",\"ranks\":\"3\",\"message\":\"" + WHY + "\"}",
            "{\"event\":\"procs\",\"ranks\":\"0-3\",\"rows\":["
                + "{\"state\":\"exited\",\"location\":\"exit code 0\",\"ranks\":\"0-2\"},"
                + "{\"state\":\"error\",\"message\":\""
                + WHY
                + "\",\"ranks\":\"3\"}],\"started\":\"pmix\"}",
            ""),
        out);
  }

  private static String renderReply(Function<PrintStream, Renderer> make, RankReply reply) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    make.apply(new PrintStream(bytes, true, StandardCharsets.UTF_8)).reply("detach", "", reply);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void anExitShowsItsCodeItsSignalOrThatGdbDidNotSayHow() {
    RankSet ranks = RankSet.of(2);
    List<DebugEvent.Exited> exits =
        List.of(
            DebugEvent.Exited.withCode(3),
            DebugEvent.Exited.bySignal("SIGSEGV"),
            DebugEvent.Exited.withStatusLost());
    List<String> text = new java.util.ArrayList<>();
    List<String> json = new java.util.ArrayList<>();
    ProcessTable table = new ProcessTable(1);
    List<String> rows = new java.util.ArrayList<>();
    for (DebugEvent.Exited exit : exits) {
      RankReply event = new RankReply(ranks, EventBodies.event(exit));
      text.add(renderEvent(TextRenderer::new, event).strip());
      json.add(renderEvent(JsonRenderer::new, event).strip());
      table.apply(new RankReply(RankSet.of(0), EventBodies.event(exit)));
      rows.add(table.rows(RankSet.all(1)).get(0).location());
    }
    assertEquals(
        List.of(
            "[2] exited with code 3",
            "[2] killed by signal SIGSEGV",
            "[2] exited; gdb did not say how"),
        text);
    assertEquals(
        List.of(
            "{\"event\":\"exited\",\"ranks\":\"2\",\"code\":3}",
            "{\"event\":\"exited\",\"ranks\":\"2\",\"signal\":\"SIGSEGV\"}",
            "{\"event\":\"exited\",\"ranks\":\"2\",\"statusLost\":true}"),
        json);
    assertEquals(List.of("exit code 3", "signal SIGSEGV", "exit status unknown"), rows);
  }

  @Test
  void aLostRankShowsAsTheErrorRankLostAsAnEventAndAsAReply() {
    RankReply lost = new RankReply(RankSet.range(3, 7), EventBodies.rankLost());
    String text = "[3-6] error: rank lost" + System.lineSeparator();
    String json =
        "{\"event\":\"error\",\"ranks\":\"3-6\",\"message\":\"rank lost\"}"
            + System.lineSeparator();
    assertEquals(text, renderReply(TextRenderer::new, lost));
    assertEquals(json, renderReply(JsonRenderer::new, lost));
    assertEquals(text, renderEvent(TextRenderer::new, lost));
    assertEquals(json, renderEvent(JsonRenderer::new, lost));
  }

  private static String renderEvent(Function<PrintStream, Renderer> make, RankReply event) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    make.apply(new PrintStream(bytes, true, StandardCharsets.UTF_8)).event(event);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aDetachShowsAsDetachedWithItsRanks() {
    RankReply detached = new RankReply(RankSet.of(0, 1, 2, 5), EventBodies.detached());
    assertEquals(
        "[0-2,5] detached" + System.lineSeparator(), renderReply(TextRenderer::new, detached));
    assertEquals(
        "{\"event\":\"detached\",\"ranks\":\"0-2,5\"}" + System.lineSeparator(),
        renderReply(JsonRenderer::new, detached));
  }

  @Test
  void aMalformedEventIsAnErrorOfItsRanksInTextAndInJson() {
    RankReply stopAtNegativeLine =
        new RankReply(
            RankSet.of(1, 2),
            EventBody.newBuilder()
                .setSuspended(
                    SuspendedEvent.newBuilder()
                        .setFrame(FrameProto.newBuilder().setFunction("main").setLine(-3)))
                .build());
    String why = "malformed suspended reply: level and line must be >= 0";
    assertEquals(
        "[1,2] error: " + why + System.lineSeparator(),
        renderReply(TextRenderer::new, stopAtNegativeLine));
    assertEquals(
        "{\"event\":\"error\",\"ranks\":\"1,2\",\"message\":\""
            + why
            + "\"}"
            + System.lineSeparator(),
        renderReply(JsonRenderer::new, stopAtNegativeLine));
  }

  private static final RankReply SUMMARY =
      new RankReply(
          RankSet.range(64, 1 << 20),
          EventBodies.valueSummary(
              1_048_512,
              List.of(
                  new Reply.Extreme(
                      Value.scalar("distinct", "int", Value.Kind.INTEGER, 4, "449"),
                      RankSet.of(64)),
                  new Reply.Extreme(
                      Value.scalar("distinct", "int", Value.Kind.INTEGER, 4, "7340026"),
                      RankSet.of(1_048_575)))));

  private static String reply(Function<PrintStream, Renderer> make, RankReply reply) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    make.apply(new PrintStream(bytes, true, StandardCharsets.UTF_8))
        .reply("print", "distinct", reply);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aSummaryOfValuesIsOneLineOfTextWithHowManyAndTheirRange() {
    assertEquals(
        "[64-1048575] distinct = ... and 1,048,512 more values on 1,048,512 ranks,"
            + " min 449 [64], max 7340026 [1048575] (print --all shows them)"
            + System.lineSeparator(),
        reply(TextRenderer::new, SUMMARY));
    RankReply strings = new RankReply(RankSet.of(5), EventBodies.valueSummary(1, List.of()));
    assertEquals(
        "[5] s = ... and 1 more value on 1 rank (print --all shows them)" + System.lineSeparator(),
        reply(p -> new TextRenderer(p), strings).replace("distinct", "s"));
  }

  @Test
  void aSummaryOfValuesIsAJsonEventWithItsCountsAndItsExtremes() {
    assertEquals(
        "{\"event\":\"value-summary\",\"ranks\":\"64-1048575\",\"expr\":\"distinct\","
            + "\"classes\":1048512,\"rankCount\":1048512,"
            + "\"min\":{\"value\":\"449\",\"type\":\"int\",\"ranks\":\"64\"},"
            + "\"max\":{\"value\":\"7340026\",\"type\":\"int\",\"ranks\":\"1048575\"}}"
            + System.lineSeparator(),
        reply(JsonRenderer::new, SUMMARY));
  }
}
