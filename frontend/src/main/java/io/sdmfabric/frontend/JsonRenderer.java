package io.sdmfabric.frontend;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.MpiWait;
import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.ProgramInfo;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.StartProgress;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.StackTree;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Shows a session as one JSON object per line, each with {@code "event"} and {@code "ranks"} (the
 * rank-set text, e.g. {@code "0-3,7"}), then its fields in a fixed order. The format is documented
 * in docs/PROTOCOL.md.
 */
public final class JsonRenderer implements Renderer {
  private final PrintStream out;

  /** Writes to {@code out}. */
  public JsonRenderer(PrintStream out) {
    this.out = out;
  }

  /** An object {@code {"event": name, "ranks": ranks, fields...}}, fields as key, value pairs. */
  private static Map<String, Object> event(String name, RankSet ranks, Object... fields) {
    Map<String, Object> m = Json.object("event", name, "ranks", ranks.toString());
    m.putAll(Json.object(fields));
    return m;
  }

  private synchronized void emit(Map<String, Object> m) {
    out.println(Json.write(m));
    out.flush();
  }

  @Override
  public void reply(String command, String expression, RankReply reply) {
    RankSet ranks = reply.ranks();
    Reply r = reply.reply();
    if (r instanceof Reply.Ok || r instanceof Reply.Running) {
      // Nothing to emit: what follows (a stop, an exit) is emitted as it comes.
    } else if (r instanceof Reply.Detached) {
      emit(event("detached", ranks));
    } else if (r instanceof Reply.Loaded l) {
      emit(loaded(ranks, l.program()));
    } else if (r instanceof Reply.NewBreakpoint b) {
      emit(breakpoint(ranks, b.breakpoint()));
    } else if (r instanceof Reply.Breakpoints b) {
      emit(breakpoints(ranks, b.breakpoints()));
    } else if (r instanceof Reply.SelectedFrame f) {
      emit(event("frame", ranks, "frame", frame(f.frame())));
    } else if (r instanceof Reply.Frames f) {
      emit(frames(ranks, f.frames()));
    } else if (r instanceof Reply.Depth d) {
      emit(event("depth", ranks, "depth", d.depth()));
    } else if (r instanceof Reply.Evaluated v) {
      emit(value(ranks, expression, v.value()));
    } else if (r instanceof Reply.ValuesSummarized s) {
      emit(summary(ranks, expression, s));
    } else if (r instanceof Reply.TypeOf t) {
      emit(event("type", ranks, "expr", expression, "type", t.type()));
    } else if (r instanceof Reply.Variables v) {
      emit(variables(ranks, v.variables()));
    } else if (r instanceof Reply.Threads t) {
      emit(threads(ranks, t.threads()));
    } else if (r instanceof Reply.SelectedThread t) {
      emit(threads(ranks, List.of(t.thread())));
    } else if (r instanceof Reply.Memory m) {
      emit(memory(ranks, expression, m.bytes().toByteArray()));
    } else if (r instanceof Reply.Signals g) {
      emit(signals(ranks, g.signals()));
    } else if (r instanceof Reply.Text t) {
      emit(event("text", ranks, "text", t.text()));
    } else {
      event(reply);
    }
  }

  @Override
  public void event(RankReply event) {
    RankSet ranks = event.ranks();
    Reply r = event.reply();
    if (r instanceof Reply.Stopped s) {
      emit(stopped(ranks, s));
    } else if (r instanceof Reply.Exited x) {
      emit(exited(ranks, x));
    } else if (r instanceof Reply.Output o) {
      emit(event("output", ranks, "stream", "stdout", "text", o.text()));
    } else if (r instanceof Reply.Failure f) {
      // An error, lost ranks, or a body a peer sent malformed.
      emit(event("error", ranks, "message", f.message()));
    } else if (r instanceof Reply.DebuggerEnded d) {
      emit(event("debugger-ended", ranks, "message", d.reason()));
    }
  }

  private static Map<String, Object> stopped(RankSet ranks, Reply.Stopped s) {
    Map<String, Object> m =
        event(
            "stopped",
            ranks,
            "reason",
            s.reason().name().toLowerCase(Locale.ROOT).replace('_', '-'));
    if (!s.signal().isEmpty()) {
      m.put("signal", s.signal());
    }
    m.put("frame", frame(s.frame()));
    return m;
  }

  private static Map<String, Object> exited(RankSet ranks, Reply.Exited x) {
    return x.statusLost()
        ? event("exited", ranks, "statusLost", true)
        : x.signal().isEmpty()
            ? event("exited", ranks, "code", x.code())
            : event("exited", ranks, "signal", x.signal());
  }

  @Override
  public void stacks(StackTree tree) {
    stacks(tree, path -> Map.of());
  }

