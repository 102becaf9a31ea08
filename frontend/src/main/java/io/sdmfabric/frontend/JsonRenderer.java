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
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Shows a session as one JSON object per line, each with {@code "event"} and {@code "ranks"} (the
 * rank-set text, e.g. {@code "0-3,7"}). The format is documented in docs/PROTOCOL.md.
 */
public final class JsonRenderer implements Renderer {
  private final PrintStream out;

  /** Writes to {@code out}. */
  public JsonRenderer(PrintStream out) {
    this.out = out;
  }

  private static Map<String, Object> event(String name, RankSet ranks) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("event", name);
    m.put("ranks", ranks.toString());
    return m;
  }

  private synchronized void emit(Map<String, Object> m) {
    out.println(Json.write(m));
    out.flush();
  }

  @Override
  public void reply(String command, String expression, RankReply reply) {
    EventBody b = reply.body();
    Map<String, Object> m;
    switch (b.getKindCase()) {
      case OK, RUNNING -> {
        return;
      }
      case DETACHED -> m = event("detached", reply.ranks());
      case LOADED -> {
        m = event("loaded", reply.ranks());
        m.put("program", b.getLoaded().getProgram());
        m.put("debugInfo", b.getLoaded().getHasDebugInfo());
      }
      case BREAKPOINT -> m = breakpoint(reply.ranks(), Protos.fromProto(b.getBreakpoint()));
      case BREAKPOINTS -> {
        m = event("breakpoints", reply.ranks());
        List<Object> list = new ArrayList<>();
        for (Breakpoint bp : Protos.fromProto(b.getBreakpoints())) {
          list.add(breakpoint(reply.ranks(), bp));
        }
        m.put("breakpoints", list);
      }
      case FRAME -> {
        m = event("frame", reply.ranks());
        m.put("frame", frame(Protos.fromProto(b.getFrame())));
      }
      case FRAMES -> {
        m = event("frames", reply.ranks());
        m.put("frames", Protos.fromProto(b.getFrames()).stream().map(JsonRenderer::frame).toList());
      }
      case DEPTH -> {
        m = event("depth", reply.ranks());
        m.put("depth", b.getDepth().getDepth());
      }
      case VALUE -> {
        m = event("value", reply.ranks());
        m.put("expr", expression);
        m.put("value", b.getValue().getText());
        m.put("type", b.getValue().getType());
      }
      case TYPE -> {
        m = event("type", reply.ranks());
        m.put("expr", expression);
        m.put("type", b.getType().getType());
      }
      case VARIABLES -> {
        m = event("variables", reply.ranks());
        List<Object> vars = new ArrayList<>();
        for (Value v : Protos.fromProto(b.getVariables())) {
          vars.add(Map.of("name", v.name(), "type", v.type(), "value", v.text()));
        }
        m.put("variables", vars);
      }
      case THREADS, THREAD -> {
        m = event("threads", reply.ranks());
        List<ThreadInfo> threads =
            b.hasThread()
                ? List.of(Protos.fromProto(b.getThread()))
                : Protos.fromProto(b.getThreads());
        m.put(
            "threads",
            threads.stream()
                .map(
                    t -> {
                      Map<String, Object> tm = new LinkedHashMap<>();
                      tm.put("id", t.id());
                      tm.put("target", t.targetId());
                      tm.put("state", t.stopped() ? "stopped" : "running");
                      tm.put("frame", frame(t.frame()));
                      return tm;
                    })
                .toList());
      }
      case MEMORY -> {
        m = event("memory", reply.ranks());
        m.put("address", expression);
        m.put("bytes", TextRenderer.hex(b.getMemory().getBytes().toByteArray()));
      }
      case SIGNALS -> {
        m = event("signals", reply.ranks());
        List<Object> list = new ArrayList<>();
        for (SignalInfo s : Protos.fromProto(b.getSignals())) {
          list.add(
              Map.of(
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
        m.put("signals", list);
      }
      case TEXT -> {
        m = event("text", reply.ranks());
        m.put("text", b.getText().getText());
      }
      default -> {
        event(reply);
        return;
      }
    }
    emit(m);
  }

  @Override
  public void event(RankReply event) {
    EventBody b = event.body();
    Map<String, Object> m;
    if (b.hasSuspended()) {
      m = event("stopped", event.ranks());
      m.put(
          "reason",
          Protos.fromProto(b.getSuspended().getReason())
              .name()
              .toLowerCase(Locale.ROOT)
              .replace('_', '-'));
      if (!b.getSuspended().getSignal().isEmpty()) {
        m.put("signal", b.getSuspended().getSignal());
      }
      m.put("frame", frame(Protos.fromProto(b.getSuspended().getFrame())));
    } else if (b.hasExit()) {
      m = event("exited", event.ranks());
      if (b.getExit().getSignal().isEmpty()) {
        m.put("code", b.getExit().getCode());
      } else {
        m.put("signal", b.getExit().getSignal());
      }
    } else if (b.hasOutput()) {
      m = event("output", event.ranks());
      m.put("stream", "stdout");
      m.put("text", b.getOutput().getBytes().toString(StandardCharsets.UTF_8));
    } else if (b.hasError()) {
      m = event("error", event.ranks());
      m.put("message", b.getError().getMessage());
    } else if (b.hasLost()) {
      m = event("error", event.ranks());
      m.put("message", Protos.RANK_LOST);
    } else if (b.hasDebuggerEnded()) {
      m = event("debugger-ended", event.ranks());
      m.put("message", b.getDebuggerEnded().getReason());
    } else {
      return;
    }
    emit(m);
  }

  @Override
  public void stacks(StackTree tree) {
    Map<String, Object> m = event("stacks", tree.ranks());
    m.put("tree", tree.roots().stream().map(JsonRenderer::node).toList());
    emit(m);
  }

  private static Map<String, Object> node(StackTree.Node n) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("func", n.frame().function());
    m.put("file", n.frame().file());
    m.put("line", n.frame().line());
    m.put("ranks", n.ranks().toString());
    m.put("children", n.children().stream().map(JsonRenderer::node).toList());
    return m;
  }

  @Override
  public void procs(List<ProcessTable.Row> rows) {
    RankSet all = RankSet.empty();
    List<Object> list = new ArrayList<>();
    for (ProcessTable.Row r : rows) {
      all = all.union(r.ranks());
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("state", r.state().name().toLowerCase(Locale.ROOT).replace('_', '-'));
      if (!r.location().isEmpty()) {
        row.put(r.state() == ProcessTable.State.ERROR ? "message" : "location", r.location());
      }
      row.put("ranks", r.ranks().toString());
      list.add(row);
    }
    Map<String, Object> m = event("procs", all);
    m.put("rows", list);
    emit(m);
  }

  @Override
  public void error(RankSet ranks, String message) {
    Map<String, Object> m = event("error", ranks);
    m.put("message", message);
    emit(m);
  }

  @Override
  public void info(String text) {
    Map<String, Object> m = event("info", RankSet.empty());
    m.put("text", text);
    emit(m);
  }

  @Override
  public void complete(String command) {
    Map<String, Object> m = event("complete", RankSet.empty());
    m.put("command", command);
    emit(m);
  }

  private static Map<String, Object> breakpoint(RankSet ranks, Breakpoint b) {
    Map<String, Object> m = event("breakpoint", ranks);
    m.put("id", b.id());
    m.put("location", b.location());
    m.put("enabled", b.enabled());
    return m;
  }

  private static Map<String, Object> frame(Frame f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("func", f.function());
    m.put("file", f.file());
    m.put("line", f.line());
    return m;
  }
}
