package io.sdmfabric.gdbmi;

import io.sdmfabric.gdbmi.internal.Signals;
import io.sdmfabric.model.ProgramInfo;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * Attaches one rank's debugger to a process that sdm did not start through gdb: at its exec (a rank
 * held by sdm's shim), held by the job's launcher (PMIx), or running already (a job started without
 * sdm). Each way ends with the process stopped and {@link RankLink#attached} set, which {@link
 * GdbProcesses#load} then answers.
 */
final class GdbAttach {
  private final RankLink link;
  private final Inferior inferior;
  private final GdbProcesses processes;

  GdbAttach(RankLink link, GdbProcesses processes) {
    this.link = link;
    this.inferior = link.inferior;
    this.processes = processes;
  }

  /** See {@link GdbDebugger#attachAtExec}. */
  CompletableFuture<ProgramInfo> atExec(long pid, Path program) {
    boolean dynamic;
    try {
      dynamic = ElfHeader.isDynamic(program);
    } catch (IOException e) {
      dynamic = false;
    }
    boolean atLibraries = dynamic;
    CompletableFuture<String> exec = new CompletableFuture<>();
    link.events.execWaiter = exec;
    return link.send(MiCommands.attach(inferior.whole(), pid))
        .thenCompose(r -> swallowJobControlStop(pid))
        .thenCompose(r -> stopAtExec(atLibraries))
        .thenCompose(catchpoint -> runToExec(exec).thenApply(stopped -> catchpoint))
        .thenCompose(catchpoint -> loadedAtExec(atLibraries, catchpoint, program))
        .whenComplete(
            (info, error) -> {
              link.events.execWaiter = null;
              link.attached = info;
            });
  }

  /**
   * The process stopped itself by job control (SIGSTOP), before its exec or when held at it: that
   * stop means nothing under a debugger and must not come back.
   */
  private CompletableFuture<MiReply> swallowJobControlStop(long pid) {
    // The stopped process has a SIGSTOP pending, and gdb would report it as a stop, at the exec
    // or later, when the program starts its first thread. A SIGSTOP means nothing to a program
    // under a debugger: swallow it for good.
    return link.send(handle("SIGSTOP", "nostop", "noprint", "nopass"))
        // The shim stopped itself by job control, a stop that only SIGCONT ends: the process
        // would go back to it whenever gdb lets it go (a detach, gdb's end). Ended now, the
        // SIGCONT itself passed on unseen; it also drops the pending SIGSTOP.
        .thenCompose(r -> link.send(handle("SIGCONT", "nostop", "noprint", "pass")))
        .thenApply(
            r -> {
              Signals.resume(pid);
              return r;
            });
  }

  private MiCommand handle(String signal, String... words) {
    return MiCommands.handle(inferior.here(), signal, List.of(words));
  }

  /**
   * Makes the process stop at its exec, once it has loaded the program. A dynamic program stops at
   * its first shared-library event (gdb's own setting for all its programs), which costs no
   * breakpoint number, so that the user's breakpoints are numbered from 1 as when gdb starts the
   * program; the answer is then 0. A static one (or one that cannot be read here) stops at an exec
   * catchpoint of this program's, whose number is the answer.
   */
  private CompletableFuture<Integer> stopAtExec(boolean atLibraries) {
    return atLibraries
        ? link.gdb.stopAtLibraryEvents().thenApply(r -> 0)
        : link.gdb.inTurn(this::catchExec);
  }

  /** An exec catchpoint for this program alone; its number comes from {@code $bpnum}. */
  private CompletableFuture<Integer> catchExec() {
    return link.send(MiCommands.catchExec(inferior.here()))
        .thenCompose(c -> link.send(MiCommands.evaluate(MiScope.GDB, "$bpnum")))
        .thenCompose(
            n -> {
              int catchpoint = Integer.parseInt(n.results().string("value"));
              return link.send(
                      MiCommands.breakpointCondition(catchpoint, link.breakpoints().onlyHere()))
                  .thenApply(r -> catchpoint);
            });
  }

  /** Lets the process run up to its exec; completes with the reason of the stop there. */
  private CompletableFuture<String> runToExec(CompletableFuture<String> exec) {
    link.events.resuming();
    return link.send(MiCommands.resume(inferior.whole())).thenCompose(r -> exec);
  }

  /**
   * Stopped at the exec: no more stops at library events (or the catchpoint goes), library symbols
   * are read when a rank stops, and the answer is what was attached.
   */
  private CompletableFuture<ProgramInfo> loadedAtExec(
      boolean atLibraries, int catchpoint, Path program) {
    CompletableFuture<MiReply> stopsNoMore =
        atLibraries
            ? link.gdb.libraryEventsDone()
            : link.send(MiCommands.deleteBreakpoint(catchpoint));
    CompletableFuture<Boolean> symbols = processes.hasDebugInfo();
    return stopsNoMore
        .thenCompose(r -> link.gdb.readSymbolsLazily())
        .thenCompose(r -> link.send(MiCommands.listThreadGroups()))
        .thenCombine(symbols, (groups, s) -> new ProgramInfo(executable(groups, program), s));
  }

  /** See {@link GdbDebugger#attach}. */
  CompletableFuture<ProgramInfo> running(long pid) {
    // Before gdb touches it: whatever happens from now on, the process is never killed by sdm.
    link.driver.leaveProgramRunning();
    link.leaveRunning = true;
    return whereItIs(pid);
  }

  /** See {@link GdbDebugger#attachHeld}. */
  CompletableFuture<ProgramInfo> held(long pid) {
    boolean stoppedAtExec = stoppedByJobControl(pid);
    CompletableFuture<ProgramInfo> attaching = whereItIs(pid);
    if (!stoppedAtExec) {
      return attaching;
    }
    return attaching.thenCompose(info -> swallowJobControlStop(pid).thenApply(r -> info));
  }

  /** Whether process {@code pid} is stopped by job control (state T in /proc). */
  private static boolean stoppedByJobControl(long pid) {
    return ProcessStates.of(pid) == 'T';
  }

  /** Attaches and stops the process where it is; the attach's own stop is no event. */
  private CompletableFuture<ProgramInfo> whereItIs(long pid) {
    CompletableFuture<String> stop = new CompletableFuture<>();
    link.events.attachWaiter = stop;
    CompletableFuture<MiReply> attaching = link.send(MiCommands.attach(inferior.whole(), pid));
    attaching.whenComplete(
        (r, error) -> {
          if (error != null) {
            stop.completeExceptionally(error);
          }
        });
    return attaching
        .thenCompose(r -> stop)
        .thenCompose(
            stopped ->
                link.send(MiCommands.listThreadGroups())
                    .thenCombine(
                        programHasDebugInfo(pid),
                        (groups, symbols) ->
                            new ProgramInfo(
                                executable(groups, Path.of("/proc", Long.toString(pid), "exe")),
                                symbols)))
        .whenComplete(
            (info, error) -> {
              link.events.attachWaiter = null;
              link.attached = info;
            });
  }

  /**
   * Whether the program (not its shared libraries, which may have debug info installed) has debug
   * info. Its own ELF file answers at no cost to gdb when it has; otherwise gdb, which also knows
   * debug info kept in a separate file, and lists the program's objfile first.
   */
  private CompletableFuture<Boolean> programHasDebugInfo(long pid) {
    try {
      if (ElfHeader.hasDebugInfoSection(Path.of("/proc", Long.toString(pid), "exe"))) {
        return CompletableFuture.completedFuture(true);
      }
    } catch (IOException e) {
      // gdb has read it, or says why not: ask gdb.
    }
    return gdbKnowsDebugInfo();
  }

  private CompletableFuture<Boolean> gdbKnowsDebugInfo() {
    return link.send(MiCommands.objfilesDebugInfo(inferior.whole()))
        .handle(
            (reply, error) -> {
              if (error != null) {
                return false;
              }
              List<MiValue> objfiles = reply.results().list("files").items();
              return !objfiles.isEmpty()
                  && !GdbResults.asTuple(objfiles.get(0))
                      .optString("debug-info")
                      .orElse("none")
                      .equals("none");
            });
  }

  /** The executable of this program, as {@code -list-thread-groups} names it. */
  private String executable(MiReply groups, Path fallback) {
    return groups.results().get("groups").stream()
        .flatMap(g -> g instanceof MiList l ? l.items().stream() : Stream.empty())
        .filter(MiTuple.class::isInstance)
        .map(MiTuple.class::cast)
        .filter(t -> t.optString("id").orElse("").equals(inferior.group()))
        .flatMap(t -> t.optString("executable").stream())
        .findFirst()
        .orElse(fallback.toString());
  }
}
