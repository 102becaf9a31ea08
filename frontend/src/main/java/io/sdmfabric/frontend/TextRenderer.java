package io.sdmfabric.frontend;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.ProgramInfo;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.StackTree;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Shows a session as text: every line that concerns ranks starts with them, e.g. {@code [0-7]}.
 *
 * <p>What it shows comes from others: gdb's messages and answers, the names of functions, files and
 * threads in the program's debugging information, the reasons of a master across the network. All
 * of it is made harmless with {@link TerminalText} before it reaches the terminal: a line of sdm's
 * stays one line, and gdb's answers that have lines of their own keep them, with every other
 * control character written visibly. The one exception is the program's output ({@code [0] hello}):
 * the user's program writing to the user's terminal, shown as it wrote it.
 */
public final class TextRenderer implements Renderer {
  private final PrintStream out;

  /** Writes to {@code out}. */
  public TextRenderer(PrintStream out) {
    this.out = out;
  }

  @Override
  public synchronized void reply(String command, String expression, RankReply reply) {
    String ranks = "[" + reply.ranks() + "] ";
    Reply r = reply.reply();
    if (r instanceof Reply.Ok || r instanceof Reply.Running) {
      // Nothing to show: what follows (a stop, an exit) is shown as it comes.
    } else if (r instanceof Reply.Detached) {
      line(ranks + "detached");
    } else if (r instanceof Reply.Error e) {
      lines(ranks + "error: ", e.message());
    } else if (r instanceof Reply.Loaded l) {
      line(ranks + loaded(l.program()));
    } else if (r instanceof Reply.NewBreakpoint b) {
      line(ranks + describe(b.breakpoint()));
    } else if (r instanceof Reply.Breakpoints b) {
      breakpoints(ranks, b.breakpoints());
    } else if (r instanceof Reply.SelectedFrame f) {
      line(ranks + frame(f.frame()));
    } else if (r instanceof Reply.Frames f) {
      frames(ranks, f.frames());
    } else if (r instanceof Reply.Depth d) {
      line(ranks + "depth " + d.depth());
    } else if (r instanceof Reply.Evaluated v) {
      lines(ranks + expression + " = ", v.value().text());
    } else if (r instanceof Reply.ValuesSummarized s) {
      line(
          ranks + expression + " = ... " + summary(s, reply.ranks()) + " (print --all shows them)");
    } else if (r instanceof Reply.TypeOf t) {
      lines(ranks + "type = ", t.type());
    } else if (r instanceof Reply.Variables v) {
      variables(ranks, v.variables());
    } else if (r instanceof Reply.Threads t) {
      threads(ranks, t.threads());
    } else if (r instanceof Reply.SelectedThread t) {
      line(ranks + "thread " + thread(t.thread()));
    } else if (r instanceof Reply.Memory m) {
      line(ranks + expression + ": " + hex(m.bytes().toByteArray()));
    } else if (r instanceof Reply.Signals g) {
      signals(ranks, g.signals());
    } else if (r instanceof Reply.Text t) {
      out.println(ranks + text(TerminalText.escapeLines(t.text())));
    } else {
      event(reply);
    }
  }

