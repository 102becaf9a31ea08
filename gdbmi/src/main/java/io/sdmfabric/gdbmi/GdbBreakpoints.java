package io.sdmfabric.gdbmi;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.WatchKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * One rank's breakpoints and watchpoints, as CDT's MIBreakpoints: each is a breakpoint of gdb's
 * whose condition names the rank's program ({@link RankBreakpoints#onlyHere}), so that it stops
 * that rank only, and the ranks of a gdb that set a breakpoint alike share one ({@link
 * SharedBreakpoints}). The rank sees its own ids ({@link RankBreakpoints}).
 */
final class GdbBreakpoints {
  private final RankLink link;
  private final RankBreakpoints ids;

  GdbBreakpoints(RankLink link) {
    this.link = link;
    this.ids = link.breakpoints();
  }

  CompletableFuture<Breakpoint> insert(BreakpointSpec spec) {
    CompletableFuture<MiTuple> inserted =
        spec.temporary() || spec.ignoreCount() > 0 || !spec.enabled()
            ? insertAlone(spec)
            : link.gdb.inTurn(() -> insertShared(spec));
    return inserted.thenCompose(this::findingPending).thenApply(b -> asSeen(b, true));
  }

  /** A breakpoint of gdb's for this rank alone. */
  private CompletableFuture<MiTuple> insertAlone(BreakpointSpec spec) {
    // On a thread of the rank's, not just its thread group: gdb reads the rank's memory to find
    // the end of a function's prologue, and with no thread selected reads nothing and puts the
    // breakpoint at the function's first instruction.
    MiCommand c =
        MiCommands.insertBreakpoint(
            link.inferior.onThread(), spec, ids.condition(spec.condition()));
    return link.send(c).thenApply(r -> r.results().tuple("bkpt"));
  }

  /** One breakpoint of gdb's for the ranks that set it alike ({@link SharedBreakpoints}). */
  private CompletableFuture<MiTuple> insertShared(BreakpointSpec spec) {
    SharedBreakpoints shared = link.gdb.breakpoints();
    SharedBreakpoints.Key key =
        new SharedBreakpoints.Key(spec.location().toString(), spec.condition());
    int me = link.inferior.number();
    SharedBreakpoints.Shared s = shared.find(key);
    if (s != null && shared.has(s, me)) {
      // The rank sets it a second time: a breakpoint of its own, as in gdb.
      return insertAlone(spec);
    }
    if (s == null) {
      return insertAlone(spec)
          .thenApply(
              b -> {
                shared.made(RankBreakpoints.number(b), key, me);
                return b;
              });
    }
    shared.join(s, me);
    return applyShared(s)
        .thenCompose(r -> link.send(MiCommands.breakpointInfo(s.number)))
        .thenApply(
            r ->
                GdbResults.asTuple(
                    r.results().tuple("BreakpointTable").list("body").items().get(0)))
        .whenComplete(
            (b, error) -> {
              if (error != null) {
                shared.leave(s, me);
              }
            });
  }

  /**
   * A breakpoint gdb could not place in this rank's program yet (pending, or found only in other
   * ranks' programs, whose symbols were read when they stopped: in a library this rank has not
   * loaded, or loaded without symbols) needs gdb to read libraries' symbols as they load.
   */
  private CompletableFuture<MiTuple> findingPending(MiTuple bkpt) {
    SharedGdb gdb = link.gdb;
    if (!gdb.lazySymbols() || GdbResults.hasLocationIn(bkpt, link.inferior.group())) {
      return CompletableFuture.completedFuture(bkpt);
    }
    return gdb.readSymbolsEagerly().thenApply(r -> bkpt);
  }

  /** Gives gdb's breakpoint {@code s} the programs it is enabled in now. */
  private CompletableFuture<MiReply> applyShared(SharedBreakpoints.Shared s) {
    SharedBreakpoints shared = link.gdb.breakpoints();
    if (!shared.anyEnabled(s)) {
      return link.send(MiCommands.enableBreakpoint(s.number, false));
    }
    return link.send(MiCommands.breakpointCondition(s.number, shared.condition(s)))
        .thenCompose(r -> link.send(MiCommands.enableBreakpoint(s.number, true)));
  }

  CompletableFuture<Breakpoint> insertWatchpoint(String expression, WatchKind kind) {
    MiCommand c = MiCommands.insertWatchpoint(link.inferior.here(), expression, kind);
    Breakpoint.Kind bkind =
        switch (kind) {
          case WRITE -> Breakpoint.Kind.WATCHPOINT;
          case READ -> Breakpoint.Kind.READ_WATCHPOINT;
          case ACCESS -> Breakpoint.Kind.ACCESS_WATCHPOINT;
        };
    return link.send(c)
        .thenCompose(
            r -> {
              MiTuple w =
                  r.results()
                      .get("wpt")
                      .or(() -> r.results().get("hw-rwpt"))
                      .or(() -> r.results().get("hw-awpt"))
                      .map(GdbResults::asTuple)
                      .orElseThrow(() -> new MiShapeException("no watchpoint in " + r.results()));
              int number = Integer.parseInt(w.string("number"));
              return link.send(MiCommands.breakpointCondition(number, ids.onlyHere()))
                  .thenApply(done -> w);
            })
        .thenApply(
            w ->
                new Breakpoint(
                    ids.made(Integer.parseInt(w.string("number"))),
                    bkind,
                    w.string("exp"),
                    "",
                    0,
                    true,
                    false,
                    "",
                    0,
                    0));
  }

  CompletableFuture<Void> delete(int id) {
    int me = link.inferior.number();
    return change(
            id,
            number -> MiCommands.deleteBreakpoint(number),
            s ->
                link.gdb.breakpoints().leave(s, me)
                    ? link.send(MiCommands.deleteBreakpoint(s.number))
                    : applyShared(s))
        .thenRun(() -> ids.deleted(id));
  }

  CompletableFuture<Void> enable(int id, boolean enabled) {
    int me = link.inferior.number();
    return change(
        id,
        number -> MiCommands.enableBreakpoint(number, enabled),
        s -> {
          link.gdb.breakpoints().enable(s, me, enabled);
          return applyShared(s);
        });
  }

  /**
   * Changes the rank's breakpoint {@code id}: gdb's own with {@code alone}, or, when ranks share
   * it, the ranks' part in it with {@code shared}, in turn with the other shared changes.
   */
  private CompletableFuture<Void> change(
      int id,
      IntFunction<MiCommand> alone,
      Function<SharedBreakpoints.Shared, CompletableFuture<MiReply>> shared) {
    int number;
    try {
      number = ids.gdbNumber(id);
    } catch (DebuggerException e) {
      return CompletableFuture.failedFuture(e);
    }
    SharedBreakpoints.Shared s = link.gdb.breakpoints().byNumber(number);
    if (s == null) {
      return RankLink.done(link.send(alone.apply(number)));
    }
    return RankLink.done(link.gdb.inTurn(() -> shared.apply(s)));
  }

  CompletableFuture<List<Breakpoint>> list() {
    return link.send(MiCommands.breakpoints())
        .thenApply(
            r -> {
              List<Breakpoint> list = new ArrayList<>();
              for (MiValue v : r.results().tuple("BreakpointTable").list("body").items()) {
                Breakpoint b = asSeen(GdbResults.asTuple(v), false);
                if (b != null) {
                  list.add(b);
                }
              }
              return list;
            });
  }

  private Breakpoint asSeen(MiTuple bkpt, boolean made) {
    return ids.asSeen(bkpt, made, link.gdb.breakpoints());
  }
}
