package io.sdmfabric.sim;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.SignalAction;
import io.sdmfabric.model.SignalInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What a simulated rank allocates only when it uses it: its breakpoints and watchpoints (numbered
 * from 1, in the order they were made), its own signal handling once changed, and the memory
 * written to it. A rank that uses none of them holds none of this: the bench runs 2^20 ranks.
 * Errors carry gdb's message text.
 */
final class RankTables {

  /** The tables of a rank that has none: only ever read, never changed. */
  static final RankTables NONE = new RankTables();

  private final List<SimulatedBreakpoint> breakpoints = new ArrayList<>(2);
  private int nextId = 1;
  private SignalInfo[] signals; // null until a signal's handling changes
  private List<MemoryWrite> writes; // null until memory is written

  // ---- breakpoints ----

  /** Numbers {@code b} and adds it to the table; returns it as the fabric sees it. */
  Breakpoint add(SimulatedProgram program, SimulatedBreakpoint b) {
    b.id = nextId++;
    breakpoints.add(b);
    return b.toBreakpoint(program);
  }

  /** Deletes breakpoint {@code id}; {@code No breakpoint number N.} when there is none. */
  void delete(int id) {
    breakpoints.remove(breakpoint(id));
  }

  /** Enables or disables breakpoint {@code id}. */
  void enable(int id, boolean enabled) {
    breakpoint(id).enabled = enabled;
  }

  /** The breakpoints and watchpoints, in the order they were made. */
  List<Breakpoint> list(SimulatedProgram program) {
    List<Breakpoint> out = new ArrayList<>(breakpoints.size());
    for (SimulatedBreakpoint b : breakpoints) {
      out.add(b.toBreakpoint(program));
    }
    return List.copyOf(out);
  }

  /** gdb's {@code info breakpoints}. */
  String table(SimulatedProgram program) {
    return SimulatedBreakpoint.table(program, breakpoints);
  }

  private SimulatedBreakpoint breakpoint(int id) {
    for (SimulatedBreakpoint b : breakpoints) {
      if (b.id == id) {
        return b;
      }
    }
    throw new DebuggerException("No breakpoint number " + id + ".");
  }

  // ---- breakpoints in a run ----

  /** Whether there is a breakpoint or watchpoint. */
  boolean hasBreakpoints() {
    return !breakpoints.isEmpty();
  }

  /**
   * The first position at or after {@code first} where an enabled breakpoint stops the process, its
   * ignore count spent; {@code Integer.MAX_VALUE} when none does.
   */
  int firstStop(LineCrossings crossings, int first) {
    int hit = Integer.MAX_VALUE;
    for (SimulatedBreakpoint b : breakpoints) {
      if (b.enabled && b.kind == Breakpoint.Kind.BREAKPOINT) {
        hit = Math.min(hit, crossings.stoppingOccurrence(b.line, b.ignore, first));
      }
    }
    return hit;
  }

  /**
   * Counts the crossings of positions {@code first..last} on the enabled breakpoints (their hits,
   * their ignore counts spent) and, when the process stops at a breakpoint at {@code last}, deletes
   * the temporary ones that stop it. Returns the number of the first that stops it, 0 for none.
   */
  int pass(LineCrossings crossings, int first, int last, boolean stopsAtBreakpoint) {
    int breakpointId = 0;
    for (int i = 0; i < breakpoints.size(); i++) {
      SimulatedBreakpoint b = breakpoints.get(i);
      if (!b.enabled || b.kind != Breakpoint.Kind.BREAKPOINT) {
        continue;
      }
      int count = crossings.occurrences(b.line, first, last);
      b.hits += count;
      boolean stopsHere = stopsAtBreakpoint && count > b.ignore;
      b.ignore = Math.max(0, b.ignore - count);
      if (stopsHere) {
        if (breakpointId == 0) {
          breakpointId = b.id;
        }
        if (b.temporary) {
          breakpoints.remove(i--);
        }
      }
    }
    return breakpointId;
  }

  // ---- signals ----

  /** How the rank handles signals: the program's table until it changes one. */
  List<SignalInfo> signals(SimulatedProgram program) {
    return signals == null ? program.signals() : List.of(signals);
  }

  /** Fails with gdb's message unless {@code signal} is one of the program's. */
  static void requireKnown(String signal) {
    if (!SimulatedProgram.knownSignal(signal)) {
      throw new DebuggerException("Unrecognized or ambiguous flag word: \"" + signal + "\".");
    }
  }

  /**
   * Changes the handling of a known signal, with gdb's implications ({@code stop} implies {@code
   * print}, {@code noprint} implies {@code nostop}); returns the changed entry.
   */
  List<SignalInfo> handle(SimulatedProgram program, String signal, Set<SignalAction> actions) {
    if (signals == null) {
      signals = program.signals().toArray(SignalInfo[]::new);
    }
    for (int i = 0; i < signals.length; i++) {
      SignalInfo s = signals[i];
      if (s.name().equals(signal)) {
        boolean stop = s.stop();
        boolean print = s.print();
        boolean pass = s.pass();
        for (SignalAction a : actions) {
          switch (a) {
            case STOP -> {
              stop = true;
              print = true;
            }
            case NOSTOP -> stop = false;
            case PRINT -> print = true;
            case NOPRINT -> {
              print = false;
              stop = false;
            }
            case PASS -> pass = true;
            case NOPASS -> pass = false;
          }
        }
        signals[i] = new SignalInfo(s.name(), stop, print, pass, s.description());
        return List.of(signals[i]);
      }
    }
    throw new IllegalStateException("signal table without " + signal);
  }

  // ---- memory ----

  /** Remembers {@code bytes} written at {@code address}. */
  void write(long address, byte[] bytes) {
    if (writes == null) {
      writes = new ArrayList<>(1);
    }
    writes.add(new MemoryWrite(address, bytes.clone()));
  }

  /** Puts what was written over {@code out}, the bytes read at {@code address}. */
  void overlayWrites(long address, byte[] out) {
    if (writes == null) {
      return;
    }
    for (MemoryWrite w : writes) {
      for (int i = 0; i < w.bytes.length; i++) {
        long at = w.address + i;
        if (at >= address && at < address + out.length) {
          out[(int) (at - address)] = w.bytes[i];
        }
      }
    }
  }

  private record MemoryWrite(long address, byte[] bytes) {}
}
