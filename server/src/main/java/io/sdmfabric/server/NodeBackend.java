package io.sdmfabric.server;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.EventBody;

/**
 * What a server node drives for its ranks: one vertex of the tree serves a set of ranks through one
 * backend, which may be one debugger per rank ({@link RankBackends}), one debugger for many ranks,
 * or none ({@link UnavailableRanks}). Commands come in for a subset of the node's ranks; every one
 * of those ranks is answered exactly once, on its own or merged with others that answered the same.
 *
 * <p>{@link #execute} must not block. Answers that are ready at once are best given before it
 * returns: the node merges them without a message through its mailbox. Failures are answers too: an
 * error is an {@code EventBody} with an {@code error}.
 */
public interface NodeBackend extends AutoCloseable {

  /** Where a command's answers go; may be called on any thread, before or after execute returns. */
  interface ReplySink {
    /** Ranks that answered {@code body}. */
    void reply(RankSet ranks, ReplyBody body);

    /** One rank that answered {@code body}. */
    default void reply(int rank, ReplyBody body) {
      reply(RankSet.of(rank), body);
    }
  }

  /** Where unsolicited events (stops, exits, output) go; may be called on any thread. */
  interface EventSink {
    /** Ranks that reported {@code body}; each rank's events in the order they happened. */
    void event(RankSet ranks, EventBody body);
  }

  /** Runs one command on {@code ranks}, a non-empty subset of the ranks this backend serves. */
  void execute(RankSet ranks, CommandBody command, ReplySink replies);

  /** Sets the receiver of unsolicited events; called once, before the first command. */
  void subscribe(EventSink events);

  /** Ends the debuggers and the programs they started; never throws. */
  @Override
  void close();
}
