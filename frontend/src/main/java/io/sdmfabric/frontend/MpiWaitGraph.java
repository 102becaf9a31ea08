package io.sdmfabric.frontend;

import io.sdmfabric.model.MpiWait;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PrimitiveIterator;
import java.util.Set;

/**
 * Who waits for whom in MPI, across the stopped ranks: each rank's wait (the merged {@code
 * mpi_wait} replies), the ranks each one waits for, the cycles of waits no rank outside them can
 * break (deadlocks), and the ranks others wait for that are not waiting in MPI themselves (in
 * compute, ended) with where they are.
 *
 * <p>A collective waits for the members of its communicator that have not reached it (a member in
 * the same or a later collective on that communicator has); a point-to-point call for its peer, or
 * any member of its communicator for {@code MPI_ANY_SOURCE}. A rank that waits is released when all
 * the ranks it waits for can go on ({@code MPI_Waitall}, a collective), or one of them ({@code
 * MPI_Waitany}, any source); the ranks that no chain of releases reaches are deadlocked. A single
 * snapshot can catch a cycle about to dissolve (a send the MPI buffers eagerly); with {@code sdm
 * stacks --samples K}, a cycle whose ranks are stuck in every sample is no such passing moment.
 */
public final class MpiWaitGraph {
  /** Why a rank has no records, for the user. */
  public static final String NO_RECORDS =
      "sdm's MPI library is not in them: sdm preloads it into the MPI jobs it launches, when mpicc"
          + " is on the PATH";

  /** At most this many cycles are named. */
  static final int MAX_CYCLES = 8;

  /** How many steps the search for cycles takes at most, so that it stays short at any scale. */
  private static final int MAX_STEPS = 100_000;

  private final List<Group> groups = new ArrayList<>();
  private final RankSet waiting;
  private final RankSet unknown;
  private final RankSet deadlocked;
  private final List<Cycle> cycles;
  private final List<Blocker> blockers;

  /**
   * Ranks with the same wait, and the ranks they wait for.
   *
   * @param waitsFor the ranks that the group's ranks wait for (a rank never waits for itself)
   */
  public record Group(RankSet ranks, MpiWait mpiWait, RankSet waitsFor) {}

  /**
   * A cycle of waits, named: {@code ranks} in order, each waiting for the next and the last for the
   * first, and what they wait in ("MPI_Send to the next rank, tag 7").
   */
  public record Cycle(List<Integer> ranks, String how) {
    public Cycle {
      ranks = List.copyOf(ranks);
    }

    /** "0 -> 1 -> 2 -> 0". */
    public String path() {
      StringBuilder s = new StringBuilder();
      ranks.forEach(r -> s.append(r).append(" -> "));
      return s.append(ranks.get(0)).toString();
    }
  }

  /**
   * Ranks others wait for that wait in no MPI call: {@code waiters} wait {@code call} for {@code
   * ranks}, which are {@code where} ("in compute at solver.c:88", "exited, exit code 0").
   */
  public record Blocker(RankSet waiters, String call, RankSet ranks, String where) {}

  /**
   * The graph of {@code replies} (to {@code mpi_wait}), with {@code rows} the states and places of
   * all the ranks, for those others wait for. The work grows with the groups of ranks that wait
   * alike, not with the ranks.
   */
  public MpiWaitGraph(List<RankReply> replies, List<ProcessTable.Row> rows) {
    RankSet.Builder unknownRanks = RankSet.builder();
    List<Group> waits = new ArrayList<>();
    for (RankReply r : replies) {
      if (!(r.reply() instanceof Reply.WaitsInMpi w)) {
        continue;
      }
      MpiWait wait = w.mpiWait();
      if (wait.state() == MpiWait.State.UNKNOWN) {
        unknownRanks.addAll(r.ranks());
      } else if (wait.state() == MpiWait.State.WAITING) {
        waits.add(new Group(r.ranks(), wait, RankSet.empty()));
      }
    }
    unknown = unknownRanks.build();
    for (Group g : waits) {
      groups.add(new Group(g.ranks(), g.mpiWait(), targets(g, waits)));
    }
    groups.sort((a, b) -> Integer.compare(a.ranks().first(), b.ranks().first()));
    RankSet.Builder all = RankSet.builder();
    groups.forEach(g -> all.addAll(g.ranks()));
    waiting = all.build();
    deadlocked = findDeadlocked();
    cycles = findCycles();
    blockers = findBlockers(rows);
  }

  /** The ranks that wait, grouped by their wait, in rank order. */
  public List<Group> groups() {
    return List.copyOf(groups);
  }

  /** The ranks without records: sdm's library is not in them, or MPI has not started. */
  public RankSet unknown() {
    return unknown;
  }

  /** Whether no rank waits in MPI. */
  public boolean isEmpty() {
    return groups.isEmpty();
  }

  /** The ranks that wait and that no chain of releases reaches. */
  public RankSet deadlocked() {
    return deadlocked;
  }

