package io.sdmfabric.wire;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.proto.CommandBody;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A front-end's view of a debug session: commands in, merged replies and events out. The console
 * uses it whether the master runs in the same JVM or in another process, behind the front-end
 * protocol ({@link RemoteSession}).
 */
public interface SessionClient extends AutoCloseable {

  /** The number of ranks in the job. */
  int size();

  /**
   * Runs a command on {@code dest}; completes with every rank's reply, merged, once all have
   * replied (or are lost), or fails when the session refuses the command (the message says why).
   */
  CompletableFuture<List<RankReply>> call(CommandBody command, RankSet dest, Duration timeout);

  /**
   * Sets the receiver of unsolicited events (stops, exits, output, lost ranks, debuggers that
   * ended).
   */
  void onEvent(Consumer<RankReply> events);

  /** Ends the session: every debugger and program. */
  @Override
  void close();
}
