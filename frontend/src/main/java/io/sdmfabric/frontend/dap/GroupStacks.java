package io.sdmfabric.frontend.dap;

import static io.sdmfabric.model.ProcessState.NOT_STARTED;
import static io.sdmfabric.model.ProcessState.STOPPED;

import io.sdmfabric.model.Frame;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.proto.CommandBody;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.eclipse.lsp4j.debug.Source;
import org.eclipse.lsp4j.debug.StackFrame;
import org.eclipse.lsp4j.debug.StackTraceResponse;

/**
 * The stacks of the DAP threads, and the frame ids the client gets for their frames: each id stands
 * for a {@link GroupFrame} (a thread and a level), given out by {@link Handles}, so that a frame id
 * the client sends back resolves to the group's ranks and the level to select on them. A frame
 * keeps its id for the session, as the thread keeps its id while its ranks stay where they are.
 */
final class GroupStacks {
  private final Handles<GroupFrame> frameIds = new Handles<>();
  private final RankThreads threads;
  private final BiFunction<CommandBody, RankSet, List<RankReply>> exchange;
  private final Function<String, Source> sources;

  /**
   * Stacks of the groups of {@code threads}, read through {@code exchange}; a file as gdb names it
   * is the client's {@code sources.apply(file)}.
   */
  GroupStacks(
      RankThreads threads,
      BiFunction<CommandBody, RankSet, List<RankReply>> exchange,
      Function<String, Source> sources) {
    this.threads = threads;
    this.exchange = exchange;
    this.sources = sources;
  }

  /**
   * The stack of thread {@code threadId}; none while its ranks run. Ranks not started have one when
   * they are held in MPI_Init (a launcher's, in main already).
   */
  StackTraceResponse stackTrace(int threadId) {
    RankGroups.Group group = threads.group(threadId);
    List<StackFrame> frames = new ArrayList<>();
    if (group.state() == STOPPED || group.state() == NOT_STARTED) {
      // The stack of the most ranks of the group: a group shares its innermost frame, and mostly
      // the whole stack.
      List<Frame> stack = List.of();
      int most = 0;
      for (RankReply r : exchange.apply(Commands.listFrames(), group.ranks())) {
        if (r.reply() instanceof Reply.Frames f && r.ranks().size() > most) {
          stack = f.frames();
          most = r.ranks().size();
        }
      }
      stack.forEach(f -> frames.add(stackFrame(group.id(), f)));
    }
    StackTraceResponse response = new StackTraceResponse();
    response.setStackFrames(frames.toArray(StackFrame[]::new));
    response.setTotalFrames(frames.size());
    return response;
  }

  /** The frame {@code frameId} stands for; refused for an id this adapter never gave out. */
  GroupFrame frame(int frameId) {
    return frameIds.value(frameId).orElseThrow(() -> RequestFailure.of("no frame " + frameId));
  }

  private StackFrame stackFrame(int threadId, Frame f) {
    StackFrame frame = new StackFrame();
    frame.setId(frameIds.reference(new GroupFrame(threadId, f.level())));
    frame.setName(f.function());
    if (f.hasSource()) {
      frame.setSource(sources.apply(f.file()));
      frame.setLine(f.line());
    } else {
      frame.setLine(0);
    }
    frame.setColumn(0);
    return frame;
  }
}
