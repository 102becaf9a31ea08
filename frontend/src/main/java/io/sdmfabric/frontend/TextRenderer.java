package io.sdmfabric.frontend;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.Protos;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.StackTree;
import io.sdmfabric.wire.proto.EventBody;
import io.sdmfabric.wire.proto.ProgramLoadedEvent;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/** Shows a session as text: every line that concerns ranks starts with them, e.g. {@code [0-7]}. */
public final class TextRenderer implements Renderer {
  private final PrintStream out;

  /** Writes to {@code out}. */
  public TextRenderer(PrintStream out) {
    this.out = out;
  }

  @Override
  public synchronized void reply(String command, String expression, RankReply reply) {
    String ranks = "[" + reply.ranks() + "] ";
    EventBody b = reply.body();
    switch (b.getKindCase()) {
      case OK, RUNNING -> {}
      case DETACHED -> out.println(ranks + "detached");
      case ERROR -> out.println(ranks + "error: " + b.getError().getMessage());
      case LOADED -> out.println(ranks + loaded(b.getLoaded()));
      case BREAKPOINT -> out.println(ranks + describe(Protos.fromProto(b.getBreakpoint())));
      case BREAKPOINTS -> breakpoints(ranks, Protos.fromProto(b.getBreakpoints()));
      case FRAME -> out.println(ranks + frame(Protos.fromProto(b.getFrame())));
      case FRAMES -> frames(ranks, Protos.fromProto(b.getFrames()));
      case DEPTH -> out.println(ranks + "depth " + b.getDepth().getDepth());
      case VALUE -> out.println(ranks + expression + " = " + b.getValue().getText());
      case TYPE -> out.println(ranks + "type = " + b.getType().getType());
      case VARIABLES -> variables(ranks, Protos.fromProto(b.getVariables()));
      case THREADS -> threads(ranks, Protos.fromProto(b.getThreads()));
      case THREAD -> out.println(ranks + "thread " + thread(Protos.fromProto(b.getThread())));
      case MEMORY ->
          out.println(ranks + expression + ": " + hex(b.getMemory().getBytes().toByteArray()));
      case SIGNALS -> signals(ranks, Protos.fromProto(b.getSignals()));
      case TEXT -> out.println(ranks + text(b.getText().getText()));
      default -> event(reply);
    }
  }

  private static String loaded(ProgramLoadedEvent loaded) {
    return "loaded "
        + loaded.getProgram()
        + (loaded.getHasDebugInfo()
            ? ""
            : " (no debugging symbols: no source lines or local variables; compile with -g)");
  }

  private void breakpoints(String ranks, List<Breakpoint> breakpoints) {
    out.println(ranks + "breakpoints:");
    for (Breakpoint bp : breakpoints) {
      out.println("  " + describe(bp) + (bp.hits() > 0 ? ", hit " + bp.hits() + " times" : ""));
    }
  }

  private void frames(String ranks, List<Frame> frames) {
    out.println(ranks);
    frames.forEach(f -> out.println("  " + frame(f)));
  }

  private void variables(String ranks, List<Value> variables) {
    out.println(ranks + (variables.isEmpty() ? "none" : ""));
    variables.forEach(v -> out.println("  " + v.name() + " = " + v.text()));
  }

  private void threads(String ranks, List<ThreadInfo> threads) {
    out.println(ranks);
    for (ThreadInfo t : threads) {
      out.println(
          "  "
              + t.id()
              + " "
              + t.targetId()
              + (t.stopped() ? " in " + t.frame().describe() : " (running)"));
    }
  }

  private static String thread(ThreadInfo t) {
    return t.id() + " " + t.targetId() + " in " + t.frame().describe();
  }

  private void signals(String ranks, List<SignalInfo> signals) {
    out.println(ranks + "Signal      Stop Print Pass Description");
    for (SignalInfo s : signals) {
      out.printf(
          Locale.ROOT,
          "  %-11s %-4s %-5s %-4s %s%n",
          s.name(),
          yes(s.stop()),
          yes(s.print()),
          yes(s.pass()),
          s.description());
    }
  }

