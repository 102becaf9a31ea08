package io.sdmfabric.gdbmi;

import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.StopReason;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Turns the MI records of one program of a gdb ({@link InferiorRouter} hands each record to its
 * program) into {@link DebugEvent}s for the rank's subscriber.
 *
 * <p>gdb runs in non-stop mode, where a thread that stops stops alone. A rank stops as a whole, as
 * under a gdb of its own in all-stop mode: the first thread to stop is the rank's stop, reported
 * once, and the rank's other threads are interrupted; their stops, and any others until the rank is
 * resumed, are no news. Called in the driver's delivery only.
 */
final class InferiorEvents implements MiListener {
  volatile Consumer<DebugEvent> subscriber = e -> {};
  volatile boolean interruptRequested;
  volatile boolean killRequested;
  volatile boolean exitReported;
  volatile CompletableFuture<String> execWaiter;
  volatile CompletableFuture<String> attachWaiter;
  volatile boolean closing;

  /** The rank is stopped as a whole: stops of its threads are no news until it is resumed. */
  volatile boolean halted;

  /** How long a stop waits for the rank's other threads to stop before it is reported anyway. */
  static final long ALL_STOPPED_MS = 2_000;

  private final Inferior inferior;
  private final GdbDriver driver;
  private final java.util.function.BooleanSupplier lazySymbols;

  /** Whether the program has loaded a library since its symbols were last read at a stop. */
  private boolean librariesUnread = true;

  /** Whether the program's process has loaded sdm's wait-records library. */
  private volatile boolean waitRecordsLoaded;

  private final Set<Integer> running = new HashSet<>(); // global ids of running threads

  /** gdb has reported the end of the program ({@code =thread-group-exited}) since it started. */
  private boolean groupExited;

  /** The rank's stop, until its other threads have stopped too; null when none waits. */
  private DebugEvent.Stopped waiting;

  /** The waiting stop is an interrupt's, to be shown where the main thread stops. */
  private boolean mainFrameWanted;

  InferiorEvents(
      Inferior inferior, GdbDriver driver, java.util.function.BooleanSupplier lazySymbols) {
    this.inferior = inferior;
    this.driver = driver;
    this.lazySymbols = lazySymbols;
  }

  /** The rank is about to be resumed (run, continue, step): its next stop is news again. */
  /**
   * Whether gdb has told of sdm's wait-records library in the program's process: gdb answers a
   * symbol that is nowhere only after searching every library's symbols (about 20 ms a rank of an
   * Open MPI program with the C library's debug info installed).
   */
  boolean hasWaitRecords() {
    return waitRecordsLoaded;
  }

  synchronized void resuming() {
    mainFrameWanted = false;
    if (waiting != null) {
      reportNow(waiting); // before the rank runs again, its stop is news
    }
    halted = false;
  }

  @Override
  public synchronized void onAsync(MiAsyncRecord r) {
    String what = r.asyncClass();
    if (r.kind() == MiAsyncKind.EXEC && what.equals("stopped")) {
      onStopped(r.results());
    } else if (r.kind() == MiAsyncKind.EXEC && what.equals("running")) {
      String thread = r.results().optString("thread-id").orElse("all");
      if (thread.equals("all")) {
        inferior.mainThread().ifPresent(running::add);
      } else {
        running.add(Integer.parseInt(thread));
      }
      emit(new DebugEvent.Resumed());
    } else if (r.kind() == MiAsyncKind.NOTIFY && what.equals("thread-created")) {
      inferior.threadCreated(Integer.parseInt(r.results().string("id")));
    } else if (r.kind() == MiAsyncKind.NOTIFY && what.equals("thread-exited")) {
      int thread = Integer.parseInt(r.results().string("id"));
      running.remove(thread);
      inferior.threadExited(thread);
      reportWhenAllStopped();
      if (!inferior.hasLiveThreads()) {
        driver.inferiorPid(inferior.group()).ifPresent(this::expectExit);
      }
    } else if (r.kind() == MiAsyncKind.NOTIFY && what.equals("library-loaded")) {
      librariesUnread = true;
      if (r.results().optString("id").orElse("").endsWith("/" + WrapperLocations.LIBRARY)) {
        waitRecordsLoaded = true;
      }
    } else if (r.kind() == MiAsyncKind.NOTIFY && what.equals("thread-group-started")) {
      groupExited = false;
      waitRecordsLoaded = false;
    } else if (r.kind() == MiAsyncKind.NOTIFY && what.equals("thread-group-exited")) {
      groupExited = true;
      running.clear();
      reportWhenAllStopped();
      inferior.programGone();
      if (r.results().get("exit-code").isEmpty() && killRequested && !exitReported) {
        exitReported = true;
        emit(DebugEvent.Exited.bySignal("SIGKILL"));
      }
    }
  }