  /**
   * The merged stacks, each leaf with the entries {@code leafFields} gives for its path (outermost
   * frame first), e.g. how its ranks moved between samples.
   */
  public void stacks(StackTree tree, Function<List<Frame>, Map<String, Object>> leafFields) {
    emit(
        event(
            "stacks",
            tree.ranks(),
            "tree",
            tree.roots().stream()
                .map(n -> node(n, new ArrayList<>(), tree.everyThread(), leafFields))
                .toList()));
  }

  private static Map<String, Object> node(
      StackTree.Node n,
      List<Frame> path,
      boolean threads,
      Function<List<Frame>, Map<String, Object>> leafFields) {
    path.add(n.frame());
    Map<String, Object> node =
        Json.object(
            "func",
            n.frame().function(),
            "file",
            n.frame().file(),
            "line",
            n.frame().line(),
            "ranks",
            n.ranks().toString());
    if (threads) {
      node.put("threads", n.threads());
    }
    if (n.isLeaf()) {
      node.putAll(leafFields.apply(List.copyOf(path)));
    }
    node.put(
        "children", n.children().stream().map(c -> node(c, path, threads, leafFields)).toList());
    path.remove(path.size() - 1);
    return node;
  }

  @Override
  public void mpiWaits(MpiWaitGraph graph) {
    RankSet all = graph.unknown();
    List<Object> waits = new ArrayList<>();
    for (MpiWaitGraph.Group g : graph.groups()) {
      all = all.union(g.ranks());
      MpiWait w = g.mpiWait();
      Map<String, Object> wait = Json.object("ranks", g.ranks().toString(), "call", w.call());
      if (w.collective()) {
        wait.put("sequence", w.sequence());
      } else {
        wait.put(
            "peers",
            w.peers().stream()
                .map(p -> Json.object("rank", p.rank(), "tag", p.tag(), "call", p.call()))
                .toList());
      }
      wait.put("comm", w.comm().describe());
      if (w.polling()) {
        wait.put("polling", true);
      }
      if (w.any()) {
        wait.put("any", true);
      }
      wait.put("waitsFor", g.waitsFor().toString());
      wait.put("text", MpiWaitGraph.describe(w));
      waits.add(wait);
    }
    List<Object> deadlocks =
        graph.cycles().stream()
            .map(c -> (Object) Json.object("cycle", c.ranks(), "path", c.path(), "how", c.how()))
            .toList();
    List<Object> blockers =
        graph.blockers().stream()
            .map(
                b ->
                    (Object)
                        Json.object(
                            "waiters",
                            b.waiters().toString(),
                            "call",
                            b.call(),
                            "ranks",
                            b.ranks().toString(),
                            "where",
                            b.where()))
            .toList();
    emit(
        event(
            "mpi-waits",
            all,
            "waits",
            waits,
            "deadlocked",
            graph.deadlocked().toString(),
            "deadlocks",
            deadlocks,
            "blockers",
            blockers,
            "unknown",
            graph.unknown().toString()));
  }

  @Override
  public void session(RankSet ranks, SessionClient.Started start) {
    emit(event("session", ranks, "started", start.word()));
  }

  @Override
  public void procs(ProcessTable.Listing listing, SessionClient.Started start) {
    RankSet all = RankSet.empty();
    List<Object> list = new ArrayList<>();
    for (ProcessTable.Row r : listing.rows()) {
      all = all.union(r.ranks());
      Map<String, Object> row = Json.object("state", word(r.state()));
      if (!r.location().isEmpty()) {
        row.put(r.state() == ProcessState.ERROR ? "message" : "location", r.location());
      }
      if (r.threads() > 0) {
        row.put("threads", r.threads());
      }
      row.put("ranks", r.ranks().toString());
      list.add(row);
    }
    Map<String, Object> procs = event("procs", all, "rows", list);
    List<Object> nodes = new ArrayList<>();
    for (ProcessTable.Node n : listing.nodes()) {
      Map<String, Object> node =
          Json.object("host", n.host(), "state", n.state().name().toLowerCase(Locale.ROOT));
      if (n.serverPid() > 0) {
        node.put("serverPid", n.serverPid());
      }
      node.put("ranks", n.ranks().toString());
      nodes.add(node);
    }
    if (!nodes.isEmpty()) {
      procs.put("nodes", nodes);
    }
    if (!listing.processes().isEmpty()) {
      List<Object> processes = new ArrayList<>();
      for (ProcessTable.Process p : listing.processes()) {
        Map<String, Object> process = Json.object("rank", p.rank(), "state", word(p.state()));
        if (!p.place().isEmpty()) {
          process.put(p.state() == ProcessState.ERROR ? "message" : "location", p.place());
        }
        if (!p.host().isEmpty()) {
          process.put("host", p.host());
        }
        if (p.pid() > 0) {
          process.put("pid", p.pid());
        }
        if (p.threads() > 0) {
          process.put("threads", p.threads());
        }
        processes.add(process);
      }
      procs.put("processes", processes);
    }
    procs.put("started", start.word());
    emit(procs);
  }

