package io.sdmfabric.gdbmi;

import io.sdmfabric.gdbmi.internal.LineAssembler;
import io.sdmfabric.gdbmi.internal.Signals;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * gdb's operating-system process: how it is started, the end of its standard error, how it is
 * ended, and what the JVM's exit does to it. It knows nothing of MI ({@link MiChannel} speaks it
 * over this process's standard input and output).
 *
 * <p>gdb is never sent SIGTERM: gdb 13 can fail an internal assertion when SIGTERM comes while it
 * handles a stop of a running attached program (a conditional breakpoint's), and abort with a core
 * dump (measured; likely gdb bug 26761, fixed after gdb 13:
 * https://sourceware.org/bugzilla/show_bug.cgi?id=26761). gdb is asked to exit over MI and, if it
 * lingers, killed with SIGKILL, which dumps no core. gdb's internal errors end it with exit status
 * 1 and no core either (see {@link #EARLY_SETTINGS}).
 */
final class GdbProcess {
  private static final Logger log = LoggerFactory.getLogger(GdbProcess.class);
  private static final int STDERR_TAIL_LINES = 20;

  /** How long a close lets gdb detach and exit before it kills gdb with SIGKILL. */
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

  /**
   * An argument pair that makes gdb's standard output line-buffered. gdb 13 leaves its standard
   * output unbuffered and prints MI a character at a time: one {@code write} system call per byte
   * (strace: 35,132 writes of one byte for 4 programs stepped 6 times), and as many wake-ups of the
   * reader on the other end of the pipe. A stop at a breakpoint of 16 programs prints its 3.7 KB of
   * {@code =breakpoint-modified}, so a {@code next} of 16 programs that ends on a breakpoint cost
   * gdb 26-47 ms instead of 13-15 ms line-buffered (bench: 16 programs, 60 rounds). Every MI record
   * ends with a newline, so line buffering holds back nothing a reader could use. The buffer is
   * taken from C's heap, never freed: gdb flushes its output at exit after Python has ended. A gdb
   * without Python, or whose C library is not found, stays unbuffered.
   */
  static final List<String> LINE_BUFFERED_OUTPUT =
      List.of(
          "-iex",
          "python exec(\"try:\\n import ctypes\\n c = ctypes.CDLL(None)\\n"
              + " c.malloc.restype = ctypes.c_void_p\\n"
              + " c.setvbuf(ctypes.c_void_p.in_dll(c, 'stdout'), ctypes.c_void_p(c.malloc(65536)),"
              + " 1, 65536)\\nexcept Exception:\\n pass\")");

  /** What the JVM's exit does to a gdb and its programs; the {@link GdbDriver} answers. */
  interface AtJvmExit {
    /**
     * Whether gdb must be closed gracefully (it attached to a running program, which it must detach
     * from); otherwise the programs are killed and gdb with them.
     */
    boolean leavesPrograms();

    /** Kills the programs gdb runs. */
    void killPrograms();

    /** Closes gdb gracefully; completes when it is gone. */
    CompletableFuture<Void> closeAsync();
  }

  private static final Set<GdbProcess> LIVE = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(GdbProcess::endAllLive, "gdb-driver-shutdown"));
  }

  private final Process gdb;
  private final Deque<String> stderrTail = new ArrayDeque<>(); // guarded by itself
  private volatile AtJvmExit atJvmExit;

  private GdbProcess(Process gdb) {
    this.gdb = gdb;
  }

  /**
   * Starts {@code gdb --interpreter=mi3 -nx -q} in {@link GdbOptions#directory}, with {@link
   * #EARLY_SETTINGS}, {@link #LINE_BUFFERED_OUTPUT} and {@link GdbOptions#debugFileDirectory}
   * (before gdb reads any file), without {@link GdbDriver#WITHHELD_ENVIRONMENT}, and reads its
   * standard error.
   *
   * @throws IOException when gdb cannot be started (not installed: the message says so)
   */
  static GdbProcess start(GdbOptions options) throws IOException {
    List<String> command =
        new ArrayList<>(List.of(options.executable(), "--interpreter=mi3", "-nx", "-q"));
    command.addAll(EARLY_SETTINGS);
    command.addAll(LINE_BUFFERED_OUTPUT);
    for (String setting : options.debugFileDirectorySettings()) {
      command.addAll(List.of("-iex", setting));
    }
    command.addAll(options.extraArgs());
    Process process;
    try {
      ProcessBuilder builder = new ProcessBuilder(command).directory(options.directory().toFile());
      builder.environment().keySet().removeAll(GdbDriver.WITHHELD_ENVIRONMENT);
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
    GdbProcess gdb = new GdbProcess(process);
    Thread err = new Thread(gdb::readStderr, "gdb-" + process.pid() + "-stderr");
    err.setDaemon(true);
    err.start();
    return gdb;
  }

  /** From now on the JVM's exit ends this gdb as {@code atExit} says, until {@link #ended}. */
  void endAtJvmExit(AtJvmExit atExit) {
    this.atJvmExit = atExit;
    LIVE.add(this);
  }

  /** gdb is gone: the JVM's exit has nothing to do for it. */
  void ended() {
    LIVE.remove(this);
  }

  long pid() {
    return gdb.pid();
  }

  /** gdb's standard output: MI. */
  InputStream output() {
    return gdb.getInputStream();
  }

  /** gdb's standard input: MI commands. */
  OutputStream input() {
    return gdb.getOutputStream();
  }

  boolean isAlive() {
    return gdb.isAlive();
  }

  /**
   * gdb's exit value as {@link Process#exitValue} gives it (128 + N when signal N ended it), once
   * it has exited.
   */
  OptionalInt exitValue() {
    return gdb.isAlive() ? OptionalInt.empty() : OptionalInt.of(gdb.exitValue());
  }

  /** Waits for gdb to exit, {@code millis} at most. */
  void awaitExit(long millis) {
    try {
      gdb.waitFor(millis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Kills gdb with SIGKILL now. */
  void kill() {
    gdb.destroyForcibly();
  }

  /**
   * Kills gdb with SIGKILL if it has not exited after {@link #EXIT_GRACE_MS}, on a thread of its
   * own: gdb has been asked to exit.
   */
  void killIfLingering() {
    Thread killer = new Thread(this::awaitEndOrKill, "gdb-" + gdb.pid() + "-close");
    killer.setDaemon(true);
    killer.start();
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

  /**
   * Why gdb ended on its own, with the end of its standard error. No pid: the same end of many
   * ranks' gdbs reads the same, so that it merges.
   */
  String describeEnd() {
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

  /**
   * The JVM is going: every gdb ends at once, with what it started. A gdb attached to a running
   * program is closed as {@link GdbDriver#closeAsync} does (detach, then exit, then SIGKILL if it
   * lingers) and waited for: killed at once, it would leave a breakpoint in the program that the
   * next SIGTRAP kills it with.
   */
  private static void endAllLive() {
    List<GdbProcess> leaving = new ArrayList<>();
    List<CompletableFuture<Void>> closes = new ArrayList<>();
    for (GdbProcess p : LIVE) {
      AtJvmExit atExit = p.atJvmExit;
      if (atExit.leavesPrograms()) {
        closes.add(atExit.closeAsync());
        leaving.add(p);
      } else {
        atExit.killPrograms();
        p.kill();
      }
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EXIT_GRACE_MS + 2_000);
    for (int i = 0; i < leaving.size(); i++) {
      try {
        closes.get(i).get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        leaving.get(i).kill();
      }
    }
  }
}
