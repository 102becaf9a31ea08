package io.sdmfabric.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The sessions sdm listen has open and which one is active. The entries hold no real session: the
 * roster reads only their numbers here.
 */
class SessionRosterTest {
  private final List<String> said = new ArrayList<>();
  private final SessionRoster roster = new SessionRoster(said::add);

  private SessionRoster.Entry open() {
    SessionRoster.Entry s = new SessionRoster.Entry(roster.nextNumber(), null, null, null);
    roster.add(s);
    return s;
  }

  @Test
  void sessionsAreNumberedInTheOrderTheyOpenAndTheNewestIsActive() {
    SessionRoster.Entry first = open();
    SessionRoster.Entry second = open();
    assertEquals(1, first.number());
    assertEquals(2, second.number());
    assertEquals(Optional.of(second), roster.active());
    assertTrue(roster.several());
  }

  @Test
  void switchingMakesTheNamedSessionActiveAndAnUnknownNumberIsRefused() {
    SessionRoster.Entry first = open();
    open();
    roster.switchTo("1");
    assertEquals(Optional.of(first), roster.active());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> roster.switchTo("3"));
    assertEquals("no session 3 (sessions lists them)", e.getMessage());
    assertEquals(Optional.of(first), roster.active());
  }

  @Test
  void whenTheActiveSessionEndsTheLastOpenedOfTheOthersBecomesActive() {
    SessionRoster.Entry first = open();
    SessionRoster.Entry second = open();
    SessionRoster.Entry third = open();
    roster.switchTo("3");
    roster.ended(third, "quit");
    assertEquals(Optional.of(second), roster.active());
    roster.ended(second, "quit");
    assertEquals(Optional.of(first), roster.active());
    assertFalse(roster.several());
    roster.ended(first, "quit");
    assertEquals(Optional.empty(), roster.active());
  }

  @Test
  void anEndIsSaidOnceThoughBothSidesReportIt() {
    SessionRoster.Entry s = open();
    roster.ended(s, "the master said goodbye");
    roster.ended(s, "ended");
    assertEquals(List.of("session 1 ended: the master said goodbye"), said);
  }

  @Test
  void afterCloseAllEndingsAreNotSaidAndTheOpenSessionsAreReturned() {
    SessionRoster.Entry first = open();
    SessionRoster.Entry second = open();
    assertEquals(List.of(first, second), roster.closeAll());
    roster.ended(first, "exit");
    assertEquals(List.of(), said);
  }

  @Test
  void withNoSessionThePromptIsSdmListensOwnAndTheListSaysNone() {
    assertEquals("sdm listen> ", roster.prompt());
    assertEquals(List.of("no sessions"), roster.list());
  }
}
