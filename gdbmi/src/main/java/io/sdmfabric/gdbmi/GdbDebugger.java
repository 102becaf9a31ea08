package io.sdmfabric.gdbmi;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Debugger;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Failures;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.ProgramInfo;
import io.sdmfabric.model.Shell;
import io.sdmfabric.model.SignalAction;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.model.StopReason;
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
import java.util.function.Consumer;

/**
 * The {@link Debugger} SPI on a real gdb, through GDB/MI. One instance runs one gdb for one
 * process; see {@link GdbDriver} for the threads and the cleanup guarantees.
 *
 * <p>Values come from variable objects ({@code -var-create}, {@code -var-list-children}): the
 * printed text is gdb's own ({@code -data-evaluate-expression}), the children go {@value
 * #CHILD_DEPTH} levels deep, at most {@value #MAX_CHILDREN} per level, and pointers are not
 * followed (their target may be garbage; {@code print *p} follows one on purpose).
 */
public final class GdbDebugger implements Debugger {
  static final int CHILD_DEPTH = 2;
  static final int MAX_CHILDREN = 100;
  static final int MAX_GLOBALS = 100;

  private final Events events;
  private final GdbDriver driver;

  /**
   * What was attached, at its exec ({@link #attachAtExec}) or running ({@link #attach}); null for a
   * program gdb runs itself.
   */
  private volatile ProgramInfo attached;

  /** Attached to a process that was running already ({@link #attach}): never end it. */
  private volatile boolean leaveRunning;

  /** Detached from the process ({@link #detach}): every request fails. */
  private volatile boolean detached;

  private GdbDebugger(Events events, GdbDriver driver) {
    this.events = events;
    this.driver = driver;
  }

  /** Starts gdb with the default options ({@code $SDM_GDB} or {@code gdb}). */
  public static GdbDebugger start() throws IOException {
    return start(GdbOptions.defaults());
  }

  /** Starts gdb. */
  public static GdbDebugger start(GdbOptions options) throws IOException {
    Events events = new Events();
    GdbDriver driver = GdbDriver.start(options, events);
    events.driver = driver;
    return new GdbDebugger(events, driver);
  }