  @Override
  public void onProgramOutput(byte[] bytes) {
    emit(new DebugEvent.Output(bytes));
  }

  /**
   * The program's last thread has exited: gdb reports the program's end next ({@code
   * =thread-group-exited}, {@code *stopped,reason="exited..."}), in the same breath. gdb 13 running
   * several programs sometimes takes the end of one for its last thread's alone ("[process N
   * exited]") and never reports it: once gdb has answered a command sent now, whatever it had to
   * say is said, and if it said nothing while the process is gone, the rank's exit is reported
   * here, with the status the kernel keeps for a process not yet reaped, else as lost.
   */
  private void expectExit(long pid) {
    Optional<DebugEvent.Exited> unreaped = ProcessEnd.of(pid).filter(e -> !e.statusLost());
    driver
        .send(MiCommands.nothing(MiScope.GDB))
        .whenComplete((r, error) -> exitUnreported(pid, unreaped));
  }

  private synchronized void exitUnreported(long pid, Optional<DebugEvent.Exited> unreaped) {
    if (exitReported || groupExited || closing || inferior.hasLiveThreads()) {
      return;
    }
    ProcessEnd.of(pid)
        .ifPresent(
            end -> {
              driver.programEnded(inferior.group());
              inferior.programGone();
              running.clear();
              reportWhenAllStopped();
              exited(unreaped.orElse(end));
            });
  }

  /** gdb ended; unless it was closed, that is news: the rank has lost its debugger. */
  @Override
  public void onGdbExit(String description) {
    if (!closing) {
      emit(new DebugEvent.DebuggerEnded(description));
    }
  }

  private void onStopped(MiTuple t) {
    String reason = t.optString("reason").orElse("");
    int thread = t.optString("thread-id").map(Integer::parseInt).orElse(0);
    running.remove(thread);
    t.get("stopped-threads")
        .filter(MiList.class::isInstance)
        .ifPresent(l -> ((MiList) l).items().forEach(v -> running.remove(parseThread(v))));
    CompletableFuture<String> exec = execWaiter;
    if (exec != null) {
      onStoppedBeforeExec(exec, reason, t);
      return;
    }
    CompletableFuture<String> attach = attachWaiter;
    if (attach != null && !attach.isDone()) {
      halted = true;
      attach.complete(reason); // the attach's own stop
      return;
    }
    switch (reason) {
      case "exited-normally" -> exited(DebugEvent.Exited.withCode(0));
      case "exited" ->
          exited(
              DebugEvent.Exited.withCode(
                  GdbResults.exitCode(t.optString("exit-code").orElse("0"))));
      case "exited-signalled" ->
          exited(DebugEvent.Exited.bySignal(t.optString("signal-name").orElse("")));
      default -> stopped(t, reason, thread);
    }
  }

  private void stopped(MiTuple t, String reason, int thread) {
    if (halted) {
      // Another thread of a rank that has stopped already, or its interrupt.
      if (mainFrameWanted && waiting != null && inferior.mainThread().orElse(0) == thread) {
        mainFrameWanted = false;
        DebugEvent.Stopped s = waiting;
        report(new DebugEvent.Stopped(s.reason(), s.signal(), frame(t), 1, s.breakpointId()));
      }
      reportWhenAllStopped();
      return;
    }
    halted = true;
    if (!running.isEmpty()) {
      // The rank stops as a whole: its other threads too.
      driver.send(MiCommands.interrupt(inferior.whole()));
    }
    String signal = t.optString("signal-name").orElse("");
    StopReason why = GdbResults.stopReason(reason);
    boolean interrupt = signal.equals("0") || signal.equals("SIGINT");
    if (interruptRequested && (why == StopReason.UNKNOWN || interrupt)) {
      why = StopReason.INTERRUPTED;
      signal = "";
    }
    interruptRequested = false;
    Frame frame = frame(t);
    int bkpt =
        t.optString("bkptno")
            .map(n -> inferior.breakpoints().ownId(Integer.parseInt(n)))
            .orElse(inferior.breakpoints().ownId(watchpoint(t)));
    if (bkpt > 0) {
      inferior.breakpoints().hit(bkpt);
    }
    int main = inferior.mainThread().orElse(thread);
    if (why == StopReason.INTERRUPTED && thread != main) {
      // No thread caused an interrupt; gdb picks whichever the signal hit, often a helper thread
      // of the runtime (MPI's progress threads). Show the main thread instead: where it stops,
      // when it still runs (its own stop follows), else where gdb says it is.
      inferior.select(main, 0);
      if (running.contains(main)) {
        mainFrameWanted = true;
        report(new DebugEvent.Stopped(why, signal, frame, 1, bkpt));
        return;
      }
      StopReason interrupted = why;
      String sig = signal;
      driver
          .send(MiCommands.thread(main))
          .whenComplete(
              (r, error) -> {
                Frame shown = frame;
                if (error == null && !r.results().list("threads").items().isEmpty()) {
                  shown =
                      GdbResults.thread(
                              GdbResults.asTuple(r.results().list("threads").items().get(0)))
                          .frame();
                }
                report(new DebugEvent.Stopped(interrupted, sig, shown, 1, bkpt));
              });
      return;
    }
    inferior.select(thread, 0);
    report(new DebugEvent.Stopped(why, signal, frame, inferior.ownThread(thread), bkpt));
  }

