package io.sdmfabric.master;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.proto.EventBody;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The master's record of the commands in flight: which ranks each one is still waiting for. A
 * command completes when replies cover its destination. A rank's reply counts once: a second reply
 * for a rank already covered (a {@code lost} reply racing a real one) is dropped.
 */
final class CommandTracker {
  private final Map<Long, Open> open = new HashMap<>();

  private static final class Open {
    final RankSet dest;
    final Consumer<SessionEvent> listener;
    RankSet covered = RankSet.empty();

    Open(RankSet dest, Consumer<SessionEvent> listener) {
      this.dest = dest;
      this.listener = listener;
    }
  }

  /** Starts tracking command {@code id}, whose replies and completion go to {@code listener}. */
  void open(long id, RankSet dest, Consumer<SessionEvent> listener) {
    Objects.requireNonNull(listener, "listener");
    open.put(id, new Open(dest, listener));
  }

  /** How many commands are in flight. */
  int size() {
    return open.size();
  }

  /** Records replies of {@code ranks} to command {@code id}; unknown ids are ignored. */
  void reply(long id, RankSet ranks, EventBody body) {
    Open c = open.get(id);
    if (c == null) {
      return;
    }
    RankSet fresh = ranks.minus(c.covered).intersect(c.dest);
    if (fresh.isEmpty()) {
      return;
    }
    c.covered = c.covered.union(fresh);
    c.listener.accept(new SessionEvent.Reply(id, fresh, body));
    if (c.covered.size() == c.dest.size()) {
      open.remove(id);
      c.listener.accept(new SessionEvent.Completed(id));
    }
  }

  /** Turns the lost ranks that open commands still wait for into error replies. */
  void lose(RankSet lost, EventBody lostBody) {
    List<Long> ids = new ArrayList<>(open.keySet());
    for (long id : ids) {
      reply(id, lost, lostBody);
    }
  }
}