  /** The driver underneath, for the few callers that speak MI themselves. */
  public GdbDriver driver() {
    return driver;
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
    String stopAtExec = dynamic ? "set stop-on-solib-events 1" : "catch exec";
    String restore = dynamic ? "set stop-on-solib-events 0" : "delete";
    // The stopped process has a SIGSTOP pending, and gdb would report it as a stop, at the exec
    // or later, when the program starts its first thread. A SIGSTOP means nothing to a program
    // under a debugger: swallow it for good.
    CompletableFuture<String> ran =
        send(MiCommand.of("-target-attach").param(Long.toString(pid)))
            .thenCompose(r -> cliReply("handle SIGSTOP nostop noprint nopass"))
            .thenCompose(r -> cliReply(stopAtExec))
            .thenCompose(r -> send("-exec-continue"))
            .thenCompose(r -> exec);
    return ran.thenCompose(
            stopped ->
                cliReply(restore)
                    .thenCompose(r -> send("-list-thread-groups"))
                    .thenCombine(
                        send("-file-list-exec-source-file").handle((reply, error) -> error == null),
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
    CompletableFuture<String> stop = new CompletableFuture<>();
    events.attachWaiter = stop;
    CompletableFuture<MiReply> attaching =
        send(MiCommand.of("-target-attach").param(Long.toString(pid)));
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
    return send("-file-list-exec-source-files --group-by-objfile")
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

  /** The executable of the (only) inferior, as {@code -list-thread-groups} names it. */
  private static String executable(MiReply groups, Path fallback) {
    return groups.results().get("groups").stream()
        .flatMap(g -> g instanceof MiList l ? l.items().stream() : java.util.stream.Stream.empty())
        .filter(MiTuple.class::isInstance)
        .map(MiTuple.class::cast)
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
    MiCommand arguments = MiCommand.of("-exec-arguments");
    try {
      // gdb starts the program through a shell, which splits the arguments again.
      spec.args().forEach(a -> arguments.raw(Shell.quote(a)));
    } catch (IllegalArgumentException e) {
      return CompletableFuture.failedFuture(new DebuggerException(e.getMessage()));
    }
    CompletableFuture<MiReply> loaded = send(MiCommand.of("-file-exec-and-symbols").param(program));
    List<CompletableFuture<MiReply>> settings = new ArrayList<>();
    settings.add(send(arguments));
    settings.add(
        send(
            MiCommand.of("-gdb-set")
                .param("cwd")
                .param(spec.workingDirectory().toAbsolutePath().toString())));
    for (Map.Entry<String, String> e : spec.environment().entrySet()) {
      settings.add(cliReply("set environment " + e.getKey() + "=" + e.getValue()));
    }
    // Without debug info gdb has no "current source file" and answers with an error.
    CompletableFuture<Boolean> debugInfo =
        send("-file-list-exec-source-file").handle((reply, error) -> error == null);
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
      return run("-exec-continue");
    }
    events.exitReported = false;
    events.killRequested = false;
    return run("-exec-run");
  }

  @Override
  public CompletableFuture<Void> resume() {
    return run("-exec-continue");
  }

  @Override
  public CompletableFuture<Void> step(StepKind kind) {
    return run(
        switch (kind) {
          case INTO -> "-exec-step";
          case OVER -> "-exec-next";
          case RETURN -> "-exec-finish";
        });
  }

  @Override
  public CompletableFuture<Void> interrupt() {
    events.interruptRequested = true;
    return run("-exec-interrupt");
  }

  @Override
  public CompletableFuture<Void> kill() {
    events.killRequested = true;
    return cliReply("kill").thenApply(r -> null);
  }

  @Override
  public CompletableFuture<Breakpoint> insertBreakpoint(BreakpointSpec spec) {
    MiCommand c = MiCommand.of("-break-insert").option("-f");
    if (spec.temporary()) {
      c.option("-t");
    }
    if (!spec.enabled()) {
      c.option("-d");
    }
    if (!spec.condition().isBlank()) {
      c.option("-c").param(spec.condition());
    }
    if (spec.ignoreCount() > 0) {
      c.option("-i").param(spec.ignoreCount());
    }
    c.param(spec.location().toString());
    return send(c).thenApply(r -> GdbResults.breakpoint(r.results().tuple("bkpt")));
  }

  @Override
  public CompletableFuture<Breakpoint> insertWatchpoint(String expression, WatchKind kind) {
    MiCommand c = MiCommand.of("-break-watch");
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
        .thenApply(
            r -> {
              MiTuple w =
                  r.results()
                      .get("wpt")
                      .or(() -> r.results().get("hw-rwpt"))
                      .or(() -> r.results().get("hw-awpt"))
                      .map(GdbResults::asTuple)
                      .orElseThrow(() -> new MiShapeException("no watchpoint in " + r.results()));
              return new Breakpoint(
                  Integer.parseInt(w.string("number")),
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
    return done(send(MiCommand.of("-break-delete").param(id)));
  }

  @Override
  public CompletableFuture<Void> enableBreakpoint(int id, boolean enabled) {
    return done(send(MiCommand.of(enabled ? "-break-enable" : "-break-disable").param(id)));
  }

  @Override
  public CompletableFuture<List<Breakpoint>> breakpoints() {
    return send("-break-list")
        .thenApply(
            r -> {
              List<Breakpoint> list = new ArrayList<>();
              for (MiValue v : r.results().tuple("BreakpointTable").list("body").items()) {
                list.add(GdbResults.breakpoint(GdbResults.asTuple(v)));
              }
              return list;
            });
  }

  @Override
  public CompletableFuture<List<Frame>> frames() {
    return send("-stack-list-frames").thenApply(r -> GdbResults.frames(r.results().list("stack")));
  }

  @Override
  public CompletableFuture<Frame> selectFrame(int level) {
    // gdb 13 selects a level past the outermost frame and then describes a frame "??": check the
    // depth first (counting at most level + 1 frames) and refuse as gdb's CLI does.
    return send(MiCommand.of("-stack-info-depth").param(level + 1))
        .thenCompose(
            depth -> {
              if (Integer.parseInt(depth.results().string("depth")) <= level) {
                throw new DebuggerException("No frame at level " + level + ".");
              }
              return send(MiCommand.of("-stack-select-frame").param(level));
            })
        .thenCompose(r -> send("-stack-info-frame"))
        .thenApply(r -> GdbResults.frame(r.results().tuple("frame")));
  }

  @Override
  public CompletableFuture<Integer> stackDepth() {
    return send("-stack-info-depth").thenApply(r -> Integer.parseInt(r.results().string("depth")));
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
    return send("-stack-list-variables --simple-values")
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
    CompletableFuture<MiReply> sources = send("-file-list-exec-source-files --group-by-objfile");
    CompletableFuture<MiReply> variables = send("-symbol-info-variables");
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
    return send(MiCommand.of("-data-evaluate-expression").param(name))
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
    // A variable object gives the type, the number of children and, for a scalar, the text that
    // print shows; print's own text is fetched only for composites (where the object shows
    // "{...}"), and print's error when the object cannot be made, for gdb's own message.
    CompletableFuture<MiReply> created =
        send(MiCommand.of("-var-create").param("-").param("*").param(expression));
    CompletableFuture<Integer> size =
        send(MiCommand.of("-data-evaluate-expression").param("sizeof(" + expression + ")"))
            .handle((s, e) -> e == null ? parseSize(s) : 0);
    return created
        .handle(
            (var, error) -> {
              if (error != null) {
                return printed(expression, size);
              }
              if (var.results().optString("value").orElse("").isEmpty()) {
                // Made, but without a value (e.g. a division by zero): print says why.
                send(MiCommand.of("-var-delete").param(var.results().string("name")));
                return printed(expression, size);
              }
              return fromVariable(expression, var, size);
            })
        .thenCompose(value -> value);
  }

  private CompletableFuture<Value> fromVariable(
      String expression, MiReply var, CompletableFuture<Integer> size) {
    String name = var.results().string("name");
    String type = var.results().optString("type").orElse("");
    int childCount = Integer.parseInt(var.results().optString("numchild").orElse("0"));
    String shown = var.results().optString("value").orElse("");
    Value.Kind kind = ValueKinds.classify(type, shown, childCount);
    CompletableFuture<String> text =
        kind.isComposite()
            ? send(MiCommand.of("-data-evaluate-expression").param(expression))
                .thenApply(r -> r.results().string("value"))
            : CompletableFuture.completedFuture(shown);
    CompletableFuture<List<Value>> children =
        kind.isComposite()
            ? children(name, CHILD_DEPTH)
            : CompletableFuture.completedFuture(List.of());
    return CompletableFuture.allOf(text, children, size)
        .thenApply(
            done ->
                new Value(
                    expression, type, kind, size.join(), text.join(), childCount, children.join()))
        .whenComplete((v, e) -> send(MiCommand.of("-var-delete").param(name)));
  }

  private CompletableFuture<Value> printed(String expression, CompletableFuture<Integer> size) {
    return send(MiCommand.of("-data-evaluate-expression").param(expression))
        .thenCombine(
            size,
            (r, bytes) -> {
              String text = r.results().string("value");
              return Value.scalar(expression, "", ValueKinds.classify("", text, 0), bytes, text);
            });
  }

  /** The children of a variable object, {@code depth} levels down, C++ access groups flattened. */
  private CompletableFuture<List<Value>> children(String var, int depth) {
    if (depth == 0) {
      return CompletableFuture.completedFuture(List.of());
    }
    MiCommand c =
        MiCommand.of("-var-list-children")
            .option("--all-values")
            .param(var)
            .param(0)
            .param(MAX_CHILDREN);
    return send(c)
        .thenCompose(
            r -> {
              List<CompletableFuture<List<Value>>> parts = new ArrayList<>();
              for (MiValue v :
                  r.results()
                      .get("children")
                      .map(x -> (MiList) x)
                      .map(MiList::items)
                      .orElse(List.of())) {
                MiTuple child = GdbResults.asTuple(v);
                String name = child.string("name");
                String exp = child.string("exp");
                int count = Integer.parseInt(child.optString("numchild").orElse("0"));
                if (child.get("type").isEmpty() && isAccessGroup(exp)) {
                  parts.add(children(name, depth));
                  continue;
                }
                String type = child.string("type");
                String text = child.optString("value").orElse("");
                Value.Kind kind = ValueKinds.classify(type, text, count);
                CompletableFuture<List<Value>> grand =
                    kind.isComposite() && count > 0
                        ? children(name, depth - 1)
                        : CompletableFuture.completedFuture(List.of());
                parts.add(
                    grand.thenApply(g -> List.of(new Value(exp, type, kind, 0, text, count, g))));
              }
              return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
                  .thenApply(
                      x -> {
                        List<Value> all = new ArrayList<>();
                        parts.forEach(p -> all.addAll(p.join()));
                        return all;
                      });
            });
  }

  @Override
  public CompletableFuture<String> typeOf(String expression) {
    return cliReply("whatis " + expression)
        .thenApply(
            r -> {
              String out = r.console().strip();
              return out.startsWith("type = ") ? out.substring("type = ".length()) : out;
            });
  }

  @Override
  public CompletableFuture<List<ThreadInfo>> threads() {
    return send("-thread-info")
        .thenApply(
            r -> {
              List<ThreadInfo> threads = new ArrayList<>();
              for (MiValue v : r.results().list("threads").items()) {
                threads.add(GdbResults.thread(GdbResults.asTuple(v)));
              }
              return threads;
            });
  }

  @Override
  public CompletableFuture<ThreadInfo> selectThread(int id) {
    return send(MiCommand.of("-thread-select").param(id))
        .thenCompose(r -> send(MiCommand.of("-thread-info").param(id)))
        .thenApply(
            r -> GdbResults.thread(GdbResults.asTuple(r.results().list("threads").items().get(0))));
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
  public CompletableFuture<byte[]> readMemory(String address, int count) {
    return send(MiCommand.of("-data-read-memory-bytes").param(address).param(count))
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
        send(MiCommand.of("-data-write-memory-bytes").param(address).param(GdbResults.hex(bytes))));
  }

  @Override
  public CompletableFuture<String> cli(String command) {
    return cliReply(command).thenApply(MiReply::console);
  }

  @Override
  public void writeInput(byte[] bytes) {
    if (!detached) {
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
    return send("-target-detach")
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
    // gdb would detach from a program attached at its exec and leave it running: sdm started it,
    // so it ends it first.
    if (attached != null && !leaveRunning) {
      driver
          .inferiorPid()
          .ifPresent(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }
    driver.close();
  }

  /** Sends to gdb, unless the debugger has detached: then fails with {@link Debugger#DETACHED}. */
  private CompletableFuture<MiReply> send(String command) {
    return detached
        ? CompletableFuture.failedFuture(new DebuggerException(DETACHED))
        : driver.send(command);
  }

  private CompletableFuture<MiReply> send(MiCommand command) {
    return send(command.text());
  }

  private CompletableFuture<MiReply> cliReply(String command) {
    return send(MiCommand.of("-interpreter-exec").param("console").param(command));
  }

  private CompletableFuture<Void> run(String command) {
    return done(send(command));
  }

  private static CompletableFuture<Void> done(CompletableFuture<MiReply> reply) {
    return reply.thenApply(r -> null);
  }

  private static int parseSize(MiReply r) {
    try {
      return Integer.parseInt(r.results().string("value"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static boolean isAccessGroup(String exp) {
    return exp.equals("public") || exp.equals("private") || exp.equals("protected");
  }

  /** Turns MI async records into {@link DebugEvent}s for the subscriber. */
  private static final class Events implements MiListener {
    volatile Consumer<DebugEvent> subscriber = e -> {};
    volatile boolean interruptRequested;
    volatile boolean killRequested;
    volatile boolean exitReported;
    volatile CompletableFuture<String> execWaiter;
    volatile CompletableFuture<String> attachWaiter;
    volatile GdbDriver driver;
    volatile boolean closing;

    @Override
    public void onAsync(MiAsyncRecord r) {
      if (r.kind() == MiAsyncKind.EXEC && r.asyncClass().equals("stopped")) {
        onStopped(r.results());
      } else if (r.kind() == MiAsyncKind.EXEC && r.asyncClass().equals("running")) {
        emit(new DebugEvent.Resumed());
      } else if (r.kind() == MiAsyncKind.NOTIFY
          && r.asyncClass().equals("thread-group-exited")
          && r.results().get("exit-code").isEmpty()
          && killRequested
          && !exitReported) {
        exitReported = true;
        emit(DebugEvent.Exited.bySignal("SIGKILL"));
      }
    }

    @Override
    public void onProgramOutput(byte[] bytes) {
      emit(new DebugEvent.Output(bytes));
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
      CompletableFuture<String> exec = execWaiter;
      if (exec != null) {
        onStoppedBeforeExec(exec, reason, t);
        return;
      }
      CompletableFuture<String> attach = attachWaiter;
      if (attach != null && !attach.isDone()) {
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
        default -> {
          String signal = t.optString("signal-name").orElse("");
          StopReason why = GdbResults.stopReason(reason);
          if (interruptRequested && (why == StopReason.UNKNOWN || signal.equals("SIGINT"))) {
            why = StopReason.INTERRUPTED;
            signal = "";
          }
          interruptRequested = false;
          Frame frame =
              t.get("frame")
                  .map(f -> GdbResults.frame(GdbResults.asTuple(f)))
                  .orElse(Frame.UNKNOWN);
          int thread = t.optString("thread-id").map(Integer::parseInt).orElse(0);
          int bkpt = t.optString("bkptno").map(Integer::parseInt).orElse(watchpoint(t));
          if (why == StopReason.INTERRUPTED && thread > 1 && driver != null) {
            // No thread caused an interrupt; gdb picks whichever the signal hit, often a helper
            // thread of the runtime (MPI's progress threads). Show the main thread instead.
            StopReason interrupted = why;
            String sig = signal;
            driver
                .send(MiCommand.of("-thread-select").param("1"))
                .whenComplete(
                    (r, error) ->
                        emit(
                            error != null
                                ? new DebugEvent.Stopped(interrupted, sig, frame, thread, bkpt)
                                : new DebugEvent.Stopped(
                                    interrupted,
                                    sig,
                                    r.results()
                                        .get("frame")
                                        .map(f -> GdbResults.frame(GdbResults.asTuple(f)))
                                        .orElse(frame),
                                    1,
                                    bkpt)));
            return;
          }
          emit(new DebugEvent.Stopped(why, signal, frame, thread, bkpt));
        }
      }
    }

    /** While attaching at an exec: the exec completes the attach, an exit fails it. */
    private static void onStoppedBeforeExec(
        CompletableFuture<String> exec, String reason, MiTuple t) {
      switch (reason) {
        case "exec", "solib-event" -> exec.complete(reason);
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
     * The number of the watchpoint a stop triggered: {@code wpt}, {@code hw-rwpt} or {@code
     * hw-awpt}.
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
      subscriber.accept(e);
    }
  }
}
