package io.sdmfabric.gdbmi;

import io.sdmfabric.model.DebuggerException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * One program of a gdb that may run several ({@link SharedGdb}), as its rank sees it: gdb numbers
 * threads and breakpoints across all its programs, a rank numbers its own from 1, as a gdb of its
 * own would, so that equal ranks answer equally and their replies merge. It also holds the rank's
 * selected thread and frame, which every command names ({@code --thread}, {@code --frame}), since
 * gdb's own selection is shared by its programs.
 *
 * <p>Thread-safe: the delivery thread of gdb's records and callers of the debugger both use it.
 */
final class Inferior {
  private final String group;
  private final int number;

  /**
   * Global thread ids in the order the threads were created; a thread's own number is its index +
   * 1.
   */
  private final List<Integer> threads = new ArrayList<>();

  private final Map<Integer, Integer> liveThreads = new HashMap<>(); // global id -> own number
  private final Map<Integer, Integer> breakpoints = new HashMap<>(); // own id -> gdb's number
  private final Map<Integer, Integer> ownBreakpoints = new HashMap<>(); // gdb's number -> own id
  private final Map<Integer, Integer> hits = new HashMap<>(); // own id -> times the rank stopped
  private int nextBreakpoint = 1;
  private int selectedThread; // global id; 0: none
  private int selectedFrame;

  Inferior(int number) {
    this.number = number;
    this.group = "i" + number;
  }

  /** The thread group's id, e.g. {@code i2}. */
  String group() {
    return group;
  }

  /** gdb's number of the inferior, as {@code $_inferior} has it. */
  int number() {
    return number;
  }

  /** The condition that holds only in this program: a breakpoint's own. */
  String onlyHere() {
    return "$_inferior == " + number;
  }

  synchronized void threadCreated(int global) {
    threads.add(global);
    liveThreads.put(global, threads.size());
  }

  synchronized void threadExited(int global) {
    liveThreads.remove(global);
    if (selectedThread == global) {
      selectedThread = 0;
    }
  }

  /** The program ended or was let go: no thread is left, and the numbering starts over. */
  synchronized void programGone() {
    threads.clear();
    liveThreads.clear();
    selectedThread = 0;
    selectedFrame = 0;
  }

  /** Whether gdb has told of a thread of the program that has not exited. */
  synchronized boolean hasLiveThreads() {
    return !liveThreads.isEmpty();
  }

  synchronized boolean owns(int globalThread) {
    return liveThreads.containsKey(globalThread);
  }

  /** The rank's own number of a thread, or 0 for none of its threads. */
  synchronized int ownThread(int global) {
    return liveThreads.getOrDefault(global, 0);
  }

  /**
   * gdb's id of the rank's thread {@code own}; fails as gdb does for a thread that is not there.
   */
  synchronized int globalThread(int own) {
    if (own >= 1 && own <= threads.size() && liveThreads.containsKey(threads.get(own - 1))) {
      return threads.get(own - 1);
    }
    throw new DebuggerException("Invalid thread id: " + own);
  }

  /** The first of the program's threads still there (its main thread), if any. */
  synchronized OptionalInt mainThread() {
    for (int global : threads) {
      if (liveThreads.containsKey(global)) {
        return OptionalInt.of(global);
      }
    }
    return OptionalInt.empty();
  }

  synchronized void select(int globalThread, int frame) {
    selectedThread = globalThread;
    selectedFrame = frame;
  }

  synchronized void selectFrame(int frame) {
    selectedFrame = frame;
  }

  /**
   * {@code operation} with this rank's context: its selected thread and frame when it has one, its
   * thread group otherwise.
   */
  synchronized MiCommand here(String operation) {
    MiCommand c = MiCommand.of(operation);
    if (selectedThread == 0 && !liveThreads.isEmpty()) {
      selectedThread = mainThread().getAsInt();
      selectedFrame = 0;
    }
    if (selectedThread != 0) {
      return c.option("--thread").param(selectedThread).option("--frame").param(selectedFrame);
    }
    return c.option("--thread-group").param(group);
  }

  /** {@code operation} for the rank's selected thread, without a frame (an execution command). */
  synchronized MiCommand onThread(String operation) {
    MiCommand c = MiCommand.of(operation);
    int thread = selectedThread != 0 ? selectedThread : mainThread().orElse(0);
    return thread != 0
        ? c.option("--thread").param(thread)
        : c.option("--thread-group").param(group);
  }

  /** {@code operation} for the whole program. */
  MiCommand whole(String operation) {
    return MiCommand.of(operation).option("--thread-group").param(group);
  }

  /** Records a breakpoint gdb made for this rank; returns the rank's own id for it. */
  synchronized int breakpointMade(int gdbNumber) {
    int own = nextBreakpoint++;
    breakpoints.put(own, gdbNumber);
    ownBreakpoints.put(gdbNumber, own);
    return own;
  }

  /** gdb's number of the rank's breakpoint {@code own}; fails as gdb does for one that is not. */
  synchronized int gdbBreakpoint(int own) {
    Integer number = breakpoints.get(own);
    if (number == null) {
      throw new DebuggerException("No breakpoint number " + own + ".");
    }
    return number;
  }

  /** The rank stopped at its breakpoint {@code own}. */
  synchronized void breakpointHit(int own) {
    hits.merge(own, 1, Integer::sum);
  }

  /** How many times the rank stopped at its breakpoint {@code own}. */
  synchronized int hits(int own) {
    return hits.getOrDefault(own, 0);
  }

  synchronized void breakpointDeleted(int own) {
    hits.remove(own);
    Integer number = breakpoints.remove(own);
    if (number != null) {
      ownBreakpoints.remove(number);
    }
  }

  /** The rank's own id of gdb's breakpoint {@code gdbNumber}, or 0 when it is not the rank's. */
  synchronized int ownBreakpoint(int gdbNumber) {
    return ownBreakpoints.getOrDefault(gdbNumber, 0);
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

  /** The condition gdb gets for a breakpoint of this rank with the user's {@code condition}. */
  String condition(String condition) {
    return condition.isBlank() ? onlyHere() : onlyHere() + " && (" + condition + ")";
  }
}
