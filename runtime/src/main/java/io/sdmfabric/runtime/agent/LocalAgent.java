package io.sdmfabric.runtime.agent;

import io.sdmfabric.gdbmi.GdbDebugger;
import io.sdmfabric.gdbmi.GdbOptions;
import io.sdmfabric.gdbmi.GdbPool;
import io.sdmfabric.runtime.attach.AttachPlan;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.ReplyCache;
import io.sdmfabric.wire.SessionSecret;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * The agent of the master's own host, in the master's JVM: the gdbs of this host's ranks and their
 * server node run beside the master, with no agent JVM to start and no cluster to join, which is
 * most of what an attach costs on few cores. It registers its ranks with the rendezvous as any
 * agent does, proving the session's secret. Closing it ends its gdbs, which detach from the
 * processes they attached to: those run on.
 */
public final class LocalAgent implements AutoCloseable {
  private final PidAttacher attacher;
  private final List<GdbDebugger> gdbs = new CopyOnWriteArrayList<>();

  private LocalAgent(PidAttacher attacher) {
    this.attacher = attacher;
  }

  /**
   * Attaches to {@code ranks}, processes of this host, and serves them from {@code master}'s actor
   * system, {@code ranksPerGdb} to a gdb.
   *
   * @param held whether the processes are held by their launcher for this session (the PMIx tool
   *     interface): they end with it
   * @param err where a rank that cannot be attached says why
   */
  public static LocalAgent attach(
      ActorSystem<?> master,
      SessionSecret secret,
      FabricConfig config,
      List<AttachPlan.Rank> ranks,
      int ranksPerGdb,
      boolean held,
      PrintStream err) {
    LocalAgent local =
        new LocalAgent(new PidAttacher(new GdbPool(GdbOptions.defaults(), ranksPerGdb), held));
    List<PidAttacher.Target> targets =
        ranks.stream().map(r -> new PidAttacher.Target(r.pid(), r.rank())).toList();
    ReplyCache cache = new ReplyCache();
    master.systemActorOf(
        NodeAgent.inMaster(
            Cluster.get(master).selfMember().address(),
            secret,
            config,
            agent ->
                local.attacher.start(
                    targets, new ServedRanks(agent, cache, err, "sdm", local.gdbs))),
        "master-host-agent",
        Props.empty());
    return local;
  }

  /** Stops attaching, and ends the gdbs: each detaches from its processes, which run on. */
  @Override
  public void close() {
    attacher.stop();
    gdbs.parallelStream().forEach(GdbDebugger::close);
  }
}
