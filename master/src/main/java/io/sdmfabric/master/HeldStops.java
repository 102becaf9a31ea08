package io.sdmfabric.master;

import java.util.List;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * How many of the ranks that run, continue or step resumed have stopped (or exited) so far, of how
 * many: what the session's {@link StopGathering}s know while they hold stops until every rank has
 * stopped. Published on the actor system's event stream when a gathering begins and each time
 * events come up the tree while one waits, for a front-end to show a long run to the first stop
 * ("812 stopped, waiting for 212 running"); publishing costs next to nothing when no one listens.
 * Ranks a gathering stops waiting for (lost, or resumed again by a newer command) count as stopped
 * in it.
 */
public record HeldStops(int stopped, int resumed) implements NoSerializationVerificationNeeded {

  /** How many of the ranks {@code gatherings} were started with have stopped, all together. */
  static HeldStops of(List<StopGathering> gatherings) {
    int stopped = 0;
    int resumed = 0;
    for (StopGathering g : gatherings) {
      stopped += g.resumed() - g.waiting();
      resumed += g.resumed();
    }
    return new HeldStops(stopped, resumed);
  }

  /** Publishes what {@code gatherings} know on {@code system}'s event stream, if they wait. */
  static void publish(ActorSystem<?> system, List<StopGathering> gatherings) {
    if (!gatherings.isEmpty()) {
      system.classicSystem().eventStream().publish(of(gatherings));
    }
  }
}
