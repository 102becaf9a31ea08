package io.sdmfabric.runtime;

import io.sdmfabric.gdbmi.GdbOptions;
import io.sdmfabric.master.Session;
import io.sdmfabric.model.Debugger;
import io.sdmfabric.server.DebuggerBackend;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.RankBackends;
import io.sdmfabric.server.RankBlocks;
import io.sdmfabric.server.ReplyCache;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * A session whose master and servers run in this JVM, one debugger per rank: the embedded default
 * of {@code sdm debug}. The tree's nodes serve blocks of {@value #RANKS_PER_NODE} ranks each, so
 * that a block's replies merge before their first hop. Closing it ends every debugger (and so every
 * program) at once, then the actors.
 */
public final class EmbeddedSession extends MasterSession {
  private final List<? extends Debugger> debuggers;
  private final MasterClient master;

  /**
   * A session over ready debuggers, rank {@code r} being {@code debuggers.get(r)}, each node of the
   * tree serving {@code ranksPerNode} of them.
   */
  public EmbeddedSession(
      List<? extends Debugger> debuggers, int ranksPerNode, FabricConfig config) {
    super(debuggers.size());
    this.debuggers = List.copyOf(debuggers);
    ReplyCache cache = new ReplyCache();
    RankBlocks blocks = new RankBlocks(debuggers.size(), ranksPerNode);
    this.master =
        new MasterClient(
            ActorSystem.create(
                Session.embedded(
                    blocks,
                    config,
                    RankBackends.perNode(
                        blocks, rank -> new DebuggerBackend(debuggers.get(rank), cache))),
                "sdm"));
  }

  /**
   * Starts the debuggers of {@code size} ranks on this machine, {@code ranksPerGdb} to a gdb, and
   * the session over them, a node of the tree for each gdb.
   *
   * @throws IOException when gdb cannot be started; the message says why
   */
  public static EmbeddedSession start(int size, int ranksPerGdb, FabricConfig config)
      throws IOException {
    return new EmbeddedSession(
        GdbFleet.start(size, ranksPerGdb, GdbOptions.defaults(), StartListener.current()),
        ranksPerGdb,
        config);
  }

  @Override
  Optional<MasterClient> master() {
    return Optional.of(master);
  }

  @Override
  void end() {
    List<Thread> closers = new ArrayList<>();
    for (Debugger d : debuggers) {
      Thread t = new Thread(d::close, "close-debugger");
      t.start();
      closers.add(t);
    }
    for (Thread t : closers) {
      try {
        t.join(TimeUnit.SECONDS.toMillis(15));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    master.terminate();
  }

  @Override
  public Started started() {
    return Started.GDB;
  }
}
