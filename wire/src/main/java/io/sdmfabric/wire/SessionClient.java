package io.sdmfabric.wire;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StartProgress;
import io.sdmfabric.wire.proto.CommandBody;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A front-end's view of a debug session: commands in, merged replies and events out, to as many
 * subscribers as want them (a debug adapter and the console of its Debug Console both listen). The
 * console uses it whether the master runs in the same JVM or in another process, behind the
 * front-end protocol ({@code RemoteSession}).
 */
public interface SessionClient extends AutoCloseable {

  /** How a session's ranks came to be debugged. */
  enum Started {
    /** Each rank's gdb started it: {@code sdm debug} without a launcher. */
    GDB("gdb", "each started by its gdb"),
    /** A launcher started them under sdm's rank shim, which holds each before its exec. */
    SHIM("shim", "started by the launcher under sdm's rank shim"),
    /**
     * A launcher started them under sdm's rank shim, and sdm's MPI library held each at the end of
     * MPI_Init (sdm debug without --from-exec).
     */
    SHIM_IN_INIT(
        "shim-init",
        "started by the launcher under sdm's rank shim, each held at the end of MPI_Init"),
    /** A launcher started them through the PMIx tool interface, each held in PMIx_Init. */
    PMIX("pmix", "started by the launcher through the PMIx tool interface"),
    /** sdm attached to processes that ran already. */
    ATTACH("attach", "attached to running processes");

    private final String word;
    private final String description;

    Started(String word, String description) {
      this.word = word;
      this.description = description;
    }

    /** Its word in the JSON stream and on the wire: gdb, shim, shim-init, pmix or attach. */
    public String word() {
      return word;
    }

    /** How people read it: "started by the launcher through the PMIx tool interface". */
    public String description() {
      return description;
    }

    /** The start its word names; empty for a word this version does not know. */
    public static java.util.Optional<Started> named(String word) {
      return java.util.Arrays.stream(values()).filter(s -> s.word.equals(word)).findFirst();
    }
  }

  /** The number of ranks in the job. */
  int size();

  /** How the ranks came to be debugged. */
  Started started();

  /**
   * Runs a command on {@code dest}; completes with every rank's reply, merged, once all have
   * replied (or are lost), or fails when the session refuses the command (the message says why).
   */
  CompletableFuture<List<RankReply>> call(CommandBody command, RankSet dest, Duration timeout);

  /**
   * Adds a receiver of unsolicited events (stops, exits, output, lost ranks, debuggers that ended):
   * it hears every event from now on, after the receivers that subscribed before it, until the
   * subscription is closed. Implementations keep their receivers in {@link EventSubscribers}.
   */
  Subscription subscribe(Consumer<RankReply> listener);

  /**
   * Adds a receiver of how far the ranks set running have come to their next stop ({@link
   * StartProgress.Stopping}), while the session holds their stops until all have stopped; from any
   * thread. A session that cannot tell (one reached over the front-end protocol) never calls it.
   */
  default Subscription progress(Consumer<StartProgress> listener) {
    return () -> {};
  }

  /** Ends the session: every debugger and program. */
  @Override
  void close();
}
