package io.sdmfabric.frontend.dap;

import io.sdmfabric.frontend.ProcessTable;
import io.sdmfabric.frontend.StackSnapshot;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.SessionClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What an editor's Parallel Stacks view shows of the session ({@code sdmStacks}, a request of sdm's
 * own): every thread's stack of the stopped ranks, merged, drawn as a graph with the MPI deadlock
 * the ranks are in, if any, as a self-contained page ({@link io.sdmfabric.frontend.StackPicture}).
 * The ranks that run are left running: the picture is of those the user has stopped.
 */
final class StacksView {
  private final Supplier<SessionClient> session;
  private final ProcessTable table;
  private final RankThreads threads;

  StacksView(Supplier<SessionClient> session, ProcessTable table, RankThreads threads) {
    this.session = session;
    this.table = table;
    this.threads = threads;
  }

  /**
   * {@code html}, the page, and {@code ranks}, the stopped ranks it shows; refused when no rank is
   * stopped.
   */
  Map<String, Object> stacks() {
    RankSet stopped = threads.stopped();
    if (stopped.isEmpty()) {
      throw RequestFailure.of("no rank is stopped: pause the ranks to see their stacks");
    }
    StackSnapshot snapshot;
    try {
      snapshot = StackSnapshot.sample(session.get(), table, stopped, 1, Duration.ZERO);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw RequestFailure.of("interrupted");
    } catch (Exception e) {
      throw RequestFailure.of(RequestFailure.message(e));
    }
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("html", snapshot.picture().html());
    view.put("ranks", stopped.toString());
    return view;
  }
}
