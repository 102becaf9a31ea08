package io.sdmfabric.runtime.agent;

import io.sdmfabric.gdbmi.FrozenProcesses;
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
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * The agent of the master's own host, in the master's JVM: the gdbs of this host's ranks and their
 * server node run beside the master, with no agent JVM to start and no cluster to join, which is
 * most of what a small job's start costs on few cores. It registers its ranks with the rendezvous
 * as any agent does, proving the session's secret. Its ranks are running processes ({@code sdm
 * attach}) or a launched job's, from this host's spool. Closing it ends its gdbs.
 */
public final class LocalAgent implements AutoCloseable {
  private final Runnable stopAttaching;
  private final List<GdbDebugger> gdbs = new CopyOnWriteArrayList<>();

  private LocalAgent(Runnable stopAttaching) {
    this.stopAttaching = stopAttaching;
  }

  /**
   * Attaches to {@code ranks}, running processes of this host, and serves them from {@code
   * master}'s actor system, {@code ranksPerGdb} to a gdb; they run on after the session.
   *
   * @param frozen those of the processes stopped until their gdb attaches (let go by then)
   * @param err where a rank that cannot be attached says why
   */
  public static LocalAgent attach(
      ActorSystem<?> master,
      SessionSecret secret,
      FabricConfig config,
      List<AttachPlan.Rank> ranks,
      int ranksPerGdb,
      FrozenProcesses frozen,
      PrintStream err) {
    PidAttacher attacher =
        new PidAttacher(new GdbPool(GdbOptions.defaults(), ranksPerGdb), false, frozen);
    List<PidAttacher.Target> targets =
        ranks.stream().map(r -> new PidAttacher.Target(r.pid(), r.rank())).toList();
    LocalAgent local = new LocalAgent(attacher::stop);
    local.serve(master, secret, config, listener -> attacher.start(targets, listener), err);
    return local;
  }

  /**
   * Serves the ranks of a launched job that {@code attachments} attach (or attached already), from
   * {@code master}'s actor system.
   *
   * @param err where a rank that cannot be attached says why
   */
  public static LocalAgent launched(
      ActorSystem<?> master,
      SessionSecret secret,
      FabricConfig config,
      SpoolAttachments attachments,
      PrintStream err) {
    LocalAgent local = new LocalAgent(attachments::close);
    local.serve(master, secret, config, attachments::handTo, err);
    return local;
  }

  /** Spawns the agent; once it is there, {@code attach} starts handing ranks to it. */
  private void serve(
      ActorSystem<?> master,
      SessionSecret secret,
      FabricConfig config,
      Consumer<SpoolAttacher.Listener> attach,
      PrintStream err) {
    ReplyCache cache = new ReplyCache();
    master.systemActorOf(
        NodeAgent.inMaster(
            Cluster.get(master).selfMember().address(),
            secret,
            config,
            agent -> attach.accept(new ServedRanks(agent, cache, err, "sdm", gdbs))),
        "master-host-agent",
        Props.empty());
  }

  /**
   * Stops attaching, and ends the gdbs: each detaches from a process it attached to running, which
   * runs on, and ends one it saw start.
   */
  @Override
  public void close() {
    stopAttaching.run();
    gdbs.parallelStream().forEach(GdbDebugger::close);
  }
}
