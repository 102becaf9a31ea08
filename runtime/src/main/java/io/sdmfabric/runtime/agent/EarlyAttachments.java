package io.sdmfabric.runtime.agent;

import io.sdmfabric.gdbmi.FrozenProcesses;
import io.sdmfabric.gdbmi.GdbDebugger;
import io.sdmfabric.gdbmi.GdbOptions;
import io.sdmfabric.gdbmi.GdbPool;
import io.sdmfabric.runtime.attach.AttachPlan;
import io.sdmfabric.runtime.launch.RankSpool;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The attaching of this host's ranks, started before there is an agent to hand them to: gdb
 * attaches to each as soon as it can, and what became of each rank is held until {@link #handTo}
 * names who serves them. A session whose ranks are all on the master's own host starts this before
 * the master's actor system (about a second here, in which the ranks had been ready and waited): a
 * launched job's ranks as each stops in the spool, a running job's processes at once.
 */
public final class EarlyAttachments implements SpoolAttacher.Listener, AutoCloseable {
  /** What became of one rank, as {@link SpoolAttacher.Listener} was told. */
  private sealed interface Outcome {
    void tell(SpoolAttacher.Listener listener);
  }

  private record Attached(int rank, GdbDebugger gdb) implements Outcome {
    @Override
    public void tell(SpoolAttacher.Listener listener) {
      listener.attached(rank, gdb);
    }
  }

  private record Failed(int rank, String why) implements Outcome {
    @Override
    public void tell(SpoolAttacher.Listener listener) {
      listener.failed(rank, why);
    }
  }

  private final Runnable stopAttaching;
  private final List<Outcome> held = new ArrayList<>(); // guarded by this
  private SpoolAttacher.Listener listener; // guarded by this
  private boolean closed; // guarded by this

  private EarlyAttachments(Runnable stopAttaching) {
    this.stopAttaching = stopAttaching;
  }

  /**
   * Starts attaching the ranks of a launched job that stop in {@code spool} before their exec of
   * {@code program}, {@code ranksPerGdb} to a gdb: the job's {@code size} ranks, or those that come
   * within {@code wireUp}.
   */
  public static EarlyAttachments spool(
      Path spool, Path program, int size, Duration wireUp, int ranksPerGdb) {
    SpoolAttacher attacher =
        new SpoolAttacher(
            new RankSpool(spool),
            size,
            wireUp,
            new GdbPool(GdbOptions.defaults(), ranksPerGdb),
            program);
    EarlyAttachments attachments = new EarlyAttachments(attacher::stop);
    attacher.start(attachments);
    return attachments;
  }

  /**
   * Starts attaching to {@code ranks}, running processes of this host, {@code ranksPerGdb} to a
   * gdb; they run on after the session.
   *
   * @param frozen those of the processes stopped until their gdb attaches (let go by then)
   */
  public static EarlyAttachments processes(
      List<AttachPlan.Rank> ranks, int ranksPerGdb, FrozenProcesses frozen) {
    return processes(ranks, ranksPerGdb, frozen, false);
  }

  /**
   * Starts attaching to {@code ranks}, processes of this host, {@code ranksPerGdb} to a gdb.
   *
   * @param frozen those of the processes stopped until their gdb attaches (let go by then)
   * @param held whether they are a job's that its launcher started for this session and holds for
   *     the debugger (the PMIx tool interface): they end with the session; else they are running
   *     processes, which run on after it
   */
  public static EarlyAttachments processes(
      List<AttachPlan.Rank> ranks, int ranksPerGdb, FrozenProcesses frozen, boolean held) {
    PidAttacher attacher =
        new PidAttacher(new GdbPool(GdbOptions.defaults(), ranksPerGdb), held, frozen);
    EarlyAttachments attachments = new EarlyAttachments(attacher::stop);
    attacher.start(
        ranks.stream().map(r -> new PidAttacher.Target(r.pid(), r.rank())).toList(), attachments);
    return attachments;
  }

  /**
   * Tells {@code listener} what became of every rank so far, in order, then of each as it comes.
   */
  synchronized void handTo(SpoolAttacher.Listener listener) {
    held.forEach(outcome -> outcome.tell(listener));
    held.clear();
    this.listener = listener;
  }

  @Override
  public synchronized void attached(int rank, GdbDebugger gdb) {
    if (closed) {
      gdb.close();
    } else {
      tellOrHold(new Attached(rank, gdb));
    }
  }

  @Override
  public synchronized void failed(int rank, String why) {
    if (!closed) {
      tellOrHold(new Failed(rank, why));
    }
  }

  private void tellOrHold(Outcome outcome) {
    if (listener != null) {
      outcome.tell(listener);
    } else {
      held.add(outcome);
    }
  }

  /**
   * Stops attaching; ends the gdbs of ranks never handed on (a gdb that comes after the close is
   * ended as it comes, and nobody is told of it). Those handed on are their listener's to end.
   */
  @Override
  public void close() {
    List<GdbDebugger> unserved = new ArrayList<>();
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      for (Outcome outcome : held) {
        if (outcome instanceof Attached a) {
          unserved.add(a.gdb());
        }
      }
      held.clear();
    }
    stopAttaching.run();
    unserved.parallelStream().forEach(GdbDebugger::close);
  }
}
