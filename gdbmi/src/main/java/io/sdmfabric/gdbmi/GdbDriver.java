package io.sdmfabric.gdbmi;

import io.sdmfabric.gdbmi.internal.LineAssembler;
import io.sdmfabric.gdbmi.internal.Pty;
import io.sdmfabric.gdbmi.internal.Signals;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Failures;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@code gdb --interpreter=mi3 -nx -q} and talks GDB/MI to it.
 *
 * <p>Each command gets a numeric token; the future {@link #send} returns completes when gdb's
 * result record with that token arrives, or fails with {@link DebuggerException} carrying gdb's
 * {@code msg} on {@code ^error}, and with a clear message when gdb ends first. Async records,
 * stream records printed outside a command, program output and gdb's end go to the {@link
 * MiListener}.
 *
 * <p>Threads: one reads gdb's output (cutting it into lines however gdb chunks it), one gdb's
 * standard error, one writes commands, one reads the program's terminal, and one delivers results
 * and events in the order gdb wrote them. So {@link #send} and {@link #writeInput} never block, and
 * code chained on a future runs on the delivery thread, where it must not block either.
 *
 * <p>The program runs on a pseudo-terminal of its own, so its output never mixes with MI. gdb and
 * the program end on {@link #close}, when gdb dies, and when the JVM exits; unless gdb {@linkplain
 * #leaveProgramRunning attached to a program that was already running}, which is then detached and
 * left running in all three cases.
 *
 * <p>The driver never sends gdb SIGTERM: gdb 13 can fail an internal assertion when SIGTERM comes
 * while it handles a stop of a running attached program (a conditional breakpoint's), and abort
 * with a core dump (measured; likely gdb bug 26761, fixed after gdb 13:
 * https://sourceware.org/bugzilla/show_bug.cgi?id=26761). It asks gdb to exit over MI and, if gdb
 * lingers, kills it with SIGKILL, which dumps no core. gdb's internal errors end it with exit
 * status 1 and no core either (see {@link #EARLY_SETTINGS}).
 */
public final class GdbDriver implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(GdbDriver.class);

  /** Whether sdm's value commands are loaded; set once at start. */
  private volatile boolean valueCommands;

  private static final Set<GdbDriver> LIVE = ConcurrentHashMap.newKeySet();
  private static final int STDERR_TAIL_LINES = 20;

  /** How long {@link #closeAsync} lets gdb detach and exit before it kills gdb with SIGKILL. */
  static final long EXIT_GRACE_MS = 6_000;

  /**
   * Arguments that make gdb exit with status 1, without a core dump and without asking a question
   * (which MI could not answer), when it fails an internal assertion; and carry on after an
   * internal warning. gdb's defaults ({@code ask}) both quit and dump core here: with {@code
   * confirm off}, or with standard input not a terminal, every question counts as answered yes.
   * Given with {@code -iex}, they hold before gdb reads anything else. See "Maintenance Commands"
   * in the GDB manual, https://sourceware.org/gdb/onlinedocs/gdb/Maintenance-Commands.html ({@code
   * maint set internal-error quit} and {@code corefile}).
   */
  static final List<String> EARLY_SETTINGS =
      List.of(
          "-iex", "maintenance set internal-error quit yes",
          "-iex", "maintenance set internal-error corefile no",
          "-iex", "maintenance set internal-warning quit no",
          "-iex", "maintenance set internal-warning corefile no");

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(GdbDriver::killAllLive, "gdb-driver-shutdown"));
  }

  private final Process gdb;
  private final OutputStream toGdb;
  private final MiListener listener;
  private final GdbOptions options;
  private final Pty pty;
  private final ExecutorService writer;
  private final ExecutorService delivery;
  private final AtomicLong nextToken = new AtomicLong(1);

  /** A program-less inferior's thread group, once gdb has several programs; null before. */
  private volatile String nothingGroup;

  private final Deque<Pending> pending = new ArrayDeque<>(); // guarded by itself
  private final Deque<String> stderrTail = new ArrayDeque<>(); // guarded by itself
  private final CompletableFuture<Void> exited = new CompletableFuture<>();

  /** The process of each program gdb runs, by its thread group ({@code i1}, {@code i2} ...). */
  private final java.util.Map<String, Long> programs = new ConcurrentHashMap<>();

  /** Breakpoints kept out of sdm's MPI wait-records library. */
  private final WrapperLocations wrappers = new WrapperLocations(this::send);

  /** The terminals of the programs after the first ({@link #openTerminal}). */
  private final List<Pty> terminals = new java.util.concurrent.CopyOnWriteArrayList<>();

  private volatile boolean leaveProgram;
  private volatile boolean closing; // written under the pending lock
  private boolean dead; // guarded by the pending lock
  private volatile String deathReason = "";

  private record Pending(
      long token, String command, CompletableFuture<MiReply> reply, StringBuilder console) {}

  private GdbDriver(Process gdb, GdbOptions options, MiListener listener) throws IOException {
    this.gdb = gdb;
    this.toGdb = gdb.getOutputStream();
    this.options = options;
    this.listener = listener;
    String name = "gdb-" + gdb.pid();
    this.writer = Executors.newSingleThreadExecutor(daemon(name + "-writer"));
    this.delivery = Executors.newSingleThreadExecutor(daemon(name + "-events"));
    this.pty = Pty.open(bytes -> deliver(() -> listener.onProgramOutput(bytes)));
  }

  /**
   * The environment variables gdb never gets, nor so the programs it starts and its {@code shell}
   * commands: the session's secret and keystore, which an agent JVM holds in its environment
   * ({@code SessionSecret.ENV} and {@code SessionKeystore.ENV}, which must be these).
   */
  public static final Set<String> WITHHELD_ENVIRONMENT = Set.of("SDM_SECRET", "SDM_KEYSTORE");

  /**
   * Starts gdb in {@link GdbOptions#directory}, without {@link #WITHHELD_ENVIRONMENT}, gives the
   * program a pseudo-terminal and turns on asynchronous execution (so that gdb takes commands while
   * the program runs), pagination and confirmation off, and core dumps of gdb off ({@link
   * #EARLY_SETTINGS}).
   *
   * @throws IOException when gdb cannot be started (not installed: the message says so)
   */
  public static GdbDriver start(GdbOptions options, MiListener listener) throws IOException {
    List<String> command =
        new ArrayList<>(List.of(options.executable(), "--interpreter=mi3", "-nx", "-q"));
    command.addAll(EARLY_SETTINGS);
    command.addAll(options.extraArgs());
    Process process;
    try {
      ProcessBuilder builder = new ProcessBuilder(command).directory(options.directory().toFile());
      builder.environment().keySet().removeAll(WITHHELD_ENVIRONMENT);
      process = builder.start();
    } catch (IOException e) {
      throw new IOException(
          "cannot start gdb ("
              + options.executable()
              + "): is gdb installed and on the PATH? Set SDM_GDB to its path otherwise. ("
              + e.getMessage()
              + ")",
          e);
    }
    GdbDriver driver;
    try {
      driver = new GdbDriver(process, options, listener);
    } catch (IOException | RuntimeException e) {
      process.destroyForcibly();
      throw e;
    }
    LIVE.add(driver);
    driver.startReaders();
    try {
      for (String setting :
          List.of(
              "-gdb-set non-stop on",
              "-gdb-set mi-async on",
              "-gdb-set pagination off",
              "-gdb-set confirm off",
              "-gdb-set width 0",
              "-gdb-set height 0",
              "-gdb-set breakpoint pending on",
              MiCommand.of("-inferior-tty-set").param(driver.pty.slaveName()).text())) {
        driver.send(setting).get(30, TimeUnit.SECONDS);
      }
    } catch (Exception e) {
      driver.close();
      throw new IOException("gdb did not start up: " + Failures.message(e), Failures.cause(e));
    }
    driver.loadValueCommands();
    return driver;
  }

  /**
   * Loads sdm's gdb commands for values ({@code sdm_values.py}) into a gdb that has Python; a gdb
   * without it answers values through variable objects, with more MI commands.
   */
  private void loadValueCommands() {
    String script;
    try (InputStream in = GdbDriver.class.getResourceAsStream("sdm_values.py")) {
      script = Base64.getEncoder().encodeToString(in.readAllBytes());
    } catch (IOException | NullPointerException e) {
      log.warn("sdm's gdb commands are missing from the jar: {}", e.toString());
      return;
    }
    String load = "python exec(__import__('base64').b64decode('" + script + "').decode())";
    try {
      send(MiCommand.of("-interpreter-exec").param("console").param(load).text())
          .get(30, TimeUnit.SECONDS);
      valueCommands = true;
    } catch (Exception e) {
      log.debug("gdb {} takes values through variable objects: {}", gdb.pid(), Failures.message(e));
    }
  }

  /** Whether gdb has sdm's {@code sdm-value} and {@code sdm-type} commands (it has Python). */
  public boolean hasValueCommands() {
    return valueCommands;
  }

  /** Makes values go through variable objects, as in a gdb without Python; for comparisons. */
  void withoutValueCommands() {
    valueCommands = false;
  }

  /**
   * Sends an MI command (without a token: the driver adds one).
   *
   * @return the reply; fails with {@link DebuggerException} on {@code ^error} (gdb's message
   *     intact) or when gdb ends before answering
   */
  public CompletableFuture<MiReply> send(String command) {
    return sendInTurn(List.of(command));
  }

  /**
   * Sends a built MI command; one for a whole program ({@code --thread-group}) of a gdb with
   * several programs goes after a command that selects no thread ({@link #selectNothingThrough}).
   */
  public CompletableFuture<MiReply> send(MiCommand command) {
    String nothing = nothingGroup;
    if (nothing != null && command.hasOption("--thread-group")) {
      return sendInTurn(
          List.of(
              MiCommand.of("-gdb-show")
                  .option("--thread-group")
                  .param(nothing)
                  .param("confirm")
                  .text(),
              command.text()));
    }
    return send(command.text());
  }

  /**
   * Sends {@code commands} one right after the other, nothing of anyone else's between them, and
   * answers the last one's reply.
   */
  private CompletableFuture<MiReply> sendInTurn(List<String> commands) {
    for (String command : commands) {
      if (command.indexOf('\n') >= 0) {
        throw new IllegalArgumentException("an MI command is one line: " + command);
      }
    }
    List<String> lines = new ArrayList<>(commands.size());
    Pending last = null;
    synchronized (pending) {
      for (String command : commands) {
        long token = nextToken.getAndIncrement();
        last = new Pending(token, command, new CompletableFuture<>(), new StringBuilder());
        if (dead) {
          last.reply.completeExceptionally(new DebuggerException(deadMessage()));
          return last.reply;
        }
        pending.addLast(last);
        lines.add(token + command + "\n");
      }
    }
    try {
      writer.execute(() -> lines.forEach(this::write));
    } catch (RejectedExecutionException e) {
      // gdb ended between the check and the write; onEnd has failed the commands.
    }
    return last.reply;
  }

  /**
   * From now on, every command for a whole program ({@code --thread-group}) goes after a command
   * for {@code group}, an inferior without a process, which leaves gdb with no thread selected. gdb
   * 13 selects, for {@code --thread-group iN}, the thread selected before if it is stopped, even
   * when it is another program's, and leaves it selected with program N's symbols: a following
   * command for that thread ({@code --thread T}) then reads its program with program N's symbols
   * and libraries (a rank's {@code sharedlibrary} read into another rank, its stack all {@code
   * ??}).
   */
  void selectNothingThrough(String group) {
    nothingGroup = group;
  }

  /** Writes bytes to the program's standard input (its terminal). */
  public void writeInput(byte[] bytes) {
    byte[] copy = bytes.clone();
    try {
      writer.execute(() -> writeToProgram(copy));
    } catch (RejectedExecutionException e) {
      log.warn("program input lost: gdb has ended");
    }
  }

  private void writeToProgram(byte[] bytes) {
    try {
      pty.write(bytes);
    } catch (IOException e) {
      log.warn("program input lost: {}", e.getMessage());
    }
  }

  /** The program's terminal, e.g. {@code /dev/pts/7}. */
  public String inferiorTty() {
    return pty.slaveName();
  }

  /** gdb's process id. */
  public long pid() {
    return gdb.pid();
  }

  /** The process id of the (first) program gdb runs, thread group {@code i1}, if it runs. */
  public OptionalLong inferiorPid() {
    return inferiorPid("i1");
  }

  /** The process id of the program of thread group {@code group}, if it runs. */
  public OptionalLong inferiorPid(String group) {
    Long pid = programs.get(group);
    return pid == null ? OptionalLong.empty() : OptionalLong.of(pid);
  }

  /**
   * The program of thread group {@code group} has ended though gdb did not say so: its process id
   * is no longer one to kill or detach from.
   */
  void programEnded(String group) {
    programs.remove(group);
  }

  /** A program's terminal: its name for {@code -inferior-tty-set}, and its input. */
  public interface ProgramTerminal {
    /** The terminal's device, e.g. {@code /dev/pts/7}. */
    String name();

    /** Writes bytes to the program's standard input. */
    void write(byte[] bytes);
  }

  /**
   * Opens another pseudo-terminal, for another program of this gdb (the first has {@link
   * #inferiorTty}); what the program writes to it goes to {@code output} on the delivery thread, in
   * order with gdb's records. It closes when gdb ends.
   */
  public ProgramTerminal openTerminal(java.util.function.Consumer<byte[]> output)
      throws IOException {
    Pty terminal = Pty.open(bytes -> deliver(() -> output.accept(bytes)));
    terminals.add(terminal);
    return new ProgramTerminal() {
      @Override
      public String name() {
        return terminal.slaveName();
      }

      @Override
      public void write(byte[] bytes) {
        byte[] copy = bytes.clone();
        try {
          writer.execute(
              () -> {
                try {
                  terminal.write(copy);
                } catch (IOException e) {
                  log.warn("program input lost: {}", e.getMessage());
                }
              });
        } catch (RejectedExecutionException e) {
          log.warn("program input lost: gdb has ended");
        }
      }
    };
  }

  /**
   * From now on the program is not gdb's to end: it was running before gdb attached to it. {@link
   * #close} detaches from it (gdb removes its breakpoints and lets it go), gdb's death leaves it to
   * the kernel (which lets a tracee go when its tracer dies) and the JVM's exit detaches as close
   * does. A gdb killed with SIGKILL while its program runs with breakpoints inserted leaves the
   * program to die of the next SIGTRAP: so close kills gdb only after {@link #EXIT_GRACE_MS}, when
   * it has had time to detach.
   */
  void leaveProgramRunning() {
    leaveProgram = true;
  }

  /** Whether gdb is running. */
  public boolean isAlive() {
    return !exited.isDone();
  }

  /** Completes when gdb has ended and every pending command has failed. */
  public CompletableFuture<Void> whenExited() {
    return exited;
  }

  /**
   * gdb's exit value as {@link Process#exitValue} gives it (128 + N when signal N ended it), once
   * it has exited.
   */
  OptionalInt exitValue() {
    return gdb.isAlive() ? OptionalInt.empty() : OptionalInt.of(gdb.exitValue());
  }

  /**
   * Ends gdb and the program: asks gdb to exit ({@code -gdb-exit}), kills it with SIGKILL if it has
   * not exited after {@link #EXIT_GRACE_MS}, and kills the program if it is still there. A program
   * gdb {@linkplain #leaveProgramRunning attached to} is detached ({@code -target-detach}) first
   * instead. Never SIGTERM (see the class comment). Completes when gdb is gone; never fails.
   */
  public CompletableFuture<Void> closeAsync() {
    synchronized (pending) {
      if (closing || dead) {
        closing = true;
        return exited;
      }
      closing = true;
    }
    if (leaveProgram) {
      for (String group : programs.keySet()) {
        // Fails harmlessly when there is nothing to detach from.
        send(MiCommand.of("-target-detach").option("--thread-group").param(group));
      }
    }
    send("-gdb-exit");
    Thread killer = new Thread(this::awaitEndOrKill, "gdb-" + gdb.pid() + "-close");
    killer.setDaemon(true);
    killer.start();
    return exited;
  }

  /** Ends gdb and the program (or leaves the program), waiting about ten seconds at most. */
  @Override
  public void close() {
    try {
      closeAsync().get(EXIT_GRACE_MS + 4_000, TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      gdb.destroyForcibly();
      killInferior();
    }
  }

  private void awaitEndOrKill() {
    try {
      if (!gdb.waitFor(EXIT_GRACE_MS, TimeUnit.MILLISECONDS)) {
        log.warn("gdb {} did not exit in time; killing it", gdb.pid());
        gdb.destroyForcibly().waitFor(3, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      gdb.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private void startReaders() {
    Thread out = new Thread(this::readMi, "gdb-" + gdb.pid() + "-reader");
    out.setDaemon(true);
    out.start();
    Thread err = new Thread(this::readStderr, "gdb-" + gdb.pid() + "-stderr");
    err.setDaemon(true);
    err.start();
  }

  private void write(String line) {
    try {
      toGdb.write(line.getBytes(StandardCharsets.UTF_8));
      toGdb.flush();
      options.transcript().accept(GdbOptions.COMMAND_PREFIX + line.stripTrailing());
    } catch (IOException e) {
      // gdb is gone; the reader sees the end of its output and fails what is pending.
      log.debug("write to gdb failed: {}", e.getMessage());
    }
  }

  private void readMi() {
    LineAssembler lines = new LineAssembler(this::onLine);
    byte[] buffer = new byte[16384];
    try (InputStream in = gdb.getInputStream()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        lines.feed(buffer, 0, n);
      }
    } catch (IOException e) {
      log.debug("reading gdb's output ended: {}", e.getMessage());
    }
    onEnd();
  }

  private void readStderr() {
    LineAssembler lines =
        new LineAssembler(
            line -> {
              String text = new String(line, StandardCharsets.UTF_8);
              log.debug("gdb {} stderr: {}", gdb.pid(), text);
              synchronized (stderrTail) {
                if (stderrTail.size() == STDERR_TAIL_LINES) {
                  stderrTail.removeFirst();
                }
                stderrTail.addLast(text);
              }
            });
    byte[] buffer = new byte[4096];
    try (InputStream in = gdb.getErrorStream()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        lines.feed(buffer, 0, n);
      }
    } catch (IOException e) {
      log.debug("reading gdb's stderr ended: {}", e.getMessage());
    }
  }

  private void onLine(byte[] line) {
    options.transcript().accept(new String(line, StandardCharsets.UTF_8));
    if (line.length == 0) {
      return; // not MI, but says nothing either
    }
    MiRecord record;
    try {
      record = MiParser.parse(line);
    } catch (MiParseException e) {
      log.warn("gdb {} wrote a line that is not GDB/MI: {}", gdb.pid(), e.getMessage());
      deliver(() -> listener.onParseError(e));
      return;
    }
    if (record instanceof MiResultRecord r) {
      onResult(r);
    } else if (record instanceof MiStreamRecord s) {
      onStream(s);
    } else if (record instanceof MiAsyncRecord a) {
      onAsync(a);
    }
  }

  private void onResult(MiResultRecord r) {
    wrappers.onResult(r);
    Pending p;
    synchronized (pending) {
      p = pending.peekFirst();
      if (p == null || !r.hasToken() || p.token != r.token()) {
        p = findAndRemove(r);
      } else {
        pending.removeFirst();
      }
    }
    if (p == null) {
      log.warn("gdb {} answered a command it was not sent: {}", gdb.pid(), r);
      return;
    }
    Pending done = p;
    deliver(() -> complete(done, r));
  }

  private Pending findAndRemove(MiResultRecord r) {
    if (!r.hasToken()) {
      return null;
    }
    for (var it = pending.iterator(); it.hasNext(); ) {
      Pending p = it.next();
      if (p.token == r.token()) {
        it.remove();
        return p;
      }
    }
    return null;
  }

  private static void complete(Pending p, MiResultRecord r) {
    if (r.resultClass() == MiResultClass.ERROR) {
      String msg = r.results().optString("msg").orElse("gdb reported an error without a message");
      p.reply.completeExceptionally(new DebuggerException(msg));
    } else {
      p.reply.complete(new MiReply(r.resultClass(), r.results(), p.console.toString()));
    }
  }

  private void onStream(MiStreamRecord s) {
    if (s.kind() != MiStreamKind.LOG) {
      synchronized (pending) {
        Pending head = pending.peekFirst();
        if (head != null) {
          head.console.append(s.text());
          return;
        }
      }
    }
    deliver(() -> listener.onStream(s));
  }

  private void onAsync(MiAsyncRecord a) {
    wrappers.onAsync(a);
    if (a.kind() == MiAsyncKind.NOTIFY && a.asyncClass().equals("thread-group-started")) {
      a.results()
          .optString("pid")
          .ifPresent(pid -> programs.put(a.results().string("id"), Long.parseLong(pid)));
    } else if (a.kind() == MiAsyncKind.NOTIFY && a.asyncClass().equals("thread-group-exited")) {
      a.results().optString("id").ifPresent(programs::remove);
    }
    deliver(() -> listener.onAsync(a));
  }

  private void onEnd() {
    try {
      gdb.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    killInferior();
    deathReason = describeEnd();
    if (!closing) {
      log.warn("gdb {}: {}", gdb.pid(), deathReason);
    }
    List<Pending> failed;
    synchronized (pending) {
      dead = true;
      failed = new ArrayList<>(pending);
      pending.clear();
    }
    String message = deadMessage();
    deliver(
        () -> {
          failed.forEach(p -> p.reply.completeExceptionally(new DebuggerException(message)));
          listener.onGdbExit(message);
        });
    deliver(
        () -> {
          LIVE.remove(this);
          pty.close();
          terminals.forEach(Pty::close);
          exited.complete(null);
        });
    writer.shutdown();
    delivery.shutdown();
  }

  /**
   * Why gdb ended on its own, with the end of its standard error. No pid: the same end of many
   * ranks' gdbs reads the same, so that it merges.
   */
  private String describeEnd() {
    String how =
        gdb.isAlive()
            ? "gdb stopped answering"
            : "gdb exited unexpectedly (" + exitStatus(gdb.exitValue()) + ")";
    String tail;
    synchronized (stderrTail) {
      tail = String.join("\n", stderrTail);
    }
    return how + (tail.isBlank() ? "" : ": " + tail);
  }

  /**
   * A process's exit status as Java reports it: a process ended by signal N has the exit value 128
   * + N (Linux numbering).
   */
  static String exitStatus(int exitValue) {
    int signal = exitValue - 128;
    if (signal >= 1 && signal < 65) {
      return "killed by " + Signals.name(signal);
    }
    return "exit code " + exitValue;
  }

  private String deadMessage() {
    return closing ? "gdb was closed" : (deathReason.isEmpty() ? "gdb ended" : deathReason);
  }

  /** Runs a task on the delivery thread, in order; after gdb's end has been delivered, drops it. */
  private void deliver(Runnable task) {
    try {
      delivery.execute(task);
    } catch (RejectedExecutionException e) {
      log.debug("dropped an event after gdb {} ended", gdb.pid());
    }
  }

  /** Kills the programs, unless gdb attached to them ({@link #leaveProgramRunning}). */
  private void killInferior() {
    if (!leaveProgram) {
      for (long pid : programs.values()) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  /**
   * The JVM is going: every gdb ends at once, with what it started. A gdb attached to a running
   * program is closed as {@link #closeAsync} does (detach, then exit, then SIGKILL if it lingers)
   * and waited for: killed at once, it would leave a breakpoint in the program that the next
   * SIGTRAP kills it with.
   */
  private static void killAllLive() {
    List<GdbDriver> leaving = new ArrayList<>();
    for (GdbDriver d : LIVE) {
      if (d.leaveProgram) {
        d.closeAsync();
        leaving.add(d);
      } else {
        d.killInferior();
        d.gdb.destroyForcibly();
      }
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EXIT_GRACE_MS + 2_000);
    for (GdbDriver d : leaving) {
      try {
        d.exited.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        d.gdb.destroyForcibly();
      }
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