  /** Text on the ranks' line, or indented below it when it has several lines. */
  private static String text(String text) {
    String t = text.stripTrailing();
    return t.contains("\n") ? "\n" + t.indent(2).stripTrailing() : t;
  }

  @Override
  public synchronized void event(RankReply event) {
    String ranks = "[" + event.ranks() + "] ";
    EventBody b = event.body();
    if (b.hasSuspended()) {
      var s = b.getSuspended();
      Frame f = Protos.fromProto(s.getFrame());
      String why =
          switch (Protos.fromProto(s.getReason())) {
            case BREAKPOINT_HIT -> "breakpoint " + s.getBreakpointId();
            case WATCHPOINT_TRIGGER, READ_WATCHPOINT_TRIGGER, ACCESS_WATCHPOINT_TRIGGER ->
                "watchpoint " + s.getBreakpointId();
            case SIGNAL_RECEIVED -> "signal " + s.getSignal();
            case END_STEPPING_RANGE -> "step";
            case FUNCTION_FINISHED -> "finish";
            case INTERRUPTED -> "interrupted";
            default -> Protos.fromProto(s.getReason()).name().toLowerCase(Locale.ROOT);
          };
      out.println(ranks + "stopped: " + why + " in " + f.describe());
    } else if (b.hasExit()) {
      out.println(
          ranks
              + (b.getExit().getSignal().isEmpty()
                  ? "exited with code " + b.getExit().getCode()
                  : "killed by signal " + b.getExit().getSignal()));
    } else if (b.hasOutput()) {
      String text = b.getOutput().getBytes().toString(StandardCharsets.UTF_8);
      for (String line : text.split("\n", -1)) {
        if (!line.isEmpty()) {
          out.println(ranks + line);
        }
      }
    } else if (b.hasError()) {
      out.println(ranks + "error: " + b.getError().getMessage());
    } else if (b.hasLost()) {
      out.println(ranks + "error: " + Protos.RANK_LOST);
    } else if (b.hasDebuggerEnded()) {
      out.println(ranks + "error: " + b.getDebuggerEnded().getReason());
    }
  }

  @Override
  public synchronized void stacks(StackTree tree) {
    for (StackTree.Node root : tree.roots()) {
      node(root, 0);
    }
  }

  private void node(StackTree.Node n, int depth) {
    out.println("  ".repeat(depth) + n.frame().describe() + "  [" + n.ranks() + "]");
    for (StackTree.Node child : n.children()) {
      node(child, depth + 1);
    }
  }

  @Override
  public synchronized void procs(List<ProcessTable.Row> rows) {
    out.printf(Locale.ROOT, "%-12s %-40s %s%n", "state", "location", "ranks");
    for (ProcessTable.Row r : rows) {
      out.printf(
          Locale.ROOT,
          "%-12s %-40s [%s]%n",
          r.state().name().toLowerCase(Locale.ROOT),
          r.location(),
          r.ranks());
    }
  }

  @Override
  public synchronized void error(RankSet ranks, String message) {
    out.println((ranks.isEmpty() ? "" : "[" + ranks + "] ") + "error: " + message);
  }

  @Override
  public synchronized void info(String text) {
    out.println(text);
  }

  @Override
  public void complete(String command) {
    // Text output shows replies as they come; completion needs no line of its own.
  }

  static String describe(Breakpoint b) {
    String kind = b.kind() == Breakpoint.Kind.BREAKPOINT ? "breakpoint" : "watchpoint";
    return kind
        + " "
        + b.id()
        + ": "
        + b.location()
        + (b.enabled() ? "" : " (disabled)")
        + (b.condition().isEmpty() ? "" : " if " + b.condition());
  }

  private static String frame(Frame f) {
    return "#" + f.level() + " " + f.describe();
  }

  private static String yes(boolean b) {
    return b ? "Yes" : "No";
  }

  static String hex(byte[] bytes) {
    StringBuilder b = new StringBuilder();
    for (byte x : bytes) {
      b.append(b.length() == 0 ? "" : " ").append(String.format("%02x", x & 0xff));
    }
    return b.toString();
  }
}
