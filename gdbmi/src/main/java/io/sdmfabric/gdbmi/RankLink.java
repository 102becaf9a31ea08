package io.sdmfabric.gdbmi;

import io.sdmfabric.model.Debugger;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.ProgramInfo;
import java.util.concurrent.CompletableFuture;

/**
 * What the services of one rank's {@link GdbDebugger} share: the rank's gdb ({@link SharedGdb} and
 * its driver), its program as it sees it ({@link Inferior}), its events ({@link InferiorEvents}),
 * and what its program is to sdm: started by gdb, attached at its exec or while it ran, or detached
 * from. Once detached, every command fails with {@link Debugger#DETACHED} without asking gdb.
 */
final class RankLink {
  final SharedGdb gdb;
  final GdbDriver driver;
  final Inferior inferior;
  final InferiorEvents events;

  /**
   * What was attached, at its exec ({@link GdbAttach#atExec}) or running ({@link
   * GdbAttach#running}); null for a program gdb runs itself.
   */
  volatile ProgramInfo attached;

  /** Attached to a process that was running already ({@link GdbAttach#running}): never end it. */
  volatile boolean leaveRunning;

  /** Detached from the process ({@link GdbProcesses#detach}): every request fails. */
  volatile boolean detached;

  RankLink(SharedGdb gdb, Inferior inferior, InferiorEvents events) {
    this.gdb = gdb;
    this.driver = gdb.driver();
    this.inferior = inferior;
    this.events = events;
  }

  /** Sends to gdb, unless the debugger has detached: then fails with {@link Debugger#DETACHED}. */
  CompletableFuture<MiReply> send(MiCommand command) {
    return detached
        ? CompletableFuture.failedFuture(new DebuggerException(Debugger.DETACHED))
        : driver.send(command);
  }

  /** Runs {@code command} in gdb's CLI in the rank's context. */
  CompletableFuture<MiReply> console(String command) {
    return send(MiCommands.console(inferior.here(), command));
  }

  /** The rank's breakpoints. */
  RankBreakpoints breakpoints() {
    return inferior.breakpoints();
  }

  /** Completes when {@code reply} does, without a value. */
  static CompletableFuture<Void> done(CompletableFuture<?> reply) {
    return reply.thenApply(r -> null);
  }
}
