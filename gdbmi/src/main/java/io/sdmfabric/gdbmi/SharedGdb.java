package io.sdmfabric.gdbmi;

import io.sdmfabric.model.Failures;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One gdb that debugs several programs (gdb's inferiors), one per rank, each through a {@link
 * GdbDebugger} of its own: a rank stops, runs and steps on its own (gdb runs in non-stop mode),
 * with its own arguments, environment, working directory and terminal. One gdb for many ranks reads
 * the program's symbols and takes the shared libraries' events once, not once per rank. The gdb
 * ends when the last of its programs' debuggers is closed; if it dies, each of its ranks hears so
 * ({@link io.sdmfabric.model.DebugEvent.DebuggerEnded}).
 */
public final class SharedGdb {
  private static final long SETUP_SECONDS = 30;

  private final GdbDriver driver;
  private final InferiorRouter router;
  private final SharedBreakpoints breakpoints = new SharedBreakpoints();
  private final GdbJointRequests joint = new GdbJointRequests(this);

  /**
   * Held while a program is added, which waits for gdb's answers; never {@code this}, which the
   * callbacks of those answers may need (an attach of another program in progress, say).
   */
  private final Object adding = new Object();

  private int open; // guarded by this
  private boolean held; // guarded by this: more programs may come ({@link #hold})
  private boolean first = true; // guarded by adding

  /**
   * Whether gdb has, since its second program, an inferior that never gets one, through which the
   * commands for a whole program select no thread first ({@link GdbDriver#selectNothingThrough}).
   */
  private boolean selectsNothing; // guarded by adding

  private int stoppingAtLibraries; // guarded by this

  /**
   * Library symbols are read when a rank stops, not as libraries load ({@link #readSymbolsLazily}).
   */
  private volatile boolean lazySymbols;

  private boolean eagerSymbols; // guarded by this: a breakpoint waits for a library
  private CompletableFuture<?> turns = CompletableFuture.completedFuture(null); // guarded by this

  private SharedGdb(GdbDriver driver, InferiorRouter router) {
    this.driver = driver;
    this.router = router;
  }

  /**
   * Starts a gdb for programs to be added.
   *
   * @throws IOException when gdb cannot be started (not installed: the message says so)
   */
  public static SharedGdb start(GdbOptions options) throws IOException {
    InferiorRouter router = new InferiorRouter();
    return new SharedGdb(GdbDriver.start(options, router), router);
  }

  /** The driver underneath. */
  public GdbDriver driver() {
    return driver;
  }

  /** Requests for several of its programs at once, each distinct answer once. */
  GdbJointRequests joint() {
    return joint;
  }

  /** The breakpoints its programs set alike, each one of gdb's. */
  SharedBreakpoints breakpoints() {
    return breakpoints;
  }

  /**
   * A debugger for one more program of this gdb, on a terminal of its own.
   *
   * @throws IOException when gdb cannot take another program (it has ended, say)
   */
  public GdbDebugger add() throws IOException {
    synchronized (adding) {
      return addProgram();
    }
  }

  private GdbDebugger addProgram() throws IOException {
    String group = "i1";
    GdbDriver.ProgramTerminal terminal = null;
    InferiorEvents events;
    Inferior inferior;
    try {
      if (!first) {
        if (!selectsNothing) {
          driver.selectNothingThrough(addInferior());
          selectsNothing = true;
        }
        group = addInferior();
      }
      inferior = new Inferior(Integer.parseInt(group.substring(1)));
      events = new InferiorEvents(inferior, driver, this::lazySymbols);
      router.add(group, events);
      if (!first) {
        terminal = driver.openTerminal(events::onProgramOutput);
        driver
            .send(MiCommands.terminal(inferior.whole(), terminal.name()))
            .get(SETUP_SECONDS, TimeUnit.SECONDS);
      }
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(
          "gdb could not take another program: " + Failures.message(e), Failures.cause(e));
    }
    first = false;
    synchronized (this) {
      open++;
    }
    return new GdbDebugger(this, inferior, events, terminal);
  }

  private String addInferior() throws Exception {
    return driver
        .send(MiCommands.addInferior())
        .get(SETUP_SECONDS, TimeUnit.SECONDS)
        .results()
        .string("inferior");
  }

  /** A program's debugger is closed; the last one closes gdb. Returns whether it was the last. */
  synchronized boolean release() {
    return --open == 0 && !held;
  }

  /**
   * Keeps gdb for programs still to be added: until {@link #letGo}, the close of every program
   * added so far does not end it (a rank whose attach failed, while the next is being added).
   */
  synchronized void hold() {
    held = true;
  }

  /** No more programs will be added: gdb ends now if it has none, or with the last one. */
  synchronized void letGo() {
    held = false;
    if (open == 0) {
      driver.close();
    }
  }

  /**
   * Asks gdb to stop each program at its shared-library events, for a program being attached at its
   * exec; gdb's setting is one for all its programs, so it stays on until the last such attach is
   * done ({@link #libraryEventsDone}).
   */
  synchronized CompletableFuture<MiReply> stopAtLibraryEvents() {
    stoppingAtLibraries++;
    return driver.send(MiCommands.stopOnLibraryEvents(true));
  }

  /**
   * Stops reading the symbols of shared libraries as the programs load them; each rank's are read
   * when it stops instead ({@link #lazySymbols}). An MPI rank loads about a hundred libraries in
   * MPI_Init, and gdb reads each one's symbols for each program, one after the other: measured, 16
   * ranks to a breakpoint in one gdb 7.15 s with symbols read as they load, 3.11 s without. Not
   * once a breakpoint waits for a library ({@link #readSymbolsEagerly}).
   */
  synchronized CompletableFuture<MiReply> readSymbolsLazily() {
    if (eagerSymbols || lazySymbols) {
      return CompletableFuture.completedFuture(null);
    }
    lazySymbols = true;
    return driver.send(MiCommands.readLibrarySymbols(false));
  }

  /**
   * A breakpoint waits for a library that is not loaded yet (pending): gdb must read libraries'
   * symbols as they load, for good, to find it.
   */
  synchronized CompletableFuture<MiReply> readSymbolsEagerly() {
    eagerSymbols = true;
    if (!lazySymbols) {
      return CompletableFuture.completedFuture(null);
    }
    lazySymbols = false;
    return driver.send(MiCommands.readLibrarySymbols(true));
  }

  /** Whether library symbols are read when a rank stops ({@link #readSymbolsLazily}). */
  boolean lazySymbols() {
    return lazySymbols;
  }

  /** An attach that {@link #stopAtLibraryEvents} is done. */
  synchronized CompletableFuture<MiReply> libraryEventsDone() {
    if (--stoppingAtLibraries > 0) {
      return CompletableFuture.completedFuture(null);
    }
    return driver.send(MiCommands.stopOnLibraryEvents(false));
  }

  /**
   * Runs {@code steps} after the steps given before have ended, for commands whose answers depend
   * on gdb's state between them ({@code catch exec}, then its number in {@code $bpnum}).
   */
  synchronized <T> CompletableFuture<T> inTurn(
      java.util.function.Supplier<CompletableFuture<T>> steps) {
    CompletableFuture<T> mine = turns.handle((r, e) -> null).thenCompose(v -> steps.get());
    turns = mine;
    return mine;
  }
}