  /** The cycles among the deadlocked ranks, named, at most {@link #MAX_CYCLES}. */
  public List<Cycle> cycles() {
    return cycles;
  }

  /** The ranks waited for that wait in no MPI call, with who waits for them. */
  public List<Blocker> blockers() {
    return blockers;
  }

  /** The ranks {@code rank} waits for. */
  public RankSet waitsFor(int rank) {
    return groupOf(rank).map(g -> g.waitsFor().minus(RankSet.of(rank))).orElse(RankSet.empty());
  }

  private Optional<Group> groupOf(int rank) {
    return groups.stream().filter(g -> g.ranks().contains(rank)).findFirst();
  }

  /**
   * The ranks a group waits for: for a collective, the members of its communicator that are in no
   * collective on it with the same or a later number; for point-to-point calls, their peers.
   */
  private static RankSet targets(Group g, List<Group> all) {
    MpiWait wait = g.mpiWait();
    RankSet.Builder t = RankSet.builder();
    if (wait.collective()) {
      RankSet.Builder arrived = RankSet.builder();
      for (Group other : all) {
        MpiWait o = other.mpiWait();
        if (o.collective()
            && o.comm().key() == wait.comm().key()
            && o.sequence() >= wait.sequence()) {
          arrived.addAll(other.ranks());
        }
      }
      t.addAll(wait.comm().members().minus(arrived.build()));
    } else {
      for (MpiWait.Peer p : waitedOn(wait)) {
        if (p.rank() == MpiWait.Peer.ANY) {
          t.addAll(wait.comm().members());
        } else if (p.rank() >= 0) {
          t.add(p.rank());
        }
      }
    }
    RankSet targets = t.build();
    // A rank does not wait for itself; one group of one rank says so exactly.
    return g.ranks().size() == 1 ? targets.minus(g.ranks()) : targets;
  }

  /**
   * The operations {@code wait} waits on: all, unless it waits on requests of which some receive;
   * then those only, since a send the MPI has buffered is done though its request is not completed
   * yet, and no receive is done before its message comes.
   */
  private static List<MpiWait.Peer> waitedOn(MpiWait wait) {
    if (requestsOf(wait) && wait.peers().stream().anyMatch(MpiWait.Peer::receives)) {
      return wait.peers().stream().filter(MpiWait.Peer::receives).toList();
    }
    return wait.peers();
  }

  /** Whether {@code wait} waits on requests, not in a blocking call of its own. */
  private static boolean requestsOf(MpiWait wait) {
    return !wait.peers().isEmpty() && !wait.peers().get(0).call().equals(wait.call());
  }

  /** Whether a group is released by any one of the ranks it waits for, not only by all. */
  private static boolean waitsForAny(MpiWait wait) {
    return wait.any() || wait.peers().stream().anyMatch(p -> p.rank() == MpiWait.Peer.ANY);
  }

  /**
   * The ranks that wait and that no chain of releases reaches: ranks outside the waiting ones can
   * go on; a group is released when all the ranks it waits for can (any one of them, for {@link
   * #waitsForAny}), until nothing more is released.
   */
  private RankSet findDeadlocked() {
    RankSet released = RankSet.empty();
    List<Group> left = new ArrayList<>(groups);
    boolean changed = true;
    while (changed) {
      changed = false;
      for (java.util.Iterator<Group> i = left.iterator(); i.hasNext(); ) {
        Group g = i.next();
        RankSet others = g.waitsFor();
        RankSet able = others.minus(waiting).union(others.intersect(released));
        boolean free =
            others.isEmpty() || (waitsForAny(g.mpiWait()) ? !able.isEmpty() : able.equals(others));
        if (free) {
          released = released.union(g.ranks());
          i.remove();
          changed = true;
        }
      }
    }
    return waiting.minus(released);
  }

  /**
   * Cycles among the deadlocked ranks: from each, the walk to the first deadlocked rank it waits
   * for (in a point-to-point wait if it has one), until a rank comes round again.
   */
  private List<Cycle> findCycles() {
    List<Cycle> found = new ArrayList<>();
    Set<Integer> done = new HashSet<>();
    int steps = 0;
    for (PrimitiveIterator.OfInt starts = deadlocked.iterator();
        starts.hasNext() && found.size() < MAX_CYCLES && steps < MAX_STEPS; ) {
      int start = starts.nextInt();
      if (done.contains(start)) {
        continue;
      }
      Map<Integer, Integer> position = new LinkedHashMap<>();
      int at = start;
      while (!done.contains(at) && !position.containsKey(at) && steps++ < MAX_STEPS) {
        position.put(at, position.size());
        RankSet next = waitsFor(at).intersect(deadlocked);
        if (next.isEmpty()) {
          break;
        }
        at = next.first();
      }
      if (position.containsKey(at)) {
        List<Integer> cycle =
            new ArrayList<>(position.keySet()).subList(position.get(at), position.size());
        found.add(new Cycle(cycle, how(cycle)));
      }
      done.addAll(position.keySet());
    }
    return List.copyOf(found);
  }

