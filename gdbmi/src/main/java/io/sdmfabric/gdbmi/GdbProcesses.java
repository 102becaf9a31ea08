package io.sdmfabric.gdbmi;

import io.sdmfabric.model.Debugger;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.ProgramInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One rank's program as a process, as CDT's GDBProcesses: loaded and run by gdb, or attached to
 * ({@link GdbAttach}); killed, detached from, and ended with its debugger unless it was attached to
 * while it ran; and its terminal's input.
 */
final class GdbProcesses {
  private final RankLink link;
  private final Inferior inferior;
  private final GdbRunControl runControl;

  /** The program's terminal; null for gdb's first program, which has the driver's. */
  private final GdbDriver.ProgramTerminal terminal;

  GdbProcesses(RankLink link, GdbRunControl runControl, GdbDriver.ProgramTerminal terminal) {
    this.link = link;
    this.inferior = link.inferior;
    this.runControl = runControl;
    this.terminal = terminal;
  }

  /** The process id of the program, if it runs. */
  OptionalLong pid() {
    return link.driver.inferiorPid(inferior.group());
  }

  CompletableFuture<ProgramInfo> load(LaunchSpec spec) {
    ProgramInfo started = link.attached;
    if (link.detached) {
      return CompletableFuture.failedFuture(new DebuggerException(Debugger.DETACHED));
    } else if (started != null) {
      return CompletableFuture.completedFuture(started);
    }
    String program =
        spec.program().contains("/")
            ? Path.of(spec.program()).toAbsolutePath().normalize().toString()
            : spec.program();
    MiCommand arguments;
    try {
      arguments = MiCommands.arguments(inferior.whole(), spec.args());
    } catch (IllegalArgumentException e) {
      return CompletableFuture.failedFuture(new DebuggerException(e.getMessage()));
    }
    CompletableFuture<MiReply> loaded =
        link.send(MiCommands.fileExecAndSymbols(inferior.whole(), program));
    List<CompletableFuture<MiReply>> settings = new ArrayList<>();
    // Libraries' symbols are read when the rank stops, as for a rank attached at its exec: one gdb
    // of 16 programs to a breakpoint, 480 ms of gdb's CPU with symbols read as libraries load,
    // 410-430 ms without, and 65 MB of gdb instead of 74, with the C library's debug info
    // installed (bench/scripts/gdb_inferiors.py); a breakpoint that waits for a library turns
    // reading as they load back on (GdbBreakpoints).
    settings.add(link.gdb.readSymbolsLazily());
    settings.add(link.send(arguments));
    settings.add(
        link.send(
            MiCommands.workingDirectory(
                inferior.whole(), spec.workingDirectory().toAbsolutePath().toString())));
    for (Map.Entry<String, String> e : spec.environment().entrySet()) {
      settings.add(link.send(MiCommands.environment(inferior.here(), e.getKey(), e.getValue())));
    }
    CompletableFuture<Boolean> debugInfo = hasDebugInfo();
    return loaded
        .thenCombine(
            CompletableFuture.allOf(settings.toArray(CompletableFuture[]::new)),
            (reply, ignored) -> reply)
        .thenCombine(debugInfo, (reply, symbols) -> new ProgramInfo(program, symbols));
  }

  /** Whether the program has debug info. */
  CompletableFuture<Boolean> hasDebugInfo() {
    // Without debug info gdb has no "current source file" and answers with an error.
    return link.send(MiCommands.sourceFile(inferior.whole()))
        .handle((reply, error) -> error == null);
  }

  CompletableFuture<Void> run() {
    InferiorEvents events = link.events;
    if (link.leaveRunning && !link.detached) {
      return CompletableFuture.failedFuture(
          new DebuggerException(
              events.exitReported
                  ? "the program has ended; it was started outside sdm and cannot be run again"
                  : "the program is running already (sdm attached to it): use continue"));
    }
    if (link.attached != null) {
      if (events.exitReported) {
        return CompletableFuture.failedFuture(
            new DebuggerException(
                "the program has ended; it was started by the job's launcher and cannot be run"
                    + " again"));
      }
      return runControl.resume();
    }
    events.exitReported = false;
    events.killRequested = false;
    return runControl.execute(MiCommands.run(inferior.whole()));
  }

  CompletableFuture<Void> kill() {
    link.events.killRequested = true;
    return RankLink.done(link.send(MiCommands.kill(inferior.whole())));
  }

  void writeInput(byte[] bytes) {
    if (link.detached) {
      return;
    }
    if (terminal != null) {
      terminal.write(bytes);
    } else {
      link.driver.writeInput(bytes);
    }
  }

  /**
   * Detaches from a process the debugger {@linkplain GdbAttach#running attached to}; refuses a
   * process sdm started, which ends with the session.
   */
  CompletableFuture<Void> detach() {
    if (!link.detached && !link.leaveRunning) {
      return CompletableFuture.failedFuture(
          new DebuggerException(
              "sdm started this program and ends it with the session: detach is for processes"
                  + " sdm attach attached to (kill ends it now)"));
    }
    return link.send(MiCommands.detach(inferior.whole()))
        .thenApply(
            r -> {
              link.detached = true;
              return null;
            });
  }

  /**
   * Ends the rank's part of gdb, and gdb with its last program. A program gdb runs, or followed
   * from its exec, ends with it; one it attached to while it ran is detached and runs on.
   */
  void close() {
    link.events.closing = true;
    boolean last = link.gdb.release();
    if (!link.leaveRunning) {
      // A program sdm started, or followed from its exec, ends with its debugger (gdb would
      // detach from one it attached to at its exec and leave it running).
      pid().ifPresent(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    } else if (!last && !link.detached) {
      // gdb goes on for its other programs: let this one go now.
      try {
        link.send(MiCommands.detach(inferior.whole()))
            .get(GdbProcess.EXIT_GRACE_MS, TimeUnit.MILLISECONDS);
      } catch (Exception e) {
        // gdb has ended, or the program has: nothing is held any more.
      }
    }
    if (last) {
      link.driver.close();
    }
  }

  /** Ends gdb leaving the program to run on, even one sdm started or followed from its exec. */
  void closeLeavingProgram() {
    link.leaveRunning = true;
    link.driver.leaveProgramRunning();
    close();
  }
}
