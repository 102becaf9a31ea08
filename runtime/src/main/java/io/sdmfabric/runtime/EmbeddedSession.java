package io.sdmfabric.runtime;

import io.sdmfabric.gdbmi.GdbDebugger;
import io.sdmfabric.gdbmi.GdbOptions;
import io.sdmfabric.model.Debugger;
import io.sdmfabric.model.Failures;
import io.sdmfabric.model.StartProgress;
import io.sdmfabric.server.FabricConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A session whose master and servers run in this JVM, one debugger per rank: the embedded default
 * of {@code sdm debug}. The tree's nodes serve the ranks of a gdb each, so that a block's replies
 * merge before their first hop. Closing it ends every debugger (and so every program) at once, then
 * the actors.
 *
 * <p>The gdbs start on another thread while the actor system does ({@link EmbeddedMaster}): each
 * takes a few hundred milliseconds of its own, so a short session is ready when the slower of the
 * two is, not after both (issue #30, item 2).
 */
public final class EmbeddedSession extends MasterSession {
  private final List<? extends Debugger> debuggers;
  private final MasterClient master;

  private EmbeddedSession(List<? extends Debugger> debuggers, MasterClient master) {
    super(debuggers.size());
    this.debuggers = List.copyOf(debuggers);
    this.master = master;
  }

  /**
   * Starts the debuggers of {@code size} ranks on this machine, {@code ranksPerGdb} to a gdb, and
   * the session over them, a node of the tree for each gdb.
   *
   * @throws IOException when gdb cannot be started; the message says why
   */
  public static EmbeddedSession start(int size, int ranksPerGdb, FabricConfig config)
      throws IOException {
    Consumer<StartProgress> progress = StartListener.current();
    CompletableFuture<List<GdbDebugger>> gdbs = new CompletableFuture<>();
    Thread starter =
        new Thread(
            () -> {
              try {
                gdbs.complete(GdbFleet.start(size, ranksPerGdb, GdbOptions.defaults(), progress));
              } catch (IOException | RuntimeException e) {
                gdbs.completeExceptionally(e);
              }
            },
            "sdm-gdb-start");
    starter.start();
    EmbeddedMaster master = EmbeddedMaster.take();
    List<GdbDebugger> debuggers;
    try {
      debuggers = gdbs.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      gdbs.thenAccept(started -> started.forEach(GdbDebugger::close));
      master.abandon();
      throw new IOException("interrupted while gdb started", e);
    } catch (ExecutionException e) {
      master.abandon();
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException(Failures.message(cause), cause);
    }
    try {
      return new EmbeddedSession(
          debuggers, new MasterClient(master.serve(debuggers, ranksPerGdb, config)));
    } catch (IOException | RuntimeException e) {
      debuggers.forEach(GdbDebugger::close);
      throw e;
    }
  }

  /**
   * Starts, on a thread of its own, the actor system of the embedded session this JVM is about to
   * open: {@code sdm debug} calls it as its JVM starts, so that Pekko starts while the command line
   * is read. A JVM that opens none ends it as it exits.
   */
  public static void startMasterEarly() {
    EmbeddedMaster.startEarly();
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
