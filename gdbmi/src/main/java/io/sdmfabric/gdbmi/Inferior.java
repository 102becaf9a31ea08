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
 * own would, so that equal ranks answer equally and their replies merge (its breakpoints: {@link
 * RankBreakpoints}). It also holds the rank's selected thread and frame, which every command names
 * ({@code --thread}, {@code --frame}), since gdb's own selection is shared by its programs.
 *
 * <p>Thread-safe: the delivery of gdb's records and callers of the debugger both use it.
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
  private int selectedThread; // global id; 0: none
  private int selectedFrame;

  private final RankBreakpoints breakpoints;

  Inferior(int number) {
    this.number = number;
    this.group = "i" + number;
    this.breakpoints = new RankBreakpoints(number, group);
  }

  /** The rank's breakpoints, by its own ids and by gdb's numbers. */
  RankBreakpoints breakpoints() {
    return breakpoints;
  }

  /** The thread group's id, e.g. {@code i2}. */
  String group() {
    return group;
  }

  /** gdb's number of the inferior, as {@code $_inferior} has it. */
  int number() {
    return number;
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

  /** gdb's ids of the program's threads still there, in the order they were created. */
  synchronized List<Integer> liveThreads() {
    return threads.stream().filter(liveThreads::containsKey).toList();
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
   * This rank's context: its selected thread and frame when it has one, its thread group otherwise.
   */
  synchronized MiScope here() {
    if (selectedThread == 0 && !liveThreads.isEmpty()) {
      selectedThread = mainThread().getAsInt();
      selectedFrame = 0;
    }
    if (selectedThread != 0) {
      return MiScope.frame(selectedThread, selectedFrame);
    }
    return whole();
  }

  /** The rank's selected thread, without a frame (for an execution command). */
  synchronized MiScope onThread() {
    int thread = selectedThread != 0 ? selectedThread : mainThread().orElse(0);
    return thread != 0 ? MiScope.thread(thread) : whole();
  }

  /** The whole program. */
  MiScope whole() {
    return MiScope.group(group);
  }
}
