package io.sdmfabric.frontend.dap;

import static io.sdmfabric.model.ProcessState.NOT_STARTED;
import static io.sdmfabric.model.ProcessState.RUNNING;
import static io.sdmfabric.model.ProcessState.STOPPED;

import io.sdmfabric.frontend.ProcessTable;
import io.sdmfabric.model.RankSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.lsp4j.debug.Thread;
import org.eclipse.lsp4j.debug.ThreadEventArgumentsReason;
import org.eclipse.lsp4j.debug.ThreadsResponse;

/**
 * The DAP threads of a session: its ranks grouped ({@link RankGroups}) as the console's process
 * table has them, and the ranks in each state. Each regrouping tells the client of the threads that
 * came and went. Thread-safe: requests and events both regroup.
 */
final class RankThreads {
  private final RankGroups groups;
  private final ProcessTable table;
  private final DapOutput out;

  RankThreads(RankGroups groups, ProcessTable table, DapOutput out) {
    this.groups = groups;
    this.table = table;
    this.out = out;
  }

  /** Regroups the ranks, telling the client of groups that came and went. */
  synchronized List<RankGroups.Group> regroup() {
    Set<Integer> before = ids(groups.current());
    List<RankGroups.Group> now = groups.regroup(table.rows(groups.all()));
    Set<Integer> after = ids(now);
    for (int id : after) {
      if (!before.contains(id)) {
        out.thread(id, ThreadEventArgumentsReason.STARTED);
      }
    }
    for (int id : before) {
      if (!after.contains(id)) {
        out.thread(id, ThreadEventArgumentsReason.EXITED);
      }
    }
    return now;
  }

  /** The threads as they are now. */
  ThreadsResponse threads() {
    ThreadsResponse response = new ThreadsResponse();
    response.setThreads(regroup().stream().map(RankThreads::thread).toArray(Thread[]::new));
    return response;
  }

  /** The group of thread {@code threadId} as it is now; refused when it has regrouped. */
  RankGroups.Group group(int threadId) {
    regroup();
    synchronized (this) {
      return groups
          .group(threadId)
          .orElseThrow(
              () -> RequestFailure.of("no thread " + threadId + ": the ranks have regrouped"));
    }
  }

  /** The current group that holds {@code rank}. */
  synchronized Optional<RankGroups.Group> holding(int rank) {
    return groups.holding(rank);
  }

  /** The first group of stopped ranks, regrouped now. */
  Optional<RankGroups.Group> firstStopped() {
    return regroup().stream().filter(g -> g.state() == STOPPED).findFirst();
  }

  /** The ids of the current groups that hold some of {@code ranks}. */
  synchronized Set<Integer> touching(RankSet ranks) {
    return groups.current().stream()
        .filter(g -> g.ranks().intersects(ranks))
        .map(RankGroups.Group::id)
        .collect(Collectors.toSet());
  }

  /** Every rank of the job. */
  RankSet all() {
    return groups.all();
  }

  /** The stopped ranks. */
  RankSet stopped() {
    return table.ranksIn(STOPPED, all());
  }

  /** The ranks not started yet: held in MPI_Init when a launch stopped them on entry. */
  RankSet held() {
    return table.ranksIn(NOT_STARTED, all());
  }

  /** The running ranks among {@code ranks}. */
  RankSet running(RankSet ranks) {
    return table.ranksIn(RUNNING, ranks);
  }

  /** The ranks still there to debug: stopped, running or not started yet. */
  RankSet live() {
    return stopped().union(table.ranksIn(RUNNING, all())).union(table.ranksIn(NOT_STARTED, all()));
  }

  /** Whether every rank of {@code now} has ended (exited, detached, lost or in error). */
  static boolean ended(List<RankGroups.Group> now) {
    return now.stream().noneMatch(g -> g.state().live());
  }

  private static Thread thread(RankGroups.Group g) {
    Thread t = new Thread();
    t.setId(g.id());
    t.setName(g.name());
    return t;
  }

  private static Set<Integer> ids(List<RankGroups.Group> groups) {
    return groups.stream().map(RankGroups.Group::id).collect(Collectors.toSet());
  }
}
