package io.sdmfabric.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.Address;
import org.junit.jupiter.api.Test;

class DowningRuleTest {
  private final DowningRule rule = new DowningRule(Duration.ofSeconds(3), Duration.ofSeconds(10));
  private final Address master = node("login");
  private final Address node3 = node("node3");
  private final Address node4 = node("node4");

  private static Address node(String host) {
    return Address.apply("pekko", ClusterSettings.SYSTEM, host, 25520);
  }

  private static Duration s(double seconds) {
    return Duration.ofMillis((long) (seconds * 1000));
  }

  @Test
  void theMasterDownsWhatHasBeenUnreachableLongEnoughAndNeverItself() {
    assertEquals(
        Set.of(node4),
        rule.toDown(master, master, Map.of(node4, s(3), node3, s(2.9), master, s(60))));
    assertEquals(Set.of(), rule.toDown(master, master, Map.of()));
  }

  @Test
  void whenTheMasterAndOneNodeLoseEachOtherTheMasterStaysAndTheNodeGoes() {
    // The cluster sees both unreachable: each is so to the other.
    Map<Address, Duration> seen = Map.of(master, s(5), node4, s(5));
    assertEquals(Set.of(node4), rule.toDown(master, master, seen));
    assertEquals(Set.of(), rule.toDown(node3, master, seen), "an onlooker downs nobody");
    assertEquals(
        Set.of(), rule.toDown(node4, master, seen), "the master has not had the time to down it");
  }

  @Test
  void anAgentDownsOnlyItselfOnceTheMasterHasBeenUnreachableLongerThanTheMasterWouldWait() {
    assertEquals(Set.of(), rule.toDown(node4, master, Map.of(master, s(9.9), node3, s(60))));
    assertEquals(Set.of(node4), rule.toDown(node4, master, Map.of(master, s(10), node3, s(60))));
  }

  @Test
  void anAgentMustWaitForTheMasterLongerThanTheMasterWaitsForIt() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new DowningRule(Duration.ofSeconds(3), Duration.ofSeconds(3)));
    assertEquals(
        "an agent must wait for the master longer than the master waits for it: PT3S is not more"
            + " than PT3S",
        e.getMessage());
  }
}
