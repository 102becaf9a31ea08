package io.sdmfabric.gdbmi;

import io.sdmfabric.model.Failures;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Hands out debuggers, each for one program, at most {@code perGdb} programs to a gdb: a new gdb is
 * started when the others are full. The cap bounds what one gdb's death costs: exactly its ranks
 * lose their debugger. A cap of 1 is one gdb per rank. A gdb that is not full outlives the close of
 * its programs until the pool is closed (more may come); {@link #close} says no more will.
 * Thread-safe: gdbs start outside the pool's lock, and a caller who knows that more programs are
 * coming says so ({@link #expect}), so that the gdbs they need start side by side and take them
 * side by side, rather than one gdb after another.
 */
public final class GdbPool implements AutoCloseable {
  private final GdbOptions options;
  private final int perGdb;
  private final List<SharedGdb> started = new ArrayList<>(); // guarded by this
  private final List<Filling> filling =
      new ArrayList<>(); // guarded by this: not full, oldest first
  private int expected; // guarded by this: programs announced and not handed out yet
  private boolean closed; // guarded by this

  /**
   * One gdb of the pool while it takes programs: started or starting, with the programs handed out
   * on it. The pool lets it go once it is full, or the pool closed, and no program is still being
   * added to it.
   */
  private final class Filling {
    private final CompletableFuture<SharedGdb> gdb = new CompletableFuture<>();
    private int handedOut; // guarded by GdbPool.this
    private int adding; // guarded by GdbPool.this
    private boolean letGo; // guarded by GdbPool.this

    void start() {
      try {
        SharedGdb g = SharedGdb.start(options);
        g.hold();
        synchronized (GdbPool.this) {
          started.add(g);
        }
        gdb.complete(g);
      } catch (IOException | RuntimeException e) {
        synchronized (GdbPool.this) {
          filling.remove(this); // the next program tries another gdb
        }
        gdb.completeExceptionally(e);
      }
    }

    GdbDebugger add() throws IOException {
      try {
        return gdb.get().add();
      } catch (ExecutionException e) {
        Throwable cause = Failures.cause(e);
        throw cause instanceof IOException io ? io : new IOException(Failures.message(e), cause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while gdb started", e);
      }
    }

    /** Called under the pool's lock once nothing more can be added. */
    void letGoWhenIdle() {
      if (!letGo && adding == 0 && (closed || handedOut == perGdb)) {
        letGo = true;
        gdb.thenAccept(SharedGdb::letGo);
      }
    }
  }

  /** A pool starting gdbs with {@code options}, {@code perGdb} programs each. */
  public GdbPool(GdbOptions options, int perGdb) {
    if (perGdb < 1) {
      throw new IllegalArgumentException("a gdb debugs at least one program: " + perGdb);
    }
    this.options = options;
    this.perGdb = perGdb;
  }

  /** How many programs one gdb debugs at most. */
  public int perGdb() {
    return perGdb;
  }

  /**
   * Says that {@code programs} more programs are coming (ranks stopped for their gdb already): the
   * gdbs they need beyond those taking programs now start at once, each on a thread of its own.
   */
  public synchronized void expect(int programs) {
    if (closed) {
      return;
    }
    expected += programs;
    int free = 0;
    for (Filling f : filling) {
      free += perGdb - f.handedOut;
    }
    for (; free < expected; free += perGdb) {
      Thread starter = new Thread(open()::start, "gdb-start");
      starter.setDaemon(true);
      starter.start();
    }
  }

  /**
   * A debugger for one more program: on the gdb taking programs that has the fewest being added
   * right now, or on a new one.
   *
   * @throws IOException when gdb cannot be started or cannot take another program
   */
  public GdbDebugger next() throws IOException {
    Filling f;
    boolean startHere = false;
    synchronized (this) {
      if (closed) {
        throw new IOException("no more programs: the gdb pool is closed");
      }
      f = filling.stream().min(Comparator.comparingInt(x -> x.adding)).orElse(null);
      if (f == null) {
        f = open();
        startHere = true;
      }
      f.handedOut++;
      f.adding++;
      if (f.handedOut == perGdb) {
        filling.remove(f);
      }
      expected = Math.max(0, expected - 1);
    }
    if (startHere) {
      f.start();
    }
    try {
      return f.add();
    } finally {
      synchronized (this) {
        f.adding--;
        f.letGoWhenIdle();
      }
    }
  }

  /** A new gdb taking programs, not started yet. */
  private Filling open() {
    Filling f = new Filling();
    filling.add(f);
    return f;
  }

  /**
   * Debuggers for {@code programs} programs known together (the processes of an attach), on a gdb
   * of their own started now, outside the pool's lock: the gdbs of several such shares start and
   * attach side by side, where {@link #next} fills one gdb after the other. The gdb ends with the
   * last of them.
   *
   * @throws IOException when gdb cannot be started or cannot take the programs, or the pool is
   *     closed
   */
  public List<GdbDebugger> gdbFor(int programs) throws IOException {
    if (programs < 1 || programs > perGdb) {
      throw new IllegalArgumentException(
          "a gdb of this pool debugs 1 to " + perGdb + " programs: " + programs);
    }
    synchronized (this) {
      if (closed) {
        throw new IOException("no more programs: the gdb pool is closed");
      }
    }
    SharedGdb gdb = SharedGdb.start(options);
    synchronized (this) {
      started.add(gdb);
    }
    List<GdbDebugger> debuggers = new ArrayList<>(programs);
    try {
      for (int i = 0; i < programs; i++) {
        debuggers.add(gdb.add());
      }
    } catch (IOException e) {
      debuggers.forEach(GdbDebugger::close);
      gdb.driver().close();
      throw e;
    }
    return debuggers;
  }

  /** No more programs: a gdb left without any ends now, the others with their last program. */
  @Override
  public synchronized void close() {
    closed = true;
    filling.forEach(Filling::letGoWhenIdle);
    filling.clear();
  }

  /** How many gdbs the pool has started. */
  public synchronized int gdbs() {
    return started.size();
  }
}
