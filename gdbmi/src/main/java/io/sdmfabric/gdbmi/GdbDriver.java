package io.sdmfabric.gdbmi;

import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Failures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@code gdb --interpreter=mi3 -nx -q} and talks GDB/MI to it: the one object a caller
 * holds for a gdb, over three parts with one job each. {@link GdbProcess} is gdb's process (start,
 * the end of its standard error, SIGKILL, the JVM's exit); {@link MiChannel} is the MI conversation
 * (tokens, replies, the reader and writer threads, the delivery); {@link ProgramTerminals} are the
 * programs' pseudo-terminals. Two listeners of the channel's records keep state of their own:
 * {@link ProgramPids} (each program's process) and {@link WrapperLocations}.
 *
 * <p>Each command gets a numeric token; the future {@link #send} returns completes when gdb's
 * result record with that token arrives, or fails with {@link DebuggerException} carrying gdb's
 * {@code msg} on {@code ^error}, and with a clear message when gdb ends first. Async records,
 * stream records printed outside a command, program output and gdb's end go to the {@link
 * MiListener}, one at a time in the order gdb wrote them, mostly on the thread that read them. So
 * {@link #send} and {@link #writeInput} never block, and code chained on a future runs in that
 * delivery, where it must not block either.
 *
 * <p>The program runs on a pseudo-terminal of its own, so its output never mixes with MI. gdb and
 * the program end on {@link #close}, when gdb dies, and when the JVM exits; unless gdb {@linkplain
 * #leaveProgramRunning attached to a program that was already running}, which is then detached and
 * left running in all three cases. gdb is never sent SIGTERM (see {@link GdbProcess}).
 */
public final class GdbDriver implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(GdbDriver.class);

  /**
   * The environment variables gdb never gets, nor so the programs it starts and its {@code shell}
   * commands: the session's secret and keystore, which an agent JVM holds in its environment
   * ({@code SessionSecret.ENV} and {@code SessionKeystore.ENV}, which must be these).
   */
  public static final Set<String> WITHHELD_ENVIRONMENT = Set.of("SDM_SECRET", "SDM_KEYSTORE");

  private final GdbProcess gdb;
  private final MiChannel channel;
  private final ProgramTerminals terminals;

  /** The process of each program gdb runs. */
  private final ProgramPids programs = new ProgramPids();

  /** Whether sdm's value commands are loaded; set once at start. */
  private volatile boolean valueCommands;

  /** A program-less inferior's thread group, once gdb has several programs; null before. */
  private volatile String nothingGroup;

  private volatile boolean leaveProgram;
  private final CompletableFuture<Void> exited = new CompletableFuture<>();

  private GdbDriver(GdbProcess gdb, GdbOptions options, MiListener listener) throws IOException {
    this.gdb = gdb;
    this.channel =
        new MiChannel(gdb.pid(), gdb.output(), gdb.input(), options.transcript(), listener);
    this.terminals = new ProgramTerminals(channel, listener::onProgramOutput, "gdb-" + gdb.pid());
    // Breakpoints kept out of sdm's MPI wait-records library.
    channel.onRecord(new WrapperLocations(this::send)::onRecord);
    channel.onRecord(programs::onRecord);
  }

  /**
   * Starts gdb in {@link GdbOptions#directory}, without {@link #WITHHELD_ENVIRONMENT}, gives the
   * program a pseudo-terminal and turns on asynchronous execution (so that gdb takes commands while
   * the program runs), pagination and confirmation off, and core dumps of gdb off ({@link
   * GdbProcess#EARLY_SETTINGS}).
   *
   * @throws IOException when gdb cannot be started (not installed: the message says so)
   */
  public static GdbDriver start(GdbOptions options, MiListener listener) throws IOException {
    GdbProcess process = GdbProcess.start(options);
    GdbDriver driver;
    try {
      driver = new GdbDriver(process, options, listener);
    } catch (IOException | RuntimeException e) {
      process.kill();
      throw e;
    }
    process.endAtJvmExit(driver.atJvmExit());
    driver.channel.start(driver::onEnd);
    try {
      for (MiCommand setting : MiCommands.startup(driver.terminals.firstName())) {
        driver.send(setting.text()).get(30, TimeUnit.SECONDS);
      }
    } catch (Exception e) {
      driver.close();
      throw new IOException("gdb did not start up: " + Failures.message(e), Failures.cause(e));
    }
    driver.useIndexCache();
    driver.loadValueCommands();
    return driver;
  }

  /**
   * Lets gdb keep and reuse its symbol indexes ({@link GdbIndexCache}): measured, one gdb of 16
   * programs to a breakpoint takes 410-420 ms of gdb's CPU with the cache, 480-500 ms without, and
   * 67 MB instead of 74 (bench/scripts/gdb_inferiors.py). A gdb that knows no index cache (before
   * 13) goes on without it.
   */
  private void useIndexCache() {
    Optional<Path> directory = GdbIndexCache.directory();
    if (directory.isEmpty()) {
      return;
    }
    try {
      for (MiCommand c : MiCommands.indexCache(directory.get().toString())) {
        send(c.text()).get(30, TimeUnit.SECONDS);
      }
    } catch (Exception e) {
      log.debug("gdb {} keeps no index cache: {}", gdb.pid(), Failures.message(e));
    }
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
    try {
      send(MiCommands.python(script).text()).get(30, TimeUnit.SECONDS);
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
    return channel.send(List.of(command));
  }

  /**
   * Sends a built MI command; one for a whole program ({@code --thread-group}) of a gdb with
   * several programs goes after a command that selects no thread ({@link #selectNothingThrough}).
   */
  public CompletableFuture<MiReply> send(MiCommand command) {
    String nothing = nothingGroup;
    if (nothing != null && command.hasOption("--thread-group")) {
      return channel.send(
          List.of(MiCommands.nothing(MiScope.group(nothing)).text(), command.text()));
    }
    return send(command.text());
  }

  /**
   * Sends {@code first} and {@code then} one right after the other, nothing of anyone else's
   * between them, and answers {@code then}'s reply (neither may be for a whole program).
   */
  CompletableFuture<MiReply> sendTogether(MiCommand first, MiCommand then) {
    return channel.send(List.of(first.text(), then.text()));
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

  /** Writes bytes to the (first) program's standard input (its terminal). */
  public void writeInput(byte[] bytes) {
    terminals.writeToFirst(bytes);
  }

  /** The program's terminal, e.g. {@code /dev/pts/7}. */
  public String inferiorTty() {
    return terminals.firstName();
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
    return programs.of(group);
  }

  /**
   * The program of thread group {@code group} has ended though gdb did not say so: its process id
   * is no longer one to kill or detach from.
   */
  void programEnded(String group) {
    programs.ended(group);
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
   * #inferiorTty}); what the program writes to it goes to {@code output} in the delivery, in order
   * with gdb's records. It closes when gdb ends.
   */
  public ProgramTerminal openTerminal(java.util.function.Consumer<byte[]> output)
      throws IOException {
    return terminals.open(output);
  }

  /**
   * From now on the program is not gdb's to end: it was running before gdb attached to it. {@link
   * #close} detaches from it (gdb removes its breakpoints and lets it go), gdb's death leaves it to
   * the kernel (which lets a tracee go when its tracer dies) and the JVM's exit detaches as close
   * does. A gdb killed with SIGKILL while its program runs with breakpoints inserted leaves the
   * program to die of the next SIGTRAP: so close kills gdb only after {@link
   * GdbProcess#EXIT_GRACE_MS}, when it has had time to detach.
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
    return gdb.exitValue();
  }

  /**
   * Ends gdb and the program: asks gdb to exit ({@code -gdb-exit}), kills it with SIGKILL if it has
   * not exited after {@link GdbProcess#EXIT_GRACE_MS}, and kills the program if it is still there.
   * A program gdb {@linkplain #leaveProgramRunning attached to} is detached ({@code
   * -target-detach}) first instead. Never SIGTERM (see {@link GdbProcess}). Completes when gdb is
   * gone; never fails.
   */
  public CompletableFuture<Void> closeAsync() {
    if (channel.beginClosing()) {
      return exited;
    }
    if (leaveProgram) {
      for (String group : programs.groups()) {
        // Fails harmlessly when there is nothing to detach from.
        send(MiCommands.detach(MiScope.group(group)));
      }
    }
    send(MiCommands.exit().text());
    gdb.killIfLingering();
    return exited;
  }

  /** Ends gdb and the program (or leaves the program), waiting about ten seconds at most. */
  @Override
  public void close() {
    try {
      closeAsync().get(GdbProcess.EXIT_GRACE_MS + 4_000, TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      gdb.kill();
      killPrograms();
    }
  }

  /** gdb's output has ended (on the channel's reader thread): gdb has, or has stopped answering. */
  private void onEnd() {
    gdb.awaitExit(5_000);
    killPrograms();
    String reason = gdb.describeEnd();
    if (!channel.isClosing()) {
      log.warn("gdb {}: {}", gdb.pid(), reason);
    }
    channel.end(
        reason,
        () -> {
          gdb.ended();
          terminals.closeAll();
          exited.complete(null);
        });
  }

  /** Kills the programs, unless gdb attached to them ({@link #leaveProgramRunning}). */
  private void killPrograms() {
    if (!leaveProgram) {
      programs.killAll();
    }
  }

  private GdbProcess.AtJvmExit atJvmExit() {
    return new GdbProcess.AtJvmExit() {
      @Override
      public boolean leavesPrograms() {
        return leaveProgram;
      }

      @Override
      public void killPrograms() {
        GdbDriver.this.killPrograms();
      }

      @Override
      public CompletableFuture<Void> closeAsync() {
        return GdbDriver.this.closeAsync();
      }
    };
  }
}
