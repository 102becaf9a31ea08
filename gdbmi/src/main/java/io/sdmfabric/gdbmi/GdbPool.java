package io.sdmfabric.gdbmi;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Hands out debuggers, each for one program, at most {@code perGdb} programs to a gdb: a new gdb is
 * started when the last one is full. The cap bounds what one gdb's death costs: exactly its ranks
 * lose their debugger. A cap of 1 is one gdb per rank. A gdb that is not full outlives the close of
 * its programs until the pool is closed (more may come); {@link #close} says no more will.
 * Thread-safe.
 */
public final class GdbPool implements AutoCloseable {
  private final GdbOptions options;
  private final int perGdb;
  private final List<SharedGdb> started = new ArrayList<>(); // guarded by this
  private SharedGdb current; // guarded by this
  private int inCurrent; // guarded by this
  private boolean closed; // guarded by this

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
   * A debugger for one more program.
   *
   * @throws IOException when gdb cannot be started or cannot take another program
   */
  public synchronized GdbDebugger next() throws IOException {
    if (closed) {
      throw new IOException("no more programs: the gdb pool is closed");
    }
    if (current == null || inCurrent == perGdb) {
      if (current != null) {
        current.letGo();
      }
      current = SharedGdb.start(options);
      current.hold();
      started.add(current);
      inCurrent = 0;
    }
    GdbDebugger debugger = current.add();
    inCurrent++;
    return debugger;
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
    if (current != null) {
      current.letGo();
      current = null;
    }
  }

  /** How many gdbs the pool has started. */
  public synchronized int gdbs() {
    return started.size();
  }
}