  private static Frame frame(MiTuple stopped) {
    return stopped
        .get("frame")
        .map(f -> GdbResults.frame(GdbResults.asTuple(f)))
        .orElse(Frame.UNKNOWN);
  }

  /** Reports the rank's stop once its threads have all stopped, or after a while regardless. */
  private synchronized void report(DebugEvent.Stopped stop) {
    waiting = stop;
    reportWhenAllStopped();
    if (waiting == stop) {
      CompletableFuture.delayedExecutor(ALL_STOPPED_MS, java.util.concurrent.TimeUnit.MILLISECONDS)
          .execute(() -> reportNow(stop));
    }
  }

  private void reportWhenAllStopped() {
    if (waiting != null && running.isEmpty()) {
      DebugEvent.Stopped stop = waiting;
      waiting = null;
      emit(stop);
    }
  }

  private synchronized void reportNow(DebugEvent.Stopped stop) {
    if (waiting == stop) {
      waiting = null;
      emit(stop);
    }
  }

  private static int parseThread(MiValue v) {
    try {
      return Integer.parseInt(((MiConst) v).value());
    } catch (RuntimeException e) {
      return 0;
    }
  }

  /** While attaching at an exec: the exec completes the attach, an exit fails it. */
  private void onStoppedBeforeExec(CompletableFuture<String> exec, String reason, MiTuple t) {
    switch (reason) {
      case "exec", "solib-event" -> {
        halted = true;
        exec.complete(reason);
      }
      case "exited", "exited-normally", "exited-signalled" ->
          exec.completeExceptionally(
              new DebuggerException(
                  "the process ended before it started the program ("
                      + t.optString("exit-code")
                          .map(c -> "exit code " + GdbResults.exitCode(c))
                          .or(() -> t.optString("signal-name"))
                          .orElse("exit code 0")
                      + "): is the program there and executable on this node?"));
      default -> {
        // The attach's own stop; the exec comes later.
      }
    }
  }

  /**
   * The number of the watchpoint a stop triggered: {@code wpt}, {@code hw-rwpt} or {@code hw-awpt}.
   */
  private static int watchpoint(MiTuple stop) {
    for (String key : List.of("wpt", "hw-rwpt", "hw-awpt")) {
      if (stop.get(key).isPresent()) {
        return Integer.parseInt(GdbResults.asTuple(stop.get(key).get()).string("number"));
      }
    }
    return 0;
  }

  private void exited(DebugEvent.Exited e) {
    if (!exitReported) {
      exitReported = true;
      emit(e);
    }
  }

  private void emit(DebugEvent e) {
    if (e instanceof DebugEvent.Stopped && lazySymbols.getAsBoolean() && librariesUnread) {
      // The libraries' symbols for the stopped rank, before anyone asks for its stack; on one of
      // its threads, for gdb reads the list of libraries from the rank's memory. Only when it
      // has loaded one since: a step's stop otherwise cost a round trip to gdb per rank.
      librariesUnread = false;
      driver
          .send(MiCommands.loadLibrarySymbols(inferior.onThread()))
          .whenComplete((r, error) -> subscriber.accept(e));
      return;
    }
    subscriber.accept(e);
  }
}
