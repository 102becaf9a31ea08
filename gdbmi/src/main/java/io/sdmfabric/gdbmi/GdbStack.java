package io.sdmfabric.gdbmi;

import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.ThreadInfo;
import io.sdmfabric.model.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One rank's threads and stacks, as CDT's MIStack: its threads numbered as the rank sees them, the
 * frames of its selected thread or of them all, the selected thread and frame ({@link Inferior}
 * keeps them, since gdb's own selection is shared by its programs), and the frame's variables.
 */
final class GdbStack {
  private final RankLink link;
  private final Inferior inferior;

  GdbStack(RankLink link) {
    this.link = link;
    this.inferior = link.inferior;
  }

  CompletableFuture<List<Frame>> frames() {
    return link.send(MiCommands.frames(inferior.onThread()))
        .thenApply(r -> GdbResults.frames(r.results().list("stack")));
  }

  /**
   * Each of the program's threads' frames, asked of gdb thread by thread, selecting none. The
   * threads are those gdb has told of ({@code =thread-created}), not a {@code -thread-info}, which
   * lists every program's threads of a shared gdb, each with its frame: 16 ranks' stacks asked that
   * way made gdb describe every thread of the gdb 16 times.
   */
  CompletableFuture<List<List<Frame>>> allStacks() {
    List<CompletableFuture<List<Frame>>> stacks = new ArrayList<>();
    for (int global : inferior.liveThreads()) {
      stacks.add(
          link.send(MiCommands.frames(MiScope.thread(global)))
              .thenApply(f -> GdbResults.frames(f.results().list("stack"))));
    }
    return CompletableFuture.allOf(stacks.toArray(CompletableFuture[]::new))
        .thenApply(done -> stacks.stream().map(CompletableFuture::join).toList());
  }

  CompletableFuture<Frame> selectFrame(int level) {
    // gdb 13 describes a frame "??" past the outermost frame: check the depth first (counting at
    // most level + 1 frames) and refuse as gdb's CLI does.
    return link.send(MiCommands.depth(inferior.onThread(), level + 1))
        .thenCompose(
            depth -> {
              if (Integer.parseInt(depth.results().string("depth")) <= level) {
                throw new DebuggerException("No frame at level " + level + ".");
              }
              inferior.selectFrame(level);
              return link.send(MiCommands.frame(inferior.here()));
            })
        .thenApply(r -> GdbResults.frame(r.results().tuple("frame")));
  }

  CompletableFuture<Integer> depth() {
    return link.send(MiCommands.depth(inferior.onThread()))
        .thenApply(r -> Integer.parseInt(r.results().string("depth")));
  }

  /** The selected frame's arguments ({@code arguments}) or its locals. */
  CompletableFuture<List<Value>> variables(boolean arguments) {
    return link.send(MiCommands.variables(inferior.here()))
        .thenApply(
            r -> {
              List<Value> values = new ArrayList<>();
              for (MiValue v : r.results().list("variables").items()) {
                MiTuple t = GdbResults.asTuple(v);
                if (t.get("arg").isPresent() == arguments) {
                  values.add(GdbResults.variable(t));
                }
              }
              return values;
            });
  }

  CompletableFuture<List<ThreadInfo>> threads() {
    return link.send(MiCommands.threads())
        .thenApply(
            r -> {
              List<ThreadInfo> threads = new ArrayList<>();
              for (MiValue v : r.results().list("threads").items()) {
                ThreadInfo t = GdbResults.thread(GdbResults.asTuple(v));
                int own = inferior.ownThread(t.id());
                if (own > 0) {
                  threads.add(new ThreadInfo(own, t.targetId(), t.name(), t.stopped(), t.frame()));
                }
              }
              return threads;
            });
  }

  CompletableFuture<ThreadInfo> selectThread(int id) {
    int global;
    try {
      global = inferior.globalThread(id);
    } catch (DebuggerException e) {
      return CompletableFuture.failedFuture(e);
    }
    return link.send(MiCommands.thread(global))
        .thenApply(
            r -> {
              ThreadInfo t =
                  GdbResults.thread(GdbResults.asTuple(r.results().list("threads").items().get(0)));
              inferior.select(global, 0);
              return new ThreadInfo(id, t.targetId(), t.name(), t.stopped(), t.frame());
            });
  }
}
