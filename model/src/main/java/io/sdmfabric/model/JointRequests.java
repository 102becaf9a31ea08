package io.sdmfabric.model;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Requests put to several debuggers of one debugger process at once (the ranks of one gdb),
 * answered in one round trip with each distinct answer once: a backtrace or a print of N ranks then
 * costs the caller one request and one reply per distinct answer, not N of each. Each member
 * answers as its own request ({@link Debugger#frames}, {@link Debugger#evaluate}) would, in its own
 * selected thread and frame; those it cannot answer so come back as {@link JointAnswer.AskAlone}.
 *
 * <p>Members must be debuggers whose {@link SharedDebugger#joint} is this object.
 */
public interface JointRequests {

  /**
   * The frames of each member's selected thread, innermost first, without their program counters
   * (every {@link Frame#address} is 0).
   */
  CompletableFuture<List<JointAnswer<List<Frame>>>> frames(List<? extends SharedDebugger> members);

  /** {@code expression} evaluated in each member's selected frame, as {@link Debugger#evaluate}. */
  CompletableFuture<List<JointAnswer<Value>>> evaluate(
      List<? extends SharedDebugger> members, String expression);
}