  /** What each rank of {@code cycle} waits in for the next: one phrase when all alike. */
  private String how(List<Integer> cycle) {
    List<String> each = new ArrayList<>();
    Set<String> alike = new HashSet<>();
    for (int i = 0; i < cycle.size(); i++) {
      int rank = cycle.get(i);
      int next = cycle.get((i + 1) % cycle.size());
      MpiWait w = groupOf(rank).orElseThrow().mpiWait();
      each.add(rank + " " + toward(w, next, Integer.toString(next)));
      alike.add(toward(w, next, "the next rank"));
    }
    return alike.size() == 1 ? alike.iterator().next() : String.join(", ", each);
  }

  /** What {@code wait} waits in for {@code rank}, which is called {@code name}. */
  private static String toward(MpiWait wait, int rank, String name) {
    if (wait.collective()) {
      return wait.call() + " on " + wait.comm().describe();
    }
    for (MpiWait.Peer p : waitedOn(wait)) {
      if (p.rank() == rank || p.rank() == MpiWait.Peer.ANY) {
        String op = p.call().equals(wait.call()) ? wait.call() : wait.call() + " on " + p.call();
        String whom = p.rank() == MpiWait.Peer.ANY ? "any rank" : name;
        return op + (p.receives() ? " from " : " to ") + whom + tag(p.tag());
      }
    }
    return wait.call();
  }

  private static String tag(int tag) {
    return tag == -1 ? ", any tag" : ", tag " + tag;
  }

  /**
   * The ranks waited for outside the waiting ones, by where they are: ranks waited for by the same
   * ranks, in the same call, from the same place, are one blocker.
   */
  private List<Blocker> findBlockers(List<ProcessTable.Row> rows) {
    Map<List<Object>, RankSet> byTargets = new LinkedHashMap<>();
    for (Group g : groups) {
      RankSet outside = g.waitsFor().minus(waiting);
      RankSet placed = RankSet.empty();
      for (ProcessTable.Row row : rows) {
        RankSet here = outside.intersect(row.ranks());
        if (!here.isEmpty()) {
          byTargets.merge(List.of(g.mpiWait().call(), where(row), here), g.ranks(), RankSet::union);
          placed = placed.union(here);
        }
      }
      RankSet nowhere = outside.minus(placed);
      if (!nowhere.isEmpty()) {
        byTargets.merge(
            List.of(g.mpiWait().call(), "not in this session", nowhere), g.ranks(), RankSet::union);
      }
    }
    Map<List<Object>, RankSet> byWaiters = new LinkedHashMap<>();
    byTargets.forEach(
        (key, waiters) ->
            byWaiters.merge(
                List.of(key.get(0), key.get(1), waiters), (RankSet) key.get(2), RankSet::union));
    List<Blocker> found = new ArrayList<>();
    byWaiters.forEach(
        (key, ranks) ->
            found.add(
                new Blocker(
                    (RankSet) key.get(2), (String) key.get(0), ranks, (String) key.get(1))));
    return List.copyOf(found);
  }

  private static String where(ProcessTable.Row row) {
    return switch (row.state()) {
      case STOPPED -> "in " + row.location();
      case RUNNING -> "running";
      default ->
          row.state().name().toLowerCase(java.util.Locale.ROOT)
              + (row.location().isEmpty() ? "" : ", " + row.location());
    };
  }

  /** One line of a group's wait: "MPI_Send to 1, tag 7" or "MPI_Barrier on MPI_COMM_WORLD (#1)". */
  public static String describe(MpiWait wait) {
    Objects.requireNonNull(wait, "wait");
    if (wait.collective()) {
      return wait.call()
          + " on "
          + wait.comm().describe()
          + " (collective #"
          + wait.sequence()
          + ")";
    }
    List<String> ops = new ArrayList<>();
    for (MpiWait.Peer p : wait.peers()) {
      String whom =
          p.rank() == MpiWait.Peer.ANY
              ? "any rank"
              : p.rank() == MpiWait.Peer.UNKNOWN_RANK
                  ? "a rank sdm cannot tell"
                  : Integer.toString(p.rank());
      String op = p.call().equals(wait.call()) ? "" : p.call() + " ";
      ops.add(op + (p.receives() ? "from " : "to ") + whom + tag(p.tag()));
    }
    String on =
        wait.comm().world() || wait.comm().size() == 0 ? "" : " on " + wait.comm().describe();
    return (wait.polling() ? "polling with " : "")
        + wait.call()
        + (ops.isEmpty()
            ? " on no request sdm knows of"
            : (requestsOf(wait) ? (wait.any() ? " on any of " : " on ") : " ")
                + String.join("; ", ops))
        + on;
  }
}
