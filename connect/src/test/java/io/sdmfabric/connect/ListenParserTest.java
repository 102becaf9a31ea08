package io.sdmfabric.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sdmfabric.connect.ListenParser.Line;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ListenParserTest {

  @ParameterizedTest
  @ValueSource(strings = {"", "   ", "# a comment", "  #accept"})
  void blankLinesAndCommentsAreNothing(String line) {
    assertEquals(Line.Nothing.INSTANCE, ListenParser.parse(line));
  }

  @Test
  void requestsWaitsSixtySecondsUnlessTold() {
    assertEquals(new Line.Requests(Optional.empty()), ListenParser.parse("requests"));
    assertEquals(
        new Line.Requests(Optional.of(Duration.ofSeconds(60))),
        ListenParser.parse("requests wait"));
    assertEquals(
        new Line.Requests(Optional.of(Duration.ofSeconds(5))),
        ListenParser.parse("  requests   wait 5s"));
  }

  @Test
  void requestsRefusesAnythingButWait() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ListenParser.parse("requests all"));
    assertEquals("requests takes nothing, or: wait [TIMEOUT]", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ListenParser.parse("requests wait soon"));
  }

  @Test
  void acceptTakesAnIdAndARelayInAnyOrder() {
    assertEquals(new Line.Accept(Optional.empty(), Optional.empty()), ListenParser.parse("accept"));
    assertEquals(
        new Line.Accept(Optional.of("ab12"), Optional.of("login:7000")),
        ListenParser.parse("accept --via login:7000 ab12"));
    assertEquals(
        new Line.Accept(Optional.of("ab12"), Optional.empty()), ListenParser.parse("accept ab12"));
  }

  @Test
  void acceptRefusesWhatItDoesNotKnowSayingWhy() {
    assertEquals(
        "--via needs HOST:PORT, the relay's address",
        assertThrows(IllegalArgumentException.class, () -> ListenParser.parse("accept --via"))
            .getMessage());
    assertEquals(
        "unknown option -x (accept [ID] [--via HOST:PORT])",
        assertThrows(IllegalArgumentException.class, () -> ListenParser.parse("accept -x"))
            .getMessage());
    assertEquals(
        "accept takes one request: accept [ID] [--via HOST:PORT]",
        assertThrows(IllegalArgumentException.class, () -> ListenParser.parse("accept a b"))
            .getMessage());
  }

  @Test
  void rejectOffersItsFirstWordAsAnIdOnlyWhenItIsHexadecimal() {
    Line.Reject named = (Line.Reject) ListenParser.parse("reject ab12 not now");
    assertEquals(List.of("ab12", "not", "now"), named.words());
    assertEquals(Optional.of("ab12"), named.id());
    assertEquals("not now", named.reason(true));
    assertEquals("ab12 not now", named.reason(false));

    Line.Reject reason = (Line.Reject) ListenParser.parse("reject busy today");
    assertEquals(Optional.empty(), reason.id());
    assertEquals("busy today", reason.reason(false));
    assertEquals(Optional.empty(), ((Line.Reject) ListenParser.parse("reject")).id());
  }

  @Test
  void sessionNeedsExactlyOneNumber() {
    assertEquals(new Line.SwitchTo("2"), ListenParser.parse("session 2"));
    assertEquals(Line.Sessions.INSTANCE, ListenParser.parse("sessions"));
    assertEquals(
        "session N: which session (sessions lists them)",
        assertThrows(IllegalArgumentException.class, () -> ListenParser.parse("session"))
            .getMessage());
  }

  @Test
  void everyOtherLineGoesToTheSessionStripped() {
    assertEquals(Line.Exit.INSTANCE, ListenParser.parse("exit"));
    assertEquals(Line.Help.INSTANCE, ListenParser.parse("help"));
    assertEquals(new Line.ToSession("[0-3] bt"), ListenParser.parse("  [0-3] bt "));
    assertEquals(new Line.ToSession("quit"), ListenParser.parse("quit"));
  }
}
