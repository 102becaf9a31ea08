package io.sdmfabric.server;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.CanonicalBytes;
import io.sdmfabric.wire.proto.EventBody;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The unsolicited events of a node's own ranks, queued by the backend's threads and drained in the
 * node's actor. One wake-up ({@code wake}, which sends the node a message) is under way whenever
 * the queue may hold some, so that a burst of events costs one message.
 */
final class ReportedEvents implements NodeBackend.EventSink {

  /** An event of some of the node's own ranks, as the backend reported it. */
  private record Reported(RankSet ranks, EventBody body) {}

  private final Queue<Reported> reported = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean wakeQueued = new AtomicBoolean();
  private final Runnable wake;

  ReportedEvents(Runnable wake) {
    this.wake = wake;
  }

  @Override
  public void event(RankSet ranks, EventBody body) {
    reported.add(new Reported(ranks, body));
    if (wakeQueued.compareAndSet(false, true)) {
      wake.run();
    }
  }

  /** Takes every event queued so far, each as one group of its canonical bytes; called on wake. */
  List<ReplyGroup> drain() {
    wakeQueued.set(false);
    List<ReplyGroup> groups = new ArrayList<>();
    for (Reported r = reported.poll(); r != null; r = reported.poll()) {
      groups.add(new ReplyGroup(r.ranks(), CanonicalBytes.of(r.body())));
    }
    return groups;
  }
}
