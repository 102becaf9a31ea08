package io.sdmfabric.gdbmi;

import io.sdmfabric.model.SignalAction;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.StepKind;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Runs and stops one rank, as CDT's MIRunControl: continue, step, interrupt, and how gdb handles
 * signals ({@code handle}, which is gdb's, for all the programs of a gdb). A request completes when
 * the program runs; its stop follows as an event ({@link InferiorEvents}).
 */
final class GdbRunControl {
  private final RankLink link;
  private final Inferior inferior;

  GdbRunControl(RankLink link) {
    this.link = link;
    this.inferior = link.inferior;
  }

  CompletableFuture<Void> resume() {
    return execute(MiCommands.resume(inferior.whole()));
  }

  /** Stepping moves only the rank's selected thread (its other threads stay stopped). */
  CompletableFuture<Void> step(StepKind kind) {
    // A step into or over a call moves the selected thread; a return finishes the selected frame.
    MiScope scope = kind == StepKind.RETURN ? inferior.here() : inferior.onThread();
    return execute(MiCommands.step(scope, kind));
  }

  /** Runs the program on: its next stop is news. */
  CompletableFuture<Void> execute(MiCommand command) {
    link.events.resuming();
    return RankLink.done(link.send(command));
  }

  CompletableFuture<Void> interrupt() {
    link.events.interruptRequested = true;
    return RankLink.done(link.send(MiCommands.interrupt(inferior.whole())));
  }

  CompletableFuture<List<SignalInfo>> signals() {
    return link.send(MiCommands.signals(inferior.here()))
        .thenApply(r -> GdbResults.signalTable(r.console()));
  }

  CompletableFuture<List<SignalInfo>> handleSignal(String signal, Set<SignalAction> actions) {
    List<String> words = actions.stream().map(SignalAction::word).toList();
    return link.send(MiCommands.handle(inferior.here(), signal, words))
        .thenApply(r -> GdbResults.signalTable(r.console()));
  }
}