  private static String word(ProcessState state) {
    return state.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  @Override
  public void error(RankSet ranks, String message) {
    emit(event("error", ranks, "message", message));
  }

  @Override
  public void info(String text) {
    emit(event("info", RankSet.empty(), "text", text));
  }

  /**
   * A {@code progress} event: how far the session's start (or its ranks' run to their first stop)
   * has come, {@code elapsed} after it began ({@code "phase"}, then what the phase knows: {@code
   * "held"} ranks of {@code "total"}, the ranks still {@code "waiting"}), and {@code "elapsedMs"}.
   */
  public void progress(StartProgress progress, Duration elapsed) {
    Map<String, Object> m =
        event("progress", RankSet.all(progress.ranks()), "phase", progress.phase());
    if (progress instanceof StartProgress.GdbsStarting g) {
      m.put("held", g.ready());
      m.put("total", g.ranks());
    } else if (progress instanceof StartProgress.Joining j) {
      m.put("held", j.joined());
      m.put("total", j.expected());
      m.put("waiting", j.waiting().toString());
    } else if (progress instanceof StartProgress.Stopping r) {
      m.put("held", r.stopped());
      m.put("total", r.resumed());
    } else {
      m.put("total", progress.ranks());
    }
    m.put("elapsedMs", elapsed.toMillis());
    emit(m);
  }

  @Override
  public void complete(String command) {
    emit(event("complete", RankSet.empty(), "command", command));
  }

  private static Map<String, Object> loaded(RankSet ranks, ProgramInfo loaded) {
    return event("loaded", ranks, "program", loaded.program(), "debugInfo", loaded.hasDebugInfo());
  }

  private static Map<String, Object> frames(RankSet ranks, List<Frame> frames) {
    return event("frames", ranks, "frames", frames.stream().map(JsonRenderer::frame).toList());
  }

  private static Map<String, Object> value(RankSet ranks, String expression, Value value) {
    return event("value", ranks, "expr", expression, "value", value.text(), "type", value.type());
  }

  /**
   * The values a command's replies did not list one by one: {@code classes} (how many values, at
   * most), {@code rankCount}, and {@code min} and {@code max} ({@code value}, {@code type}, {@code
   * ranks}) when some of them are numbers.
   */
  private static Map<String, Object> summary(
      RankSet ranks, String expression, Reply.ValuesSummarized s) {
    Map<String, Object> m =
        event(
            "value-summary",
            ranks,
            "expr",
            expression,
            "classes",
            s.classes(),
            "rankCount",
            ranks.size());
    s.least().ifPresent(e -> m.put("min", extreme(e)));
    s.greatest().ifPresent(e -> m.put("max", extreme(e)));
    return m;
  }

  private static Map<String, Object> extreme(Reply.Extreme e) {
    return Json.object(
        "value", e.value().text(), "type", e.value().type(), "ranks", e.ranks().toString());
  }

  private static Map<String, Object> memory(RankSet ranks, String expression, byte[] bytes) {
    return event("memory", ranks, "address", expression, "bytes", TextRenderer.hex(bytes));
  }

  private static Map<String, Object> breakpoint(RankSet ranks, Breakpoint b) {
    return event(
        "breakpoint", ranks, "id", b.id(), "location", b.location(), "enabled", b.enabled());
  }

  private static Map<String, Object> breakpoints(RankSet ranks, List<Breakpoint> breakpoints) {
    List<Object> list = new ArrayList<>();
    for (Breakpoint bp : breakpoints) {
      list.add(breakpoint(ranks, bp));
    }
    return event("breakpoints", ranks, "breakpoints", list);
  }

  private static Map<String, Object> variables(RankSet ranks, List<Value> variables) {
    List<Object> list = new ArrayList<>();
    for (Value v : variables) {
      list.add(Json.object("name", v.name(), "type", v.type(), "value", v.text()));
    }
    return event("variables", ranks, "variables", list);
  }

  private static Map<String, Object> threads(RankSet ranks, List<ThreadInfo> threads) {
    List<Object> list = new ArrayList<>();
    for (ThreadInfo t : threads) {
      list.add(
          Json.object(
              "id",
              t.id(),
              "target",
              t.targetId(),
              "state",
              t.stopped() ? "stopped" : "running",
              "frame",
              frame(t.frame())));
    }
    return event("threads", ranks, "threads", list);
  }

  private static Map<String, Object> signals(RankSet ranks, List<SignalInfo> signals) {
    List<Object> list = new ArrayList<>();
    for (SignalInfo s : signals) {
      list.add(
          Json.object(
              "name",
              s.name(),
              "stop",
              s.stop(),
              "print",
              s.print(),
              "pass",
              s.pass(),
              "description",
              s.description()));
    }
    return event("signals", ranks, "signals", list);
  }

  private static Map<String, Object> frame(Frame f) {
    return Json.object("func", f.function(), "file", f.file(), "line", f.line());
  }
}
