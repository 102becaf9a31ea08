package io.sdmfabric.master;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;
import java.util.Objects;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;

/**
 * What a session tells its front-ends. These stay in the master's JVM (front-ends in other
 * processes reach them through a gateway), so they are not serialized.
 */
public sealed interface SessionEvent extends NoSerializationVerificationNeeded
    permits SessionEvent.Accepted,
        SessionEvent.Rejected,
        SessionEvent.Reply,
        SessionEvent.Completed,
        SessionEvent.Unsolicited,
        SessionEvent.RanksLost,
        SessionEvent.TreeReady {

  /** A submitted command got its id and went down the tree. */
  record Accepted(long id, RankSet dest, CommandBody body) implements SessionEvent {
    public Accepted {
      Objects.requireNonNull(dest, "dest");
      Objects.requireNonNull(body, "body");
    }
  }

  /** A submitted command was refused before it reached any rank. */
  record Rejected(CommandBody body, String reason) implements SessionEvent {
    public Rejected {
      Objects.requireNonNull(body, "body");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * Ranks that gave the same reply to command {@code id}. Each rank replies once; a command's
   * replies may come in several parts (after a timeout, stragglers follow).
   */
  record Reply(long id, RankSet ranks, EventBody body) implements SessionEvent {
    public Reply {
      Objects.requireNonNull(ranks, "ranks");
      Objects.requireNonNull(body, "body");
    }
  }

  /** Every destination rank of command {@code id} has replied (or is lost). */
  record Completed(long id) implements SessionEvent {}

  /** Ranks that reported the same event on their own: a stop, an exit, output. */
  record Unsolicited(RankSet ranks, EventBody body) implements SessionEvent {
    public Unsolicited {
      Objects.requireNonNull(ranks, "ranks");
      Objects.requireNonNull(body, "body");
    }
  }

  /** A distributed tree is wired; {@code missing} ranks never registered and answer with errors. */
  record TreeReady(RankSet missing) implements SessionEvent {
    public TreeReady {
      Objects.requireNonNull(missing, "missing");
    }
  }

  /**
   * Ranks whose servers are gone; their pending replies have become {@code lost} replies, {@code
   * body} (a {@link io.sdmfabric.wire.EventBodies#rankLost(String)} with the reason).
   */
  record RanksLost(RankSet ranks, io.sdmfabric.wire.proto.EventBody body) implements SessionEvent {
    public RanksLost {
      Objects.requireNonNull(ranks, "ranks");
      Objects.requireNonNull(body, "body");
    }
  }
}
