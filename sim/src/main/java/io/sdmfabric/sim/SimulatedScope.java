package io.sdmfabric.sim;

import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * What a simulated rank's expressions see at one moment: the program's globals, the selected
 * frame's variables, and the rank's memory. Made for one request by {@link SimulatedProcess} (which
 * checks first that the request may run in the rank's state) and dropped after it, so that a rank
 * holds nothing of it between requests. Errors carry gdb's message text.
 */
final class SimulatedScope {

  /** Where the simulated stack's variables are said to live. */
  private static final long STACK_BASE = 0x7fffffffe400L;

  private final SimulatedProgram program;
  private final int rank;
  private final int size;
  private final int iteration; // the loop iteration of the process; 0 without one
  private final Frame frame; // the selected frame of a stopped process; null otherwise
  private final int level; // the selected frame's level in the call path (0 = main)

  SimulatedScope(
      SimulatedProgram program, int rank, int size, int iteration, Frame frame, int level) {
    this.program = program;
    this.rank = rank;
    this.size = size;
    this.iteration = iteration;
    this.frame = frame;
    this.level = level;
  }

  /**
   * The locals ({@code arguments} false) or the arguments of the selected frame; the caller has
   * checked there is one.
   */
  List<Value> frameVariables(boolean arguments) {
    if (frame.function().equals(SimulatedProgram.RECV_FUNCTION)) {
      throw new DebuggerException("No symbol table info available.");
    }
    List<Value> out = new ArrayList<>(2);
    switch (frame.function()) {
      case "main" -> {
        if (arguments) {
          out.add(Value.scalar("argc", "int", Value.Kind.INTEGER, 4, "1"));
          out.add(Value.scalar("argv", "char **", Value.Kind.POINTER, 8, "0x7fffffffe5d8"));
        } else {
          out.add(Value.scalar("rc", "int", Value.Kind.INTEGER, 4, "0"));
        }
      }
      case "solver_loop" ->
          out.add(arguments ? intValue("n", program.iterations()) : intValue("i", iteration));
      default -> out.add(arguments ? intValue("level", level) : intValue("tmp", rank + level));
    }
    return List.copyOf(out);
  }

  /** The frame variable of the selected frame with this name, or null. */
  private Value frameVariable(String name) {
    if (frame == null || frame.function().equals(SimulatedProgram.RECV_FUNCTION)) {
      return null;
    }
    for (Value v : frameVariables(false)) {
      if (v.name().equals(name)) {
        return v;
      }
    }
    for (Value v : frameVariables(true)) {
      if (v.name().equals(name)) {
        return v;
      }
    }
    return null;
  }

  /**
   * Evaluates {@code NAME}, {@code NAME.FIELD}, {@code NAME[INDEX]}, {@code &NAME} or an integer
   * literal.
   */
  Value evaluate(String expression) {
    String e = expression.strip();
    if (e.isEmpty()) {
      throw new DebuggerException("Argument required (expression to compute).");
    }
    if (e.charAt(0) == '&') {
      String name = e.substring(1).strip();
      Value v = lookup(name);
      long address = addressOf(name);
      String type =
          v.type().endsWith("]") ? v.type().replaceFirst(" \\[", " (*)[") : v.type() + " *";
      String text = "(" + type + ") 0x" + Long.toHexString(address) + " <" + name + ">";
      return new Value(e, type, Value.Kind.POINTER, 8, text, 1, List.of());
    }
    if (Character.isDigit(e.charAt(0))) {
      if (!e.chars().allMatch(Character::isDigit)) {
        throw new DebuggerException("Invalid number \"" + e + "\".");
      }
      if (e.length() > 18) {
        throw new DebuggerException("Numeric constant too large.");
      }
      return Value.scalar(e, "int", Value.Kind.INTEGER, 4, Long.toString(Long.parseLong(e)));
    }
    int end = 0;
    while (end < e.length() && (Character.isLetterOrDigit(e.charAt(end)) || e.charAt(end) == '_')) {
      end++;
    }
    if (end == 0) {
      throw syntaxError(e);
    }
    Value base = lookup(e.substring(0, end));
    String rest = e.substring(end).strip();
    Value result;
    if (rest.isEmpty()) {
      result = base;
    } else if (rest.startsWith(".") && isIdentifier(rest.substring(1).strip())) {
      String field = rest.substring(1).strip();
      if (base.kind() != Value.Kind.STRUCT) {
        throw new DebuggerException(
            "Attempt to extract a component of a value that is not a structure.");
      }
      result =
          base.child(field)
              .orElseThrow(() -> new DebuggerException("There is no member named " + field + "."));
    } else if (rest.startsWith("[") && rest.endsWith("]")) {
      String index = rest.substring(1, rest.length() - 1).strip();
      if (index.isEmpty() || !index.chars().allMatch(Character::isDigit) || index.length() > 9) {
        throw syntaxError(rest);
      }
      if (base.kind() != Value.Kind.ARRAY) {
        throw new DebuggerException("cannot subscript something of type `" + base.type() + "'");
      }
      result =
          base.child(Integer.toString(Integer.parseInt(index)))
              .orElseThrow(() -> new DebuggerException("no such vector element"));
    } else {
      throw syntaxError(rest);
    }
    return new Value(
        e,
        result.type(),
        result.kind(),
        result.size(),
        result.text(),
        result.childCount(),
        result.children());
  }

  /**
   * The address an expression of {@code readMemory} or {@code writeMemory} names: {@code &NAME}, a
   * hexadecimal ({@code 0x}) or decimal number. The caller checks that it can be accessed.
   */
  long address(String expression) {
    String e = expression.strip();
    if (e.startsWith("&") && isIdentifier(e.substring(1).strip())) {
      String name = e.substring(1).strip();
      lookup(name);
      return addressOf(name);
    }
    try {
      return e.startsWith("0x") || e.startsWith("0X")
          ? Long.parseUnsignedLong(e.substring(2), 16)
          : Long.parseLong(e);
    } catch (NumberFormatException ex) {
      if (isIdentifier(e)) {
        lookup(e);
      }
      throw syntaxError(e);
    }
  }

  /**
   * The byte at address {@code a}: an {@code int} global's value at its address, little endian, and
   * a deterministic byte of the address and the rank elsewhere.
   */
  byte memoryByte(long a) {
    for (String name : SimulatedProgram.INT_GLOBALS) {
      long start = program.globalAddress(name);
      if (a >= start && a < start + 4) {
        long value;
        try {
          value = Long.parseLong(lookup(name).text());
        } catch (NumberFormatException e) {
          value = 0;
        }
        return (byte) (value >> (8 * (a - start)));
      }
    }
    return (byte) (a ^ (a >> 8) ^ rank);
  }

  /** The {@code count} bytes at address {@code a}, as {@link #memoryByte} gives them. */
  byte[] memory(long a, int count) {
    byte[] out = new byte[count];
    for (int i = 0; i < count; i++) {
      out[i] = memoryByte(a + i);
    }
    return out;
  }

  /** The program's globals as {@code globals()} lists them: their values, without children. */
  List<Value> globals() {
    List<Value> out = new ArrayList<>(program.globals().size());
    for (String name : program.globals()) {
      Value v = global(name);
      out.add(Value.scalar(v.name(), v.type(), v.kind(), v.size(), v.text()));
    }
    return out;
  }

  private long addressOf(String name) {
    long address = program.globalAddress(name);
    return address < 0 ? STACK_BASE + 0x10L * (name.hashCode() & 0xf) : address;
  }

  private static boolean isIdentifier(String s) {
    if (s.isEmpty() || !(Character.isLetter(s.charAt(0)) || s.charAt(0) == '_')) {
      return false;
    }
    return s.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_');
  }

  private static DebuggerException syntaxError(String near) {
    return new DebuggerException("A syntax error in expression, near `" + near + "'.");
  }

  /** A variable by name: the selected frame's first, then the globals. */
  private Value lookup(String name) {
    Value v = frameVariable(name);
    return v != null ? v : global(name);
  }

  /** A global by name, with its children. */
  Value global(String name) {
    switch (name) {
      case "rank":
        return intValue(name, rank);
      case "size":
        return intValue(name, size);
      case "iteration":
        return intValue(name, iteration);
      case "x":
        return intValue(name, 42);
      case "distinct":
        return intValue(name, rank * 7L + 1);
      case "residual":
        return residual(name, iteration);
      case "state":
        {
          Value r = intValue("rank", rank);
          Value i = intValue("iteration", iteration);
          Value d = residual("residual", iteration);
          String text =
              "{rank = "
                  + r.text()
                  + ", iteration = "
                  + i.text()
                  + ", residual = "
                  + d.text()
                  + "}";
          return new Value(
              name, "struct sim_state", Value.Kind.STRUCT, 16, text, 3, List.of(r, i, d));
        }
      case "arr":
        {
          List<Value> elements = new ArrayList<>(4);
          for (int k = 0; k < 4; k++) {
            elements.add(
                Value.scalar(Integer.toString(k), "int", Value.Kind.INTEGER, 4, "" + (k + 1)));
          }
          return new Value(name, "int [4]", Value.Kind.ARRAY, 16, "{1, 2, 3, 4}", 4, elements);
        }
      default:
        Long custom = program.variable(name);
        if (custom != null) {
          return intValue(name, custom);
        }
        throw new DebuggerException("No symbol \"" + name + "\" in current context.");
    }
  }

  private Value intValue(String name, long value) {
    String different = program.differentValue(name, rank);
    String text = different != null ? different : Long.toString(value);
    return Value.scalar(name, "int", Value.Kind.INTEGER, 4, text);
  }

  private static Value residual(String name, int iteration) {
    double d = 1.0 / (iteration + 1);
    String text = d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    return Value.scalar(name, "double", Value.Kind.FLOAT, 8, text);
  }
}
