package io.sdmfabric.runtime.agent;

import io.sdmfabric.gdbmi.GdbDebugger;
import io.sdmfabric.gdbmi.GdbOptions;
import io.sdmfabric.gdbmi.GdbPool;
import io.sdmfabric.runtime.launch.RankSpool;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The attaching of a launched job's ranks in this host's spool, started before there is an agent to
 * hand them to: gdb attaches to each rank as soon as its shim has stopped, and what became of each
 * is held until {@link #handTo} names who serves them. A job of the master's own host starts this
 * as soon as its launcher runs, so that the attaching goes on while the master's actor system
 * starts (about a second here, in which the ranks had all stopped and waited).
 */
public final class SpoolAttachments implements SpoolAttacher.Listener, AutoCloseable {
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

  private final SpoolAttacher attacher;
  private final List<Outcome> held = new ArrayList<>(); // guarded by this
  private SpoolAttacher.Listener listener; // guarded by this
  private boolean closed; // guarded by this

  private SpoolAttachments(SpoolAttacher attacher) {
    this.attacher = attacher;
  }

  /**
   * Starts attaching the ranks that stop in {@code spool} before their exec of {@code program},
   * {@code ranksPerGdb} to a gdb: the job's {@code size} ranks, or those that come within {@code
   * wireUp}.
   */
  public static SpoolAttachments start(
      Path spool, Path program, int size, Duration wireUp, int ranksPerGdb) {
    SpoolAttacher attacher =
        new SpoolAttacher(
            new RankSpool(spool),
            size,
            wireUp,
            new GdbPool(GdbOptions.defaults(), ranksPerGdb),
            program);
    SpoolAttachments attachments = new SpoolAttachments(attacher);
    attacher.start(attachments);
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
    attacher.stop();
    unserved.parallelStream().forEach(GdbDebugger::close);
  }
}