  /**
   * What a summary of values says, on one line: {@code and 1,048,512 more values on 1,048,512
   * ranks, min 449 [64], max 7340026 [1048575]}, without the range when none of them is a number.
   * The debug adapter shows the same words.
   */
  public static String summary(Reply.ValuesSummarized s, RankSet ranks) {
    StringBuilder b =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "and %,d more value%s on %,d rank%s",
                s.classes(),
                s.classes() == 1 ? "" : "s",
                ranks.size(),
                ranks.size() == 1 ? "" : "s"));
    s.least()
        .ifPresent(
            e ->
                b.append(", min ")
                    .append(e.value().text())
                    .append(" [")
                    .append(e.ranks())
                    .append(']'));
    s.greatest()
        .ifPresent(
            e ->
                b.append(", max ")
                    .append(e.value().text())
                    .append(" [")
                    .append(e.ranks())
                    .append(']'));
    return b.toString();
  }

  /** One line of sdm's, escaped whole: nothing in it can end it or act on the terminal. */
  private void line(String text) {
    out.println(TerminalText.escape(text));
  }

  /**
   * {@code head} (one line of sdm's) followed by {@code text}, which may have lines of its own (a
   * value printed with {@code set print pretty on}, a {@code ptype}, a reason that quotes a
   * launcher's or gdb's standard error): they stay lines, indented below the head so that none can
   * pass for a line of sdm's, with every other control character escaped.
   */
  private void lines(String head, String text) {
    out.println(TerminalText.escape(head) + TerminalText.escapeLines(text).replace("\n", "\n  "));
  }

  private static String loaded(ProgramInfo loaded) {
    return "loaded "
        + loaded.program()
        + (loaded.hasDebugInfo()
            ? ""
            : " (no debugging symbols: no source lines or local variables; compile with -g)");
  }

  private void breakpoints(String ranks, List<Breakpoint> breakpoints) {
    line(ranks + "breakpoints:");
    for (Breakpoint bp : breakpoints) {
      line("  " + describe(bp) + (bp.hits() > 0 ? ", hit " + bp.hits() + " times" : ""));
    }
  }

  private void frames(String ranks, List<Frame> frames) {
    line(ranks);
    frames.forEach(f -> line("  " + frame(f)));
  }

  private void variables(String ranks, List<Value> variables) {
    line(ranks + (variables.isEmpty() ? "none" : ""));
    variables.forEach(v -> lines("  " + v.name() + " = ", v.text()));
  }

  private void threads(String ranks, List<ThreadInfo> threads) {
    line(ranks);
    for (ThreadInfo t : threads) {
      line(
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
    line(ranks + "Signal      Stop Print Pass Description");
    for (SignalInfo s : signals) {
      line(
          String.format(
              Locale.ROOT,
              "  %-11s %-4s %-5s %-4s %s",
              s.name(),
              yes(s.stop()),
              yes(s.print()),
              yes(s.pass()),
              s.description()));
    }
  }

  /**
   * Text on the ranks' line, or indented below it when it has several lines; escaped already, as
   * {@link String#indent} takes a carriage return for the end of a line.
   */
  private static String text(String text) {
    String t = text.stripTrailing();
    return t.contains("\n") ? "\n" + t.indent(2).stripTrailing() : t;
  }

  @Override
  public synchronized void event(RankReply event) {
    String ranks = "[" + event.ranks() + "] ";
    Reply r = event.reply();
    if (r instanceof Reply.Stopped s) {
      String why =
          switch (s.reason()) {
            case BREAKPOINT_HIT -> "breakpoint " + s.breakpointId();
            case WATCHPOINT_TRIGGER, READ_WATCHPOINT_TRIGGER, ACCESS_WATCHPOINT_TRIGGER ->
                "watchpoint " + s.breakpointId();
            case SIGNAL_RECEIVED -> "signal " + s.signal();
            case END_STEPPING_RANGE -> "step";
            case FUNCTION_FINISHED -> "finish";
            case INTERRUPTED -> "interrupted";
            default -> s.reason().name().toLowerCase(Locale.ROOT);
          };
      line(ranks + "stopped: " + why + " in " + s.frame().describe());
    } else if (r instanceof Reply.Exited x) {
      line(
          ranks
              + (x.statusLost()
                  ? "exited; gdb did not say how"
                  : x.signal().isEmpty()
                      ? "exited with code " + x.code()
                      : "killed by signal " + x.signal()));
    } else if (r instanceof Reply.Output o) {
      // The program's own output: its bytes as it wrote them (see the class comment).
      for (String line : o.text().split("\n", -1)) {
        if (!line.isEmpty()) {
          out.println(ranks + line);
        }
      }
    } else if (r instanceof Reply.Error e) {
      lines(ranks + "error: ", e.message());
    } else if (r instanceof Reply.Failure f) {
      // Lost ranks, or a body a peer sent malformed: one line of sdm's, which may quote others'.
      line(ranks + "error: " + f.message());
    } else if (r instanceof Reply.DebuggerEnded d) {
      lines(ranks + "error: ", d.reason());
    }
  }

  @Override
  public synchronized void stacks(StackTree tree) {
    stacks(tree, path -> "");
  }

  /**
   * The merged stacks, each leaf followed by {@code leafNote} of its path (outermost frame first),
   * e.g. how its ranks moved between samples.
   */
  public synchronized void stacks(StackTree tree, Function<List<Frame>, String> leafNote) {
    for (StackTree.Node root : tree.roots()) {
      node(root, new ArrayList<>(), tree.everyThread(), leafNote);
    }
  }

  private void node(
      StackTree.Node n, List<Frame> path, boolean threads, Function<List<Frame>, String> leafNote) {
    path.add(n.frame());
    String note = n.isLeaf() ? leafNote.apply(List.copyOf(path)) : "";
    line(
        "  ".repeat(path.size() - 1)
            + n.frame().describe()
            + "  ["
            + n.ranks()
            + "]"
            + (threads ? " " + StackTree.threadsText(n.threads()) : "")
            + (note.isEmpty() ? "" : "  " + note));
    for (StackTree.Node child : n.children()) {
      node(child, path, threads, leafNote);
    }
    path.remove(path.size() - 1);
  }

  @Override
  public synchronized void session(RankSet ranks, SessionClient.Started start) {
    line("[" + ranks + "] " + start.description());
  }

  @Override
  public synchronized void procs(ProcessTable.Listing listing, SessionClient.Started start) {
    List<ProcessTable.Row> rows = listing.rows();
    // The threads' column only when some row counted them.
    boolean threads = rows.stream().anyMatch(r -> r.threads() > 0);
    line(
        threads
            ? String.format(
                Locale.ROOT, "%-12s %-40s %-8s %s", "state", "location", "threads", "ranks")
            : String.format(Locale.ROOT, "%-12s %-40s %s", "state", "location", "ranks"));
    for (ProcessTable.Row r : rows) {
      String state = word(r.state());
      line(
          threads
              ? String.format(
                  Locale.ROOT,
                  "%-12s %-40s %-8s [%s]",
                  state,
                  r.location(),
                  r.threads() > 0 ? r.threads() : "",
                  r.ranks())
              : String.format(Locale.ROOT, "%-12s %-40s [%s]", state, r.location(), r.ranks()));
    }
    if (!listing.nodes().isEmpty()) {
      line(String.format(Locale.ROOT, "%-20s %-6s %-10s %s", "host", "state", "server", "ranks"));
      for (ProcessTable.Node n : listing.nodes()) {
        line(
            String.format(
                Locale.ROOT,
                "%-20s %-6s %-10s [%s]",
                n.host(),
                n.state().name().toLowerCase(Locale.ROOT),
                n.serverPid() > 0 ? "pid " + n.serverPid() : "",
                n.ranks()));
      }
    }
    if (!listing.processes().isEmpty()) {
      line(
          String.format(
              Locale.ROOT,
              "%-6s %-12s %-20s %-8s %-8s %s",
              "rank",
              "state",
              "host",
              "pid",
              "threads",
              "location"));
      for (ProcessTable.Process p : listing.processes()) {
        line(
            String.format(
                    Locale.ROOT,
                    "%-6d %-12s %-20s %-8s %-8s %s",
                    p.rank(),
                    word(p.state()),
                    p.host(),
                    p.pid() > 0 ? p.pid() : "",
                    p.threads() > 0 ? p.threads() : "",
                    p.place())
                .stripTrailing());
      }
    }
    line("(" + start.description() + ")");
  }

  private static String word(ProcessState state) {
    return state.name().toLowerCase(Locale.ROOT);
  }

  @Override
  public synchronized void error(RankSet ranks, String message) {
    lines((ranks.isEmpty() ? "" : "[" + ranks + "] ") + "error: ", message);
  }

  /**
   * Who waits for whom in MPI: each group of ranks with its wait and the ranks it waits for, then
   * the deadlocks named and the ranks waited for outside MPI, with where they are.
   */
  @Override
  public synchronized void mpiWaits(MpiWaitGraph graph) {
    if (graph.isEmpty()) {
      line(
          "MPI waits: none"
              + (graph.unknown().isEmpty()
                  ? ""
                  : "; no records on [" + graph.unknown() + "] (" + MpiWaitGraph.NO_RECORDS + ")"));
      return;
    }
    line("MPI waits:");
    for (MpiWaitGraph.Group g : graph.groups()) {
      line(
          "  ["
              + g.ranks()
              + "] "
              + MpiWaitGraph.describe(g.mpiWait())
              + (g.waitsFor().isEmpty() ? "" : ", waits for [" + g.waitsFor() + "]"));
    }
    if (!graph.unknown().isEmpty()) {
      line("  [" + graph.unknown() + "] no records (" + MpiWaitGraph.NO_RECORDS + ")");
    }
    for (MpiWaitGraph.Cycle c : graph.cycles()) {
      line("deadlock: " + c.path() + ", " + c.how());
    }
    for (MpiWaitGraph.Blocker b : graph.blockers()) {
      line(
          (b.waiters().size() == 1 ? "rank " : "ranks ")
              + b.waiters()
              + " wait"
              + (b.waiters().size() == 1 ? "s" : "")
              + " in "
              + b.call()
              + " for "
              + (b.ranks().size() == 1 ? "rank " : "ranks ")
              + b.ranks()
              + ", which "
              + (b.ranks().size() == 1 ? "is " : "are ")
              + b.where());
    }
  }

  @Override
  public synchronized void info(String text) {
    // sdm's own messages (help has lines of its own), which may quote others' text.
    out.println(TerminalText.escapeLines(text));
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
