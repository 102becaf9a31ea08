package io.sdmfabric.runtime;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.pekko.actor.Address;

/**
 * Which members of a session's cluster go, decided by each member from its own view; the master is
 * never taken out by anyone but itself.
 *
 * <p>The master downs every other member that has been unreachable for {@code stableAfter}: a
 * crashed agent, a node whose network failed, and also a node that only the master cannot reach (a
 * cut route between the two), since the master must reach every server of its tree. It never downs
 * itself, whoever cannot reach it. An agent downs only itself, once the master has been unreachable
 * for {@code masterLostAfter}: longer than the master takes to down it, so that an agent the master
 * still reaches stays, and one the master dropped leaves even when no news of its downing reaches
 * it.
 *
 * <p>Pekko's split-brain resolver, which sdm used before, decides by the whole cluster's view: when
 * the master and one node could not reach each other while both reached the others, it downed both
 * ("indirectly connected"), and the session with the master.
 *
 * @param stableAfter how long a member stays unreachable before the master downs it
 * @param masterLostAfter how long the master stays unreachable before an agent downs itself
 */
record DowningRule(Duration stableAfter, Duration masterLostAfter) {
  DowningRule {
    Objects.requireNonNull(stableAfter, "stableAfter");
    Objects.requireNonNull(masterLostAfter, "masterLostAfter");
    if (masterLostAfter.compareTo(stableAfter) <= 0) {
      throw new IllegalArgumentException(
          "an agent must wait for the master longer than the master waits for it: "
              + masterLostAfter
              + " is not more than "
              + stableAfter);
    }
  }

  /**
   * The members {@code self} downs now, given how long each unreachable member has been so ({@code
   * unreachableFor}, as the cluster sees it) and which member is the master.
   */
  Set<Address> toDown(Address self, Address master, Map<Address, Duration> unreachableFor) {
    Set<Address> down = new TreeSet<>(Address.addressOrdering());
    if (self.equals(master)) {
      unreachableFor.forEach(
          (member, duration) -> {
            if (!member.equals(self) && duration.compareTo(stableAfter) >= 0) {
              down.add(member);
            }
          });
    } else {
      Duration masterUnreachable = unreachableFor.get(master);
      if (masterUnreachable != null && masterUnreachable.compareTo(masterLostAfter) >= 0) {
        down.add(self);
      }
    }
    return down;
  }
}
