package io.sdmfabric.frontend.dap;

import io.sdmfabric.frontend.ProcessTable;
import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.RankSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The DAP threads of a session: one per group of ranks in the same state at the same place ({@link
 * ProcessTable.Row}), so that a thousand ranks at three places show as three threads; or, for a job
 * of at most {@code perRankUpTo} ranks, one per rank. A group keeps its thread id while its state
 * and place stay the same, however its ranks change, so that a client's view of it survives ranks
 * joining or leaving it; a rank's own thread is its rank plus one. Not thread-safe: the adapter
 * calls it under its own lock.
 */
final class RankGroups {
  /**
   * A DAP thread: its id, the ranks it stands for, their state and what it is ("compute at
   * ranks.c:7", "running", "exited, exit code 0").
   */
  record Group(int id, RankSet ranks, ProcessState state, String what) {
    /** The thread's name: its ranks and what they do ("[0-2,4-7] compute at ranks.c:7"). */
    String name() {
      return "[" + ranks + "] " + what;
    }
  }

  private final int size;
  private final boolean perRank;
  private final Map<String, Integer> ids = new HashMap<>();
  private int nextId;
  private List<Group> current = List.of();

  RankGroups(int size, int perRankUpTo) {
    this.size = size;
    this.perRank = size <= perRankUpTo;
    this.nextId = size + 1; // above the per-rank ids, should the job's size ever allow both
  }

  /** The groups of {@code rows} (every rank of the job), remembered as the current ones. */
  List<Group> regroup(List<ProcessTable.Row> rows) {
    List<Group> groups = new ArrayList<>();
    for (ProcessTable.Row row : rows) {
      if (perRank) {
        row.ranks()
            .forEach(r -> groups.add(new Group(r + 1, RankSet.of(r), row.state(), what(row))));
      } else {
        String key = row.state() + "\u0000" + row.location();
        int id = ids.computeIfAbsent(key, k -> nextId++);
        groups.add(new Group(id, row.ranks(), row.state(), what(row)));
      }
    }
    groups.sort(java.util.Comparator.comparingInt(g -> g.ranks().first()));
    current = List.copyOf(groups);
    return current;
  }

  /** The groups as last regrouped. */
  List<Group> current() {
    return current;
  }

  /** The current group of thread {@code id}. */
  Optional<Group> group(int id) {
    return current.stream().filter(g -> g.id() == id).findFirst();
  }

  /** The current group that holds {@code rank}. */
  Optional<Group> holding(int rank) {
    return current.stream().filter(g -> g.ranks().contains(rank)).findFirst();
  }

  /** Every rank of the job. */
  RankSet all() {
    return RankSet.all(size);
  }

  private static String what(ProcessTable.Row row) {
    return switch (row.state()) {
      case STOPPED -> row.location();
      case RUNNING -> "running";
      case NOT_STARTED -> "not started";
      case EXITED -> "exited, " + row.location();
      case DETACHED -> "detached";
      case LOST -> "lost";
      case ERROR -> "error: " + row.location();
    };
  }
}
