package io.sdmfabric.gdbmi;

import io.sdmfabric.model.Breakpoint;
import io.sdmfabric.model.DebuggerException;
import java.util.HashMap;
import java.util.Map;

/**
 * One rank's breakpoints kept apart from gdb's, as CDT's MIBreakpointsManager keeps the user's: the
 * rank numbers its breakpoints from 1, as a gdb of its own would, and each is one of gdb's numbers,
 * which gdb counts across all its programs (and which several ranks may share: {@link
 * SharedBreakpoints}). Here too are the rank's hit counts and the condition that makes a breakpoint
 * of gdb's stop this rank only ({@code $_inferior == N}, before the user's own condition).
 *
 * <p>Thread-safe: the delivery of gdb's records and callers of the debugger both use it.
 */
final class RankBreakpoints {
  private final int inferior;
  private final String group;
  private final Map<Integer, Integer> numbers = new HashMap<>(); // own id -> gdb's number
  private final Map<Integer, Integer> ids = new HashMap<>(); // gdb's number -> own id
  private final Map<Integer, Integer> hits = new HashMap<>(); // own id -> times the rank stopped
  private int nextId = 1;

  /**
   * @param inferior gdb's number of the rank's program, as {@code $_inferior} has it
   * @param group its thread group, e.g. {@code i2}
   */
  RankBreakpoints(int inferior, String group) {
    this.inferior = inferior;
    this.group = group;
  }

  /** Records a breakpoint gdb made for this rank; returns the rank's own id for it. */
  synchronized int made(int gdbNumber) {
    int own = nextId++;
    numbers.put(own, gdbNumber);
    ids.put(gdbNumber, own);
    return own;
  }

  /** gdb's number of the rank's breakpoint {@code own}; fails as gdb does for one that is not. */
  synchronized int gdbNumber(int own) {
    Integer number = numbers.get(own);
    if (number == null) {
      throw new DebuggerException("No breakpoint number " + own + ".");
    }
    return number;
  }

  /** The rank's own id of gdb's breakpoint {@code gdbNumber}, or 0 when it is not the rank's. */
  synchronized int ownId(int gdbNumber) {
    return ids.getOrDefault(gdbNumber, 0);
  }

  /** The rank stopped at its breakpoint {@code own}. */
  synchronized void hit(int own) {
    hits.merge(own, 1, Integer::sum);
  }

  /** How many times the rank stopped at its breakpoint {@code own}. */
  synchronized int hits(int own) {
    return hits.getOrDefault(own, 0);
  }

  synchronized void deleted(int own) {
    hits.remove(own);
    Integer number = numbers.remove(own);
    if (number != null) {
      ids.remove(number);
    }
  }

  /** The condition that holds only in this program: a breakpoint's own. */
  String onlyHere() {
    return "$_inferior == " + inferior;
  }

  /** The condition gdb gets for a breakpoint of this rank with the user's {@code condition}. */
  String condition(String condition) {
    return condition.isBlank() ? onlyHere() : onlyHere() + " && (" + condition + ")";
  }

  /** A breakpoint's condition as the user gave it, without the part that names this program. */
  String userCondition(String condition) {
    String mine = onlyHere();
    if (condition.equals(mine)) {
      return "";
    }
    String prefix = mine + " && (";
    if (condition.startsWith(prefix) && condition.endsWith(")")) {
      return condition.substring(prefix.length(), condition.length() - 1);
    }
    return condition;
  }

  /**
   * A breakpoint of gdb's ({@code bkpt}, as {@code -break-insert} or {@code -break-list} describe
   * it) as this rank sees it: with the rank's own id (a new one when {@code made}), its condition
   * as the user gave it, and where it is in this rank's program. Null for another rank's
   * breakpoint.
   */
  Breakpoint asSeen(MiTuple bkpt, boolean made, SharedBreakpoints shared) {
    int number = number(bkpt);
    int id = made ? made(number) : ownId(number);
    if (id == 0) {
      return null;
    }
    Breakpoint b = GdbResults.breakpoint(bkpt, group);
    SharedBreakpoints.Shared s = shared.byNumber(number);
    // Of a shared breakpoint, gdb's state is all the ranks'; the rank's own is kept here.
    boolean own = s == null;
    return new Breakpoint(
        id,
        b.kind(),
        b.location(),
        b.file(),
        b.line(),
        own ? b.enabled() : shared.isEnabled(s, inferior),
        own && b.temporary(),
        own ? userCondition(b.condition()) : s.key.condition(),
        own ? b.ignoreCount() : 0,
        own ? b.hits() : hits(id));
  }

  /** gdb's number of a breakpoint it describes. */
  static int number(MiTuple bkpt) {
    return (int) Double.parseDouble(bkpt.string("number"));
  }
}
