package io.sdmfabric.gdbmi;

import io.sdmfabric.gdbmi.internal.Signals;
import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Debugger;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Failures;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.MpiWait;
import io.sdmfabric.model.ProgramInfo;
import io.sdmfabric.model.Shell;
import io.sdmfabric.model.SignalAction;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.model.WatchKind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The {@link Debugger} SPI on a real gdb, through GDB/MI: one instance debugs one process, one of
 * the programs of a gdb that may debug several ({@link SharedGdb}; {@link #start} makes a gdb of
 * its own). See {@link GdbDriver} for the threads and the cleanup guarantees, {@link Inferior} for
 * how a rank numbers its threads and breakpoints, and {@link InferiorEvents} for how a rank stops
 * as a whole in gdb's non-stop mode.
 *
 * <p>Values come from sdm's own gdb command where gdb has Python, from variable objects otherwise
 * ({@link ValueReader}): the printed text is gdb's own, the children go {@value #CHILD_DEPTH}
 * levels deep, at most {@value #MAX_CHILDREN} per level, and pointers are not followed (their
 * target may be garbage; {@code print *p} follows one on purpose).
 *
 * <p>A breakpoint of a rank is a breakpoint of gdb's whose condition names the rank's program
 * ({@code $_inferior == N}, before the user's own condition), so that it stops that rank only; the
 * ranks of a gdb that set a breakpoint alike share one ({@link SharedBreakpoints}). Signal handling
 * ({@code handle}) is gdb's, for all the programs of a gdb.
 */
public final class GdbDebugger implements Debugger {
  static final int CHILD_DEPTH = 2;
  static final int MAX_CHILDREN = 100;
  static final int MAX_GLOBALS = 100;

  private final SharedGdb gdb;
  private final Inferior inferior;
  private final InferiorEvents events;
  private final GdbDriver driver;

  /** The program's terminal; null for gdb's first program, which has the driver's. */
  private final GdbDriver.ProgramTerminal terminal;

  /**
   * What was attached, at its exec ({@link #attachAtExec}) or running ({@link #attach}); null for a
   * program gdb runs itself.
   */
  private volatile ProgramInfo attached;

  /** Attached to a process that was running already ({@link #attach}): never end it. */
  private volatile boolean leaveRunning;

  /** Detached from the process ({@link #detach}): every request fails. */
  private volatile boolean detached;

  private final ValueReader values;

  GdbDebugger(
      SharedGdb gdb, Inferior inferior, InferiorEvents events, GdbDriver.ProgramTerminal terminal) {
    this.gdb = gdb;
    this.inferior = inferior;
    this.events = events;
    this.driver = gdb.driver();
    this.terminal = terminal;
    this.values = new ValueReader(inferior, this::send, driver.hasValueCommands());
  }

  /** Starts gdb with the default options ({@code $SDM_GDB} or {@code gdb}). */
  public static GdbDebugger start() throws IOException {
    return start(GdbOptions.defaults());
  }

  /** Starts a gdb of its own. */
  public static GdbDebugger start(GdbOptions options) throws IOException {
    SharedGdb gdb = SharedGdb.start(options);
    try {
      return gdb.add();
    } catch (IOException e) {
      gdb.driver().close();
      throw e;
    }
  }

  /** The driver underneath, for the few callers that speak MI themselves. */
  public GdbDriver driver() {
    return driver;
  }

  /** The process id of the program, if it runs. */
  public java.util.OptionalLong programPid() {
    return driver.inferiorPid(inferior.group());
  }

  @Override
  public void subscribe(Consumer<DebugEvent> listener) {
    events.subscriber = listener;
  }

  /**
   * Attaches to process {@code pid}, stopped (SIGSTOP) just before it execs {@code program}, and
   * lets it run up to that exec: the program is then loaded and stopped before its first
   * instruction (a dynamic one in its loader, once the loader has mapped it), as after {@link
   * #load}. From then on {@link #load} answers what was attached (the launcher, not gdb, started
   * it), {@link #run} continues it, and {@link #close} kills it rather than detach. Fails when the
   * process cannot be attached or ends instead of exec'ing (the program could not be found, say).
   *
   * <p>A dynamic program stops at its first shared-library event, which costs no breakpoint number,
   * so that the user's breakpoints are numbered from 1 as when gdb starts the program. A static one
   * (or one that cannot be read here) stops at an exec catchpoint, deleted at once.
   */
  public CompletableFuture<ProgramInfo> attachAtExec(long pid, Path program) {
    boolean dynamic;
    try {
      dynamic = ElfHeader.isDynamic(program);
    } catch (IOException e) {
      dynamic = false;
    }
    CompletableFuture<String> exec = new CompletableFuture<>();
    events.execWaiter = exec;
    boolean atLibraries = dynamic;
    // gdb's own setting for all its programs, or an exec catchpoint of this program's.
    java.util.concurrent.atomic.AtomicInteger catchpoint =
        new java.util.concurrent.atomic.AtomicInteger();
    // The stopped process has a SIGSTOP pending, and gdb would report it as a stop, at the exec
    // or later, when the program starts its first thread. A SIGSTOP means nothing to a program
    // under a debugger: swallow it for good.
    CompletableFuture<String> ran =
        send(inferior.whole("-target-attach").param(Long.toString(pid)))
            .thenCompose(r -> cliReply("handle SIGSTOP nostop noprint nopass"))
            // The shim stopped itself by job control, a stop that only SIGCONT ends: the process
            // would go back to it whenever gdb lets it go (a detach, gdb's end). Ended now, the
            // SIGCONT itself passed on unseen; it also drops the pending SIGSTOP.
            .thenCompose(r -> cliReply("handle SIGCONT nostop noprint pass"))
            .thenApply(
                r -> {
                  Signals.resume(pid);
                  return r;
                })
            .thenCompose(
                r ->
                    atLibraries
                        ? gdb.stopAtLibraryEvents()
                        : gdb.inTurn(
                            () ->
                                cliReply("catch exec")
                                    .thenCompose(
                                        c ->
                                            send(
                                                MiCommand.of("-data-evaluate-expression")
                                                    .param("$bpnum")))
                                    .thenCompose(
                                        n -> {
                                          catchpoint.set(
                                              Integer.parseInt(n.results().string("value")));
                                          return send(
                                              MiCommand.of("-break-condition")
                                                  .param(catchpoint.get())
                                                  .param(inferior.onlyHere()));
                                        })))
            .thenCompose(
                r -> {
                  events.resuming();
                  return send(inferior.whole("-exec-continue"));
                })
            .thenCompose(r -> exec);
    return ran.thenCompose(
            stopped ->
                (atLibraries
                        ? gdb.libraryEventsDone()
                        : send(MiCommand.of("-break-delete").param(catchpoint.get())))
                    .thenCompose(r -> gdb.readSymbolsLazily())
                    .thenCompose(r -> send("-list-thread-groups"))
                    .thenCombine(
                        send(inferior.whole("-file-list-exec-source-file"))
                            .handle((reply, error) -> error == null),
                        (groups, symbols) -> new ProgramInfo(executable(groups, program), symbols)))
        .whenComplete(
            (info, error) -> {
              events.execWaiter = null;
              attached = info;
            });
  }

  /**
   * Attaches to process {@code pid}, which runs already (a rank of a job started without sdm), and
   * stops it where it is. From then on {@link #load} answers what was attached, {@link #run} is
   * refused (the program runs already: {@link #resume} continues it), {@link #kill} ends it, and
   * {@link #detach} and {@link #close} leave it running, as do gdb's death and the JVM's exit (see
   * {@link GdbDriver#leaveProgramRunning}). The attach's own stop is no event: it is the state the
   * attach leaves the process in, and comes before anyone can be told. Fails with gdb's message
   * when the process cannot be attached (it is gone, or traced already, or not the user's).
   */
  public CompletableFuture<ProgramInfo> attach(long pid) {
    // Before gdb touches it: whatever happens from now on, the process is never killed by sdm.
    driver.leaveProgramRunning();
    leaveRunning = true;
    return attachWhereItIs(pid);
  }

  /**
   * Attaches to process {@code pid}, which the job's launcher started for this session and holds
   * for the debugger (in PMIx_Init, through the PMIx tool interface), and stops it where it is.
   * From then on it is as after {@link #attachAtExec}: {@link #load} answers what was attached,
   * {@link #run} continues it, and {@link #close} kills it rather than detach. Fails with gdb's
   * message when the process cannot be attached.
   *
   * <p>A process held at its exec ({@code PMIX_DEBUG_STOP_ON_EXEC}, for programs that are no PMIx
   * clients) is stopped by job control there: that SIGSTOP means nothing under a debugger and is
   * swallowed, and the stop is ended once gdb holds it, so that the process does not go back to it
   * when gdb lets it go (as after {@link #attachAtExec}).
   */
  public CompletableFuture<ProgramInfo> attachHeld(long pid) {
    boolean stoppedAtExec = stoppedByJobControl(pid);
    CompletableFuture<ProgramInfo> attaching = attachWhereItIs(pid);
    if (!stoppedAtExec) {
      return attaching;
    }
    return attaching.thenCompose(
        info ->
            cliReply("handle SIGSTOP nostop noprint nopass")
                .thenCompose(r -> cliReply("handle SIGCONT nostop noprint pass"))
                .thenApply(
                    r -> {
                      Signals.resume(pid);
                      return info;
                    }));
  }

  /** Whether process {@code pid} is stopped by job control (state T in /proc). */
  private static boolean stoppedByJobControl(long pid) {
    try {
      String stat = java.nio.file.Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      return stat.substring(stat.lastIndexOf(')') + 1).strip().startsWith("T");
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private CompletableFuture<ProgramInfo> attachWhereItIs(long pid) {
    CompletableFuture<String> stop = new CompletableFuture<>();
    events.attachWaiter = stop;
    CompletableFuture<MiReply> attaching =
        send(inferior.whole("-target-attach").param(Long.toString(pid)));
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
                send("-list-thread-groups")
                    .thenCombine(
                        programHasSources(),
                        (groups, symbols) ->
                            new ProgramInfo(
                                executable(groups, Path.of("/proc", Long.toString(pid), "exe")),
                                symbols)))
        .whenComplete(
            (info, error) -> {
              events.attachWaiter = null;
              attached = info;
            });
  }

  /**
   * Whether the program (not its shared libraries, which may have debug info installed) has source
   * files: gdb lists the program's objfile first.
   */
  private CompletableFuture<Boolean> programHasSources() {
    return send(inferior.whole("-file-list-exec-source-files").option("--group-by-objfile"))
        .handle(
            (reply, error) -> {
              if (error != null) {
                return false;
              }
              List<MiValue> objfiles = reply.results().list("files").items();
              return !objfiles.isEmpty()
                  && !GdbResults.asTuple(objfiles.get(0)).list("sources").items().isEmpty();
            });
  }

  /** The executable of this program, as {@code -list-thread-groups} names it. */
  private String executable(MiReply groups, Path fallback) {
    return groups.results().get("groups").stream()
        .flatMap(g -> g instanceof MiList l ? l.items().stream() : java.util.stream.Stream.empty())
        .filter(MiTuple.class::isInstance)
        .map(MiTuple.class::cast)
        .filter(t -> t.optString("id").orElse("").equals(inferior.group()))
        .flatMap(t -> t.optString("executable").stream())
        .findFirst()
        .orElse(fallback.toString());
  }

  @Override
  public CompletableFuture<ProgramInfo> load(LaunchSpec spec) {
    ProgramInfo started = attached;
    if (detached) {
      return CompletableFuture.failedFuture(new DebuggerException(DETACHED));
    } else if (started != null) {
      return CompletableFuture.completedFuture(started);
    }
    String program =
        spec.program().contains("/")
            ? Path.of(spec.program()).toAbsolutePath().normalize().toString()
            : spec.program();
    MiCommand arguments = inferior.whole("-exec-arguments");
    try {
      // gdb starts the program through a shell, which splits the arguments again.
      spec.args().forEach(a -> arguments.raw(Shell.quote(a)));
    } catch (IllegalArgumentException e) {
      return CompletableFuture.failedFuture(new DebuggerException(e.getMessage()));
    }
    CompletableFuture<MiReply> loaded =
        send(inferior.whole("-file-exec-and-symbols").param(program));
    List<CompletableFuture<MiReply>> settings = new ArrayList<>();
    settings.add(send(arguments));
    settings.add(
        send(
            inferior
                .whole("-gdb-set")
                .param("cwd")
                .param(spec.workingDirectory().toAbsolutePath().toString())));
    for (Map.Entry<String, String> e : spec.environment().entrySet()) {
      settings.add(cliReply("set environment " + e.getKey() + "=" + e.getValue()));
    }
    // Without debug info gdb has no "current source file" and answers with an error.
    CompletableFuture<Boolean> debugInfo =
        send(inferior.whole("-file-list-exec-source-file")).handle((reply, error) -> error == null);
    return loaded
        .thenCombine(
            CompletableFuture.allOf(settings.toArray(CompletableFuture[]::new)),
            (reply, ignored) -> reply)
        .thenCombine(debugInfo, (reply, symbols) -> new ProgramInfo(program, symbols));
  }

  @Override
  public CompletableFuture<Void> run() {
    if (leaveRunning && !detached) {
      return CompletableFuture.failedFuture(
          new DebuggerException(
              events.exitReported
                  ? "the program has ended; it was started outside sdm and cannot be run again"
                  : "the program is running already (sdm attached to it): use continue"));
    }
    if (attached != null) {
      if (events.exitReported) {
        return CompletableFuture.failedFuture(
            new DebuggerException(
                "the program has ended; it was started by the job's launcher and cannot be run"
                    + " again"));
      }
      return resume();
    }
    events.exitReported = false;
    events.killRequested = false;
    return execute(inferior.whole("-exec-run"));
  }

  @Override
  public CompletableFuture<Void> resume() {
    return execute(inferior.whole("-exec-continue"));
  }

  @Override
  public CompletableFuture<Void> step(StepKind kind) {
    return execute(
        switch (kind) {
          case INTO -> inferior.onThread("-exec-step");
          case OVER -> inferior.onThread("-exec-next");
          case RETURN -> inferior.here("-exec-finish");
        });
  }

  /** Runs the program on: its next stop is news. */
  private CompletableFuture<Void> execute(MiCommand command) {
    events.resuming();
    return done(send(command));
  }

  @Override
  public CompletableFuture<Void> interrupt() {
    events.interruptRequested = true;
    return done(send(inferior.whole("-exec-interrupt")));
  }

  @Override
  public CompletableFuture<Void> kill() {
    events.killRequested = true;
    return done(send(inferior.whole("-interpreter-exec").param("console").param("kill")));
  }

  @Override
  public CompletableFuture<Breakpoint> insertBreakpoint(BreakpointSpec spec) {
    if (spec.temporary() || spec.ignoreCount() > 0 || !spec.enabled()) {
      return send(breakInsert(spec))
          .thenCompose(r -> findingPending(r.results().tuple("bkpt")))
          .thenApply(b -> own(b, true));
    }
    // One breakpoint of gdb's for the ranks that set it alike (SharedBreakpoints).
    SharedBreakpoints shared = gdb.breakpoints();
    SharedBreakpoints.Key key =
        new SharedBreakpoints.Key(spec.location().toString(), spec.condition());
    int me = inferior.number();
    return gdb.inTurn(
            () -> {
              SharedBreakpoints.Shared s = shared.find(key);
              if (s != null && shared.has(s, me)) {
                // The rank sets it a second time: a breakpoint of its own, as in gdb.
                return send(breakInsert(spec)).thenApply(r -> r.results().tuple("bkpt"));
              }
              if (s == null) {
                return send(breakInsert(spec))
                    .thenApply(
                        r -> {
                          MiTuple b = r.results().tuple("bkpt");
                          shared.made(number(b), key, me);
                          return b;
                        });
              }
              shared.join(s, me);
              return applyShared(s)
                  .thenCompose(r -> send(MiCommand.of("-break-info").param(s.number)))
                  .thenApply(
                      r ->
                          GdbResults.asTuple(
                              r.results().tuple("BreakpointTable").list("body").items().get(0)))
                  .whenComplete(
                      (b, error) -> {
                        if (error != null) {
                          shared.leave(s, me);
                        }
                      });
            })
        .thenCompose(this::findingPending)
        .thenApply(b -> own(b, true));
  }

  /**
   * A breakpoint gdb could not place in this rank's program yet (pending, or found only in other
   * ranks' programs, whose symbols were read when they stopped: in a library this rank has not
   * loaded, or loaded without symbols) needs gdb to read libraries' symbols as they load.
   */
  private CompletableFuture<MiTuple> findingPending(MiTuple bkpt) {
    if (!gdb.lazySymbols() || GdbResults.hasLocationIn(bkpt, inferior.group())) {
      return CompletableFuture.completedFuture(bkpt);
    }
    return gdb.readSymbolsEagerly().thenApply(r -> bkpt);
  }

  /** {@code -break-insert} for a breakpoint of this rank alone. */
  private MiCommand breakInsert(BreakpointSpec spec) {
    // On a thread of the rank's, not just its thread group: gdb reads the rank's memory to find
    // the end of a function's prologue, and with no thread selected reads nothing and puts the
    // breakpoint at the function's first instruction.
    MiCommand c = inferior.onThread("-break-insert").option("-f");
    if (spec.temporary()) {
      c.option("-t");
    }
    if (!spec.enabled()) {
      c.option("-d");
    }
    c.option("-c").param(inferior.condition(spec.condition()));
    if (spec.ignoreCount() > 0) {
      c.option("-i").param(spec.ignoreCount());
    }
    return c.param(spec.location().toString());
  }

  /** Gives gdb's breakpoint {@code s} the programs it is enabled in now. */
  private CompletableFuture<MiReply> applyShared(SharedBreakpoints.Shared s) {
    SharedBreakpoints shared = gdb.breakpoints();
    if (!shared.anyEnabled(s)) {
      return send(MiCommand.of("-break-disable").param(s.number));
    }
    return send(MiCommand.of("-break-condition").param(s.number).param(shared.condition(s)))
        .thenCompose(r -> send(MiCommand.of("-break-enable").param(s.number)));
  }

  private static int number(MiTuple bkpt) {
    return (int) Double.parseDouble(bkpt.string("number"));
  }

  @Override
  public CompletableFuture<Breakpoint> insertWatchpoint(String expression, WatchKind kind) {
    MiCommand c = inferior.here("-break-watch");
    switch (kind) {
      case READ -> c.option("-r");
      case ACCESS -> c.option("-a");
      case WRITE -> {}
    }
    c.param(expression);
    Breakpoint.Kind bkind =
        switch (kind) {
          case WRITE -> Breakpoint.Kind.WATCHPOINT;
          case READ -> Breakpoint.Kind.READ_WATCHPOINT;
          case ACCESS -> Breakpoint.Kind.ACCESS_WATCHPOINT;
        };
    return send(c)
        .thenCompose(
            r -> {
              MiTuple w =
                  r.results()
                      .get("wpt")
                      .or(() -> r.results().get("hw-rwpt"))
                      .or(() -> r.results().get("hw-awpt"))
                      .map(GdbResults::asTuple)
                      .orElseThrow(() -> new MiShapeException("no watchpoint in " + r.results()));
              int number = Integer.parseInt(w.string("number"));
              return send(MiCommand.of("-break-condition").param(number).param(inferior.onlyHere()))
                  .thenApply(done -> w);
            })
        .thenApply(
            w -> {
              return new Breakpoint(
                  inferior.breakpointMade(Integer.parseInt(w.string("number"))),
                  bkind,
                  w.string("exp"),
                  "",
                  0,
                  true,
                  false,
                  "",
                  0,
                  0);
            });
  }

  @Override
  public CompletableFuture<Void> deleteBreakpoint(int id) {
    int number;
    try {
      number = inferior.gdbBreakpoint(id);
    } catch (DebuggerException e) {
      return CompletableFuture.failedFuture(e);
    }
    SharedBreakpoints shared = gdb.breakpoints();
    SharedBreakpoints.Shared s = shared.byNumber(number);
    if (s == null) {
      return done(send(MiCommand.of("-break-delete").param(number)))
          .thenRun(() -> inferior.breakpointDeleted(id));
    }
    return done(gdb.inTurn(
            () ->
                shared.leave(s, inferior.number())
                    ? send(MiCommand.of("-break-delete").param(number))
                    : applyShared(s)))
        .thenRun(() -> inferior.breakpointDeleted(id));
  }

  @Override
  public CompletableFuture<Void> enableBreakpoint(int id, boolean enabled) {
    int number;
    try {
      number = inferior.gdbBreakpoint(id);
    } catch (DebuggerException e) {
      return CompletableFuture.failedFuture(e);
    }
    SharedBreakpoints shared = gdb.breakpoints();
    SharedBreakpoints.Shared s = shared.byNumber(number);
    if (s == null) {
      return done(send(MiCommand.of(enabled ? "-break-enable" : "-break-disable").param(number)));
    }
    return done(
        gdb.inTurn(
            () -> {
              shared.enable(s, inferior.number(), enabled);
              return applyShared(s);
            }));
  }

  @Override
  public CompletableFuture<List<Breakpoint>> breakpoints() {
    return send("-break-list")
        .thenApply(
            r -> {
              List<Breakpoint> list = new ArrayList<>();
              for (MiValue v : r.results().tuple("BreakpointTable").list("body").items()) {
                Breakpoint b = own(GdbResults.asTuple(v), false);
                if (b != null) {
                  list.add(b);
                }
              }
              return list;
            });
  }

  /**
   * A breakpoint of gdb's as this rank sees it: with the rank's own id (a new one for a breakpoint
   * just made), its condition as the user gave it, and where it is in this rank's program. Null for
   * another rank's breakpoint.
   */
  private Breakpoint own(MiTuple bkpt, boolean made) {
    int number = number(bkpt);
    int id = made ? inferior.breakpointMade(number) : inferior.ownBreakpoint(number);
    if (id == 0) {
      return null;
    }
    Breakpoint b = GdbResults.breakpoint(bkpt, inferior.group());
    SharedBreakpoints.Shared s = gdb.breakpoints().byNumber(number);
    if (s != null) {
      // gdb's state is all the ranks'; the rank's own is kept here.
      return new Breakpoint(
          id,
          b.kind(),
          b.location(),
          b.file(),
          b.line(),
          gdb.breakpoints().isEnabled(s, inferior.number()),
          false,
          s.key.condition(),
          0,
          inferior.hits(id));
    }
    return new Breakpoint(
        id,
        b.kind(),
        b.location(),
        b.file(),
        b.line(),
        b.enabled(),
        b.temporary(),
        inferior.userCondition(b.condition()),
        b.ignoreCount(),
        b.hits());
  }

  @Override
  public CompletableFuture<List<Frame>> frames() {
    return send(inferior.onThread("-stack-list-frames"))
        .thenApply(r -> GdbResults.frames(r.results().list("stack")));
  }

  /** Each of the program's threads' frames, asked of gdb thread by thread, selecting none. */
  @Override
  public CompletableFuture<List<List<Frame>>> allStacks() {
    return send("-thread-info")
        .thenCompose(
            r -> {
              List<CompletableFuture<List<Frame>>> stacks = new ArrayList<>();
              for (MiValue v : r.results().list("threads").items()) {
                int global = Integer.parseInt(GdbResults.asTuple(v).string("id"));
                if (inferior.ownThread(global) > 0) {
                  stacks.add(
                      send(MiCommand.of("-stack-list-frames").option("--thread").param(global))
                          .thenApply(f -> GdbResults.frames(f.results().list("stack"))));
                }
              }
              return CompletableFuture.allOf(stacks.toArray(CompletableFuture[]::new))
                  .thenApply(done -> stacks.stream().map(CompletableFuture::join).toList());
            });
  }

  @Override
  public CompletableFuture<Frame> selectFrame(int level) {
    // gdb 13 describes a frame "??" past the outermost frame: check the depth first (counting at
    // most level + 1 frames) and refuse as gdb's CLI does.
    return send(inferior.onThread("-stack-info-depth").param(level + 1))
        .thenCompose(
            depth -> {
              if (Integer.parseInt(depth.results().string("depth")) <= level) {
                throw new DebuggerException("No frame at level " + level + ".");
              }
              inferior.selectFrame(level);
              return send(inferior.here("-stack-info-frame"));
            })
        .thenApply(r -> GdbResults.frame(r.results().tuple("frame")));
  }

  @Override
  public CompletableFuture<Integer> stackDepth() {
    return send(inferior.onThread("-stack-info-depth"))
        .thenApply(r -> Integer.parseInt(r.results().string("depth")));
  }

  @Override
  public CompletableFuture<List<Value>> locals() {
    return variables(false);
  }

  @Override
  public CompletableFuture<List<Value>> arguments() {
    return variables(true);
  }

  private CompletableFuture<List<Value>> variables(boolean arguments) {
    return send(inferior.here("-stack-list-variables").option("--simple-values"))
        .thenApply(
            r -> {
              List<Value> values = new ArrayList<>();
              for (MiValue v : r.results().list("variables").items()) {
                MiTuple t = GdbResults.asTuple(v);
                if (t.get("arg").isPresent() == arguments) {
                  values.add(GdbResults.variable(t));
                }
              }
              return values;
            });
  }

  /**
   * The variables {@code -symbol-info-variables} lists from the program's own source files (not
   * from shared libraries, whose debug info may be installed), at most {@value #MAX_GLOBALS} of
   * them, each evaluated in the current context (a global that a local shadows shows the local's
   * value, as {@code print} would).
   */
  @Override
  public CompletableFuture<List<Value>> globals() {
    CompletableFuture<MiReply> sources =
        send(inferior.whole("-file-list-exec-source-files").option("--group-by-objfile"));
    CompletableFuture<MiReply> variables = send(inferior.whole("-symbol-info-variables"));
    return sources.thenCombine(variables, this::programSymbols).thenCompose(this::evaluateAll);
  }

  private List<MiTuple> programSymbols(MiReply sources, MiReply variables) {
    // gdb lists objfiles in load order: the program comes first, then the shared libraries.
    java.util.Set<String> own = new java.util.HashSet<>();
    List<MiValue> objfiles = sources.results().list("files").items();
    if (!objfiles.isEmpty()) {
      for (MiValue source : GdbResults.asTuple(objfiles.get(0)).list("sources").items()) {
        own.add(GdbResults.asTuple(source).optString("fullname").orElse(""));
      }
    }
    List<MiTuple> symbols = new ArrayList<>();
    for (MiValue file : variables.results().tuple("symbols").list("debug").items()) {
      MiTuple f = GdbResults.asTuple(file);
      if (own.contains(f.optString("fullname").orElse(""))) {
        for (MiValue symbol : f.list("symbols").items()) {
          if (symbols.size() < MAX_GLOBALS) {
            symbols.add(GdbResults.asTuple(symbol));
          }
        }
      }
    }
    return symbols;
  }

  private CompletableFuture<List<Value>> evaluateAll(List<MiTuple> symbols) {
    List<CompletableFuture<Value>> values = new ArrayList<>(symbols.size());
    for (MiTuple symbol : symbols) {
      values.add(global(symbol.string("name"), symbol.optString("type").orElse("")));
    }
    return CompletableFuture.allOf(values.toArray(CompletableFuture[]::new))
        .thenApply(v -> values.stream().map(CompletableFuture::join).toList());
  }

  private CompletableFuture<Value> global(String name, String type) {
    return send(inferior.here("-data-evaluate-expression").param(name))
        .handle(
            (reply, error) -> {
              String text =
                  error == null
                      ? reply.results().string("value")
                      : "<error: " + Failures.message(error) + ">";
              return Value.scalar(name, type, ValueKinds.classify(type, text, 0), 0, text);
            });
  }

  @Override
  public CompletableFuture<Value> evaluate(String expression) {
    return values.evaluate(expression);
  }

  @Override
  public CompletableFuture<String> typeOf(String expression) {
    return values.typeOf(expression);
  }

  @Override
  public CompletableFuture<List<ThreadInfo>> threads() {
    return send("-thread-info")
        .thenApply(
            r -> {
              List<ThreadInfo> threads = new ArrayList<>();
              for (MiValue v : r.results().list("threads").items()) {
                ThreadInfo t = GdbResults.thread(GdbResults.asTuple(v));
                int own = inferior.ownThread(t.id());
                if (own > 0) {
                  threads.add(new ThreadInfo(own, t.targetId(), t.name(), t.stopped(), t.frame()));
                }
              }
              return threads;
            });
  }

  @Override
  public CompletableFuture<ThreadInfo> selectThread(int id) {
    int global;
    try {
      global = inferior.globalThread(id);
    } catch (DebuggerException e) {
      return CompletableFuture.failedFuture(e);
    }
    return send(MiCommand.of("-thread-info").param(global))
        .thenApply(
            r -> {
              ThreadInfo t =
                  GdbResults.thread(GdbResults.asTuple(r.results().list("threads").items().get(0)));
              inferior.select(global, 0);
              return new ThreadInfo(id, t.targetId(), t.name(), t.stopped(), t.frame());
            });
  }

  @Override
  public CompletableFuture<List<SignalInfo>> signals() {
    return cli("info signals").thenApply(GdbResults::signalTable);
  }

  @Override
  public CompletableFuture<List<SignalInfo>> handleSignal(
      String signal, Set<SignalAction> actions) {
    StringBuilder command = new StringBuilder("handle ").append(signal);
    actions.forEach(a -> command.append(' ').append(a.word()));
    return cli(command.toString()).thenApply(GdbResults::signalTable);
  }

  @Override
  public CompletableFuture<MpiWait> mpiWait() {
    return readMemory("&" + MpiWaitRecords.SYMBOL, MpiWaitRecords.SIZE)
        .thenApply(MpiWaitRecords::decode)
        .exceptionallyCompose(
            e ->
                Failures.message(e).contains("No symbol")
                    ? CompletableFuture.completedFuture(MpiWait.UNKNOWN)
                    : CompletableFuture.failedFuture(e));
  }

  @Override
  public CompletableFuture<byte[]> readMemory(String address, int count) {
    return send(inferior.here("-data-read-memory-bytes").param(address).param(count))
        .thenApply(
            r -> {
              ByteArrayOutputStream out = new ByteArrayOutputStream(count);
              for (MiValue v : r.results().list("memory").items()) {
                out.writeBytes(GdbResults.hex(GdbResults.asTuple(v).string("contents")));
              }
              if (out.size() < count) {
                throw new DebuggerException(
                    "Cannot access memory: read "
                        + out.size()
                        + " of "
                        + count
                        + " bytes at "
                        + address);
              }
              return out.toByteArray();
            });
  }

  @Override
  public CompletableFuture<Void> writeMemory(String address, byte[] bytes) {
    return done(
        send(
            inferior.here("-data-write-memory-bytes").param(address).param(GdbResults.hex(bytes))));
  }

  @Override
  public CompletableFuture<String> cli(String command) {
    return cliReply(command).thenApply(MiReply::console);
  }

  @Override
  public void writeInput(byte[] bytes) {
    if (detached) {
      return;
    }
    if (terminal != null) {
      terminal.write(bytes);
    } else {
      driver.writeInput(bytes);
    }
  }

  /**
   * Detaches from a process this debugger {@linkplain #attach attached to}; refuses a process sdm
   * started ({@link #load} and {@link #run}, or {@link #attachAtExec}), which ends with the
   * session.
   */
  @Override
  public CompletableFuture<Void> detach() {
    if (!detached && !leaveRunning) {
      return CompletableFuture.failedFuture(
          new DebuggerException(
              "sdm started this program and ends it with the session: detach is for processes"
                  + " sdm attach attached to (kill ends it now)"));
    }
    return send(inferior.whole("-target-detach"))
        .thenApply(
            r -> {
              detached = true;
              return null;
            });
  }

  /**
   * Ends gdb. A program gdb runs, or followed from its exec, ends with it; one it {@linkplain
   * #attach attached to} is detached and runs on.
   */
  @Override
  public void close() {
    events.closing = true;
    boolean last = gdb.release();
    if (!leaveRunning) {
      // A program sdm started, or followed from its exec, ends with its debugger (gdb would
      // detach from one it attached to at its exec and leave it running).
      programPid()
          .ifPresent(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    } else if (!last && !detached) {
      // gdb goes on for its other programs: let this one go now.
      try {
        send(inferior.whole("-target-detach")).get(GdbDriver.EXIT_GRACE_MS, TimeUnit.MILLISECONDS);
      } catch (Exception e) {
        // gdb has ended, or the program has: nothing is held any more.
      }
    }
    if (last) {
      driver.close();
    }
  }

  /**
   * Ends gdb leaving the program to run on, even one sdm started or followed from its exec: for an
   * agent cut off from its session, whose job goes on without it (killing its ranks would make
   * their launcher end the whole job).
   */
  public void closeLeavingProgram() {
    leaveRunning = true;
    driver.leaveProgramRunning();
    close();
  }

  /** Sends to gdb, unless the debugger has detached: then fails with {@link Debugger#DETACHED}. */
  private CompletableFuture<MiReply> send(String command) {
    return detached
        ? CompletableFuture.failedFuture(new DebuggerException(DETACHED))
        : driver.send(command);
  }

  private CompletableFuture<MiReply> send(MiCommand command) {
    return detached
        ? CompletableFuture.failedFuture(new DebuggerException(DETACHED))
        : driver.send(command);
  }

  private CompletableFuture<MiReply> cliReply(String command) {
    return send(inferior.here("-interpreter-exec").param("console").param(command));
  }

  private static CompletableFuture<Void> done(CompletableFuture<MiReply> reply) {
    return reply.thenApply(r -> null);
  }
}
