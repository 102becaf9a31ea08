package io.sdmfabric.sim;

import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Frame;

/**
 * The few gdb CLI commands a simulated rank answers ({@code Debugger.cli}), in gdb's words: {@code
 * info breakpoints}, {@code backtrace} ({@code bt}, {@code where}), {@code print} ({@code p};
 * always {@code $1}), {@code whatis} and {@code help}; any other is gdb's {@code Undefined
 * command}. Stateless: it reads the rank's {@link SimulatedProcess} and changes nothing.
 */
final class SimulatedCli {
  private SimulatedCli() {}

  /** The output of {@code command} (stripped) on {@code process}; errors as gdb's. */
  static String execute(SimulatedProcess process, String command) {
    if (command.isEmpty()) {
      return "";
    }
    int space = command.indexOf(' ');
    String word = space < 0 ? command : command.substring(0, space);
    String rest = space < 0 ? "" : command.substring(space + 1).strip();
    switch (word) {
      case "info", "i" -> {
        if (rest.equals("breakpoints") || rest.equals("break") || rest.equals("b")) {
          return process.tablesToRead().table(process.program);
        }
        throw new DebuggerException(
            "Undefined info command: \"" + rest + "\".  Try \"help info\".");
      }
      case "backtrace", "bt", "where" -> {
        StringBuilder out = new StringBuilder();
        for (Frame f : process.stack()) {
          out.append('#').append(f.level()).append("  ");
          if (f.level() > 0) {
            out.append(String.format("0x%016x in ", f.address()));
          }
          out.append(f.function()).append(" ()");
          if (f.hasSource()) {
            out.append(" at ").append(f.file()).append(':').append(f.line());
          } else if (!f.library().isEmpty()) {
            out.append(" from ").append(f.library());
          }
          out.append('\n');
        }
        return out.toString();
      }
      case "print", "p" -> {
        return "$1 = " + process.expressionScope().evaluate(rest).text() + "\n";
      }
      case "whatis" -> {
        return "type = " + process.expressionScope().evaluate(rest).type() + "\n";
      }
      case "help" -> {
        return "Simulated gdb: info breakpoints, backtrace, print EXPR, whatis EXPR.\n";
      }
      default -> throw new DebuggerException("Undefined command: \"" + word + "\".  Try \"help\".");
    }
  }
}
