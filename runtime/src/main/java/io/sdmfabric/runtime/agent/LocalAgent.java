package io.sdmfabric.runtime.agent;

import io.sdmfabric.gdbmi.GdbDebugger;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.server.ReplyCache;
import io.sdmfabric.wire.SessionSecret;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;

/**
 * The agent of the master's own host, in the master's JVM: the gdbs of this host's ranks and their
 * server node run beside the master, with no agent JVM to start and no cluster to join, which is
 * most of what a small job's start costs on few cores. It registers its ranks with the rendezvous
 * as any agent does, proving the session's secret. Its ranks are running processes ({@code sdm
 * attach}) or a launched job's, from this host's spool, attached by {@link EarlyAttachments}, which
 * may have begun before the master. Its master may be a member of a cluster that agents join too,
 * or a local actor system that serves this host alone. Closing it ends its gdbs.
 */
public final class LocalAgent implements AutoCloseable {
  private final Runnable stopAttaching;
  private final List<GdbDebugger> gdbs = new CopyOnWriteArrayList<>();

  private LocalAgent(Runnable stopAttaching) {
    this.stopAttaching = stopAttaching;
  }

  /**
   * Serves this host's ranks that {@code attachments} attach (or attached already), from {@code
   * master}'s actor system.
   *
   * @param err where a rank that cannot be attached says why
   */
  public static LocalAgent serving(
      ActorSystem<?> master,
      SessionSecret secret,
      FabricConfig config,
      EarlyAttachments attachments,
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
            master.address(),
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
