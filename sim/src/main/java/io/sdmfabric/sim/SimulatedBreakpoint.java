package io.sdmfabric.sim;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Location;
import io.sdmfabric.model.WatchKind;
import java.util.List;

/**
 * A breakpoint or watchpoint as one simulated rank holds it (mutable: hits, ignore count, enabled),
 * where its location resolves in the {@link SimulatedProgram}, and how gdb's {@code info
 * breakpoints} would list it.
 */
final class SimulatedBreakpoint {
  int id;
  Breakpoint.Kind kind;

  /** The function index, -1 for a watchpoint or a library function. */
  int function;

  /** The source line the breakpoint stops at, 0 for none. */
  int line;

  /** The watched expression, or the library function's name. */
  String expression;

  boolean enabled;
  boolean temporary;
  String condition;
  int ignore;
  int hits;

  /**
   * A breakpoint made as {@code spec} asks, its location resolved (gdb's error when it does not
   * resolve); {@link RankTables#add} numbers it.
   */
  static SimulatedBreakpoint of(SimulatedProgram program, BreakpointSpec spec) {
    SimulatedBreakpoint b = new SimulatedBreakpoint();
    if (spec.location() instanceof Location.Function f) {
      b.resolveFunction(program, f.name());
    } else {
      b.resolveLine(program, (Location.Line) spec.location());
    }
    b.kind = Breakpoint.Kind.BREAKPOINT;
    b.enabled = spec.enabled();
    b.temporary = spec.temporary();
    b.condition = spec.condition();
    b.ignore = spec.ignoreCount();
    return b;
  }

  /** A watchpoint on {@code expression}, which the caller has evaluated; it never triggers. */
  static SimulatedBreakpoint watching(String expression, WatchKind kind) {
    SimulatedBreakpoint b = new SimulatedBreakpoint();
    b.kind =
        switch (kind) {
          case WRITE -> Breakpoint.Kind.WATCHPOINT;
          case READ -> Breakpoint.Kind.READ_WATCHPOINT;
          case ACCESS -> Breakpoint.Kind.ACCESS_WATCHPOINT;
        };
    b.expression = expression;
    b.function = -1;
    b.enabled = true;
    b.condition = "";
    return b;
  }

  /** Sets the location of a breakpoint on function {@code name}: its first line, as gdb's. */
  private void resolveFunction(SimulatedProgram program, String name) {
    int f = program.functionIndex(name);
    if (f >= 0) {
      function = f;
      line = program.headerLine(f) + 1;
    } else if (name.equals(SimulatedProgram.RECV_FUNCTION)) {
      function = -1;
      line = 0;
      expression = name;
    } else {
      throw new DebuggerException("Function \"" + name + "\" not defined.");
    }
  }

  /** Sets the location of a line breakpoint: a line between functions moves to the next code. */
  private void resolveLine(SimulatedProgram program, Location.Line l) {
    String file = l.file();
    if (!file.equals(SimulatedProgram.FILE) && !file.endsWith("/" + SimulatedProgram.FILE)) {
      throw new DebuggerException("No source file named " + file + ".");
    }
    int at = Math.max(l.line(), SimulatedProgram.FIRST_LINE);
    int f = (at - SimulatedProgram.FIRST_LINE) / SimulatedProgram.FUNCTION_LINES;
    int offset = (at - SimulatedProgram.FIRST_LINE) % SimulatedProgram.FUNCTION_LINES;
    if (offset > program.codeLines(f)) {
      f++;
      offset = 1;
    }
    if (f >= program.functionCount()) {
      throw new DebuggerException(
          "No line " + l.line() + " in file \"" + SimulatedProgram.FILE + "\".");
    }
    function = f;
    line = program.headerLine(f) + Math.max(offset, 1);
  }

  Breakpoint toBreakpoint(SimulatedProgram program) {
    boolean source = line > 0;
    String location =
        source
            ? program.function(function) + " at " + SimulatedProgram.FILE + ":" + line
            : expression;
    return new Breakpoint(
        id,
        kind,
        location,
        source ? SimulatedProgram.FILE : "",
        line,
        enabled,
        temporary,
        condition,
        ignore,
        hits);
  }

  /** gdb's {@code info breakpoints} of {@code breakpoints}. */
  static String table(SimulatedProgram program, List<SimulatedBreakpoint> breakpoints) {
    if (breakpoints.isEmpty()) {
      return "No breakpoints or watchpoints.\n";
    }
    StringBuilder out =
        new StringBuilder("Num     Type           Disp Enb Address            What\n");
    for (SimulatedBreakpoint b : breakpoints) {
      Breakpoint r = b.toBreakpoint(program);
      String type =
          switch (r.kind()) {
            case BREAKPOINT -> "breakpoint";
            case WATCHPOINT -> "hw watchpoint";
            case READ_WATCHPOINT -> "read watchpoint";
            case ACCESS_WATCHPOINT -> "acc watchpoint";
            case OTHER -> "other";
          };
      String address =
          b.line > 0 ? String.format("0x%016x", SimulatedProgram.TEXT_BASE + 0x10L * b.line) : "";
      String what = b.line > 0 ? "in " + r.location() : r.location();
      out.append(
          String.format(
              "%-7d %-14s %-4s %-3s %-18s %s\n",
              r.id(),
              type,
              r.temporary() ? "del" : "keep",
              r.enabled() ? "y" : "n",
              address,
              what));
      if (!r.condition().isEmpty()) {
        out.append("\tstop only if ").append(r.condition()).append('\n');
      }
      if (r.hits() > 0) {
        out.append("\tbreakpoint already hit ")
            .append(r.hits())
            .append(r.hits() == 1 ? " time\n" : " times\n");
      }
      if (r.ignoreCount() > 0) {
        out.append("\tWill ignore next ")
            .append(r.ignoreCount())
            .append(" crossings of breakpoint.\n");
      }
    }
    return out.toString();
  }
}
