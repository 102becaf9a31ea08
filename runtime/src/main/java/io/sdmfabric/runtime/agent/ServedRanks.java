package io.sdmfabric.runtime.agent;

import io.sdmfabric.gdbmi.GdbDebugger;
import io.sdmfabric.server.DebuggerBackend;
import io.sdmfabric.server.ReplyCache;
import io.sdmfabric.server.UnavailableRank;
import java.io.PrintStream;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * What an agent does with each rank an attacher hands on: a rank gdb has is served by its gdb, a
 * rank it could not have answers why. The gdbs go to the agent's owner, which ends them.
 */
final class ServedRanks implements SpoolAttacher.Listener {
  private final ActorRef<NodeAgent.Message> agent;
  private final ReplyCache cache;
  private final PrintStream err;
  private final String speaker;
  private final List<GdbDebugger> gdbs;

  /**
   * @param speaker who says that a rank could not be had, e.g. {@code sdm agent}
   * @param gdbs where the gdbs of the ranks served go, for their owner to end
   */
  ServedRanks(
      ActorRef<NodeAgent.Message> agent,
      ReplyCache cache,
      PrintStream err,
      String speaker,
      List<GdbDebugger> gdbs) {
    this.agent = agent;
    this.cache = cache;
    this.err = err;
    this.speaker = speaker;
    this.gdbs = gdbs;
  }

  @Override
  public void attached(int rank, GdbDebugger gdb) {
    gdbs.add(gdb);
    agent.tell(new NodeAgent.RankReady(rank, new DebuggerBackend(gdb, cache)));
  }

  @Override
  public void failed(int rank, String why) {
    err.println(speaker + ": rank " + rank + ": " + why);
    agent.tell(new NodeAgent.RankReady(rank, new UnavailableRank("rank " + rank + ": " + why)));
  }
}
