package io.sdmfabric.frontend;

import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.SessionClient;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * {@code sdm stacks} of a job that sdm did not start: the ranks a session has just attached to
 * (stopped where they were) are sampled ({@link StackSnapshot#sample}), then detached from, so that
 * the job runs on as it was, whatever happened while sampling.
 */
public final class RunningJobStacks {
  /** How long the ranks have to answer the detach. */
  private static final Duration DETACH_LIMIT = Duration.ofSeconds(60);

  private RunningJobStacks() {}

  /**
   * Samples {@code attached} {@code count} times, {@code interval} apart, and detaches from them.
   *
   * @param session a session whose ranks {@code attached} are attached and stopped, and no other
   *     rank's events are news
   */
  public static StackSnapshot sampleThenDetach(
      SessionClient session, RankSet attached, int count, Duration interval) throws Exception {
    ProcessTable table = new ProcessTable(session.size());
    session.subscribe(table::apply);
    table.put(attached, ProcessState.STOPPED, "attached");
    try {
      return StackSnapshot.sample(session, table, attached, count, interval);
    } finally {
      // Whatever happened, the job runs on without sdm.
      session
          .call(Commands.detach(), attached, Duration.ZERO)
          .get(DETACH_LIMIT.toSeconds(), TimeUnit.SECONDS);
    }
  }
}
