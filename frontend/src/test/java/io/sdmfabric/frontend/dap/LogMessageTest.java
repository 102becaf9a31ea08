package io.sdmfabric.frontend.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sdmfabric.model.RankSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LogMessageTest {
  @Test
  void expressionsAreInBracesAndEscapedBracesAreText() {
    LogMessage m = LogMessage.parse("x is { x }, \\{not\\} {a[i].w}!");
    assertEquals(List.of("x", "a[i].w"), m.expressions());
    assertEquals(List.of("x is ", ", {not} ", "!"), m.texts());
  }

  @Test
  void ranksWithTheSameMessageShareALine() {
    LogMessage m = LogMessage.parse("x={x} y={y}");
    Map<String, Map<Integer, String>> values =
        Map.of(
            "x",
            Map.of(0, "1", 1, "1", 2, "1", 3, "2"),
            "y",
            Map.of(0, "5", 1, "6", 2, "5", 3, "5"));
    assertEquals(
        List.of("[0,2] x=1 y=5", "[1] x=1 y=6", "[3] x=2 y=5"),
        m.lines(RankSet.range(0, 4), e -> rank -> values.get(e).get(rank)));
  }

  @Test
  void aMessageWithoutExpressionsIsOneLine() {
    assertEquals(
        List.of("[0-7] here"), LogMessage.parse("here").lines(RankSet.range(0, 8), e -> r -> ""));
  }

  @Test
  void anOpenOrEmptyBraceIsRefused() {
    assertEquals(
        "log message has a { without its }",
        assertThrows(IllegalArgumentException.class, () -> LogMessage.parse("x={x")).getMessage());
    assertThrows(IllegalArgumentException.class, () -> LogMessage.parse("x={ }"));
  }
}
