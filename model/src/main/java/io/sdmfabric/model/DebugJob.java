package io.sdmfabric.model;

import io.sdmfabric.model.internal.ListenerList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.roaringbitmap.RoaringBitmap;

/**
 * The runtime model of one debug job: its state, its compute nodes by name and its processes by
 * rank. The session owns it and updates it from the events that come up the tree; front-ends read
 * it and listen to it.
 *
 * <p>Built for a million ranks: processes are held in an array indexed by rank (so memory grows
 * with the highest rank, which for MPI is the job size minus one), the job keeps a rank set per
 * {@link ProcessState} so that {@link #ranksIn} costs no scan, and bulk operations ({@link
 * #addProcesses}, {@link #move}) produce one event for the job's child listeners instead of one per
 * rank. Each process has a place besides its state: where it stopped, how it exited, why it is in
 * error; ranks in one state at one place are one row of {@code procs} and one thread of the debug
 * adapter.
 *
 * <p>A new job is {@link JobState#PENDING}, a new process {@link ProcessState#NOT_STARTED}, a new
 * node {@link NodeState#UNKNOWN}. A process may be added before its node is known ({@link
 * #addProcesses(RankSet)}). The job's state is never derived from its processes; the session sets
 * it. Threading follows {@link ModelElement}: confined to one owner, no locks.
 */
public final class DebugJob extends ModelElement<JobState> {

  /** The node name of a process whose node is not known. */
  private static final String NO_NODE = "";

  private final String id;
  private final Map<String, ComputeNode> nodes = new LinkedHashMap<>();
  private final Map<String, RoaringBitmap> ranksByNode = new LinkedHashMap<>();
  private final RoaringBitmap allRanks = new RoaringBitmap();
  private final EnumMap<ProcessState, RoaringBitmap> ranksByState =
      new EnumMap<>(ProcessState.class);
  private final ListenerList childListeners = new ListenerList();
  private DebugProcess[] processes = new DebugProcess[0];
  private String[] places = new String[0];

  /**
   * A job without nodes or processes, in state {@link JobState#PENDING}.
   *
   * @param id unique among the session's jobs; not blank, and without {@code /}, which separates
   *     the job id from the child part in the ids of processes and nodes
   */
  public DebugJob(String id) {
    super(JobState.PENDING);
    Objects.requireNonNull(id, "id");
    if (id.isBlank() || id.indexOf('/') >= 0) {
      throw new IllegalArgumentException(
          "job id must be non-blank and without '/': \"" + id + "\"");
    }
    this.id = id;
    for (ProcessState state : ProcessState.values()) {
      ranksByState.put(state, new RoaringBitmap());
    }
  }

  @Override
  public String id() {
    return id;
  }

  /**
   * Adds a compute node in state {@link NodeState#UNKNOWN} and tells the child listeners.
   *
   * @throws IllegalArgumentException if the name is blank or already taken
   */
  public ComputeNode addNode(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("node name must not be blank");
    }
    if (nodes.containsKey(name)) {
      throw new IllegalArgumentException("job " + id + " already has node " + name);
    }
    ComputeNode node = new ComputeNode(this, name);
    nodes.put(name, node);
    ranksByNode.put(name, new RoaringBitmap());
    childListeners.fire(new ModelEvent.ChildAdded(this, node));
    return node;
  }

  public Optional<ComputeNode> node(String name) {
    Objects.requireNonNull(name, "name");
    return Optional.ofNullable(nodes.get(name));
  }

  /** The nodes in the order they were added; a snapshot. */
  public List<ComputeNode> nodes() {
    return List.copyOf(nodes.values());
  }

  /**
   * Adds the process of {@code rank}, running on the existing node {@code nodeName}, in state
   * {@link ProcessState#NOT_STARTED}, and tells the child listeners with {@link
   * ModelEvent.ChildAdded}.
   *
   * @throws IllegalArgumentException if the rank is negative or taken, or the node unknown
   */
  public DebugProcess addProcess(int rank, String nodeName) {
    addProcesses(nodeName, RankSet.of(rank), false);
    DebugProcess process = processes[rank];
    childListeners.fire(new ModelEvent.ChildAdded(this, process));
    return process;
  }

  /**
   * Adds the processes of {@code ranks}, all running on the existing node {@code nodeName}, in
   * state {@link ProcessState#NOT_STARTED}, and tells the child listeners with one {@link
   * ModelEvent.ProcessesAdded}. Adds nothing if any rank is already taken.
   *
   * @throws IllegalArgumentException if a rank is taken or the node unknown
   */
  public void addProcesses(String nodeName, RankSet ranks) {
    addProcesses(nodeName, ranks, true);
  }

  /**
   * Adds the processes of {@code ranks}, on no node yet, in state {@link ProcessState#NOT_STARTED},
   * and tells the child listeners with one {@link ModelEvent.ProcessesAdded} (its node name empty).
   * Adds nothing if any rank is already taken.
   *
   * @throws IllegalArgumentException if a rank is taken
   */
  public void addProcesses(RankSet ranks) {
    addProcesses(NO_NODE, ranks, true);
  }

  private void addProcesses(String nodeName, RankSet ranks, boolean fireBulk) {
    Objects.requireNonNull(nodeName, "nodeName");
    Objects.requireNonNull(ranks, "ranks");
    RoaringBitmap onNode =
        nodeName.equals(NO_NODE) ? new RoaringBitmap() : ranksByNode.get(nodeName);
    if (onNode == null) {
      throw new IllegalArgumentException("job " + id + " has no node " + nodeName);
    }
    if (RoaringBitmap.intersects(allRanks, ranks.bitmap())) {
      RankSet taken = RankSet.adopt(RoaringBitmap.and(allRanks, ranks.bitmap()));
      throw new IllegalArgumentException("job " + id + " already has processes for ranks " + taken);
    }
    if (ranks.isEmpty()) {
      return;
    }
    int needed = ranks.last() + 1;
    if (needed > processes.length) {
      // Doubling keeps one-by-one registration of N ranks linear overall.
      int capacity = (int) Math.min(Integer.MAX_VALUE, Math.max(needed, 2L * processes.length));
      processes = Arrays.copyOf(processes, capacity);
      int from = places.length;
      places = Arrays.copyOf(places, capacity);
      Arrays.fill(places, from, capacity, "");
    }
    ranks.forEach(rank -> processes[rank] = new DebugProcess(this, rank, nodeName));
    allRanks.or(ranks.bitmap());
    onNode.or(ranks.bitmap());
    ranksByState.get(ProcessState.NOT_STARTED).or(ranks.bitmap());
    if (fireBulk) {
      childListeners.fire(new ModelEvent.ProcessesAdded(this, nodeName, ranks));
    }
  }

  /** The process of {@code rank}, if it was added. */
  public Optional<DebugProcess> process(int rank) {
    return rank >= 0 && rank < processes.length
        ? Optional.ofNullable(processes[rank])
        : Optional.empty();
  }

  /** The ranks of all processes. */
  public RankSet ranks() {
    return RankSet.copyOf(allRanks);
  }

  /** The ranks of the processes on node {@code nodeName}; empty for an unknown node. */
  public RankSet ranksOn(String nodeName) {
    Objects.requireNonNull(nodeName, "nodeName");
    RoaringBitmap onNode = ranksByNode.get(nodeName);
    return onNode == null ? RankSet.empty() : RankSet.copyOf(onNode);
  }

  /** The ranks of the processes now in {@code state}; costs no scan of the processes. */
  public RankSet ranksIn(ProcessState state) {
    Objects.requireNonNull(state, "state");
    return RankSet.copyOf(ranksByState.get(state));
  }

  /**
   * The place of {@code rank}'s process: where it stopped, how it exited, why it is in error; empty
   * when none was given, or for a rank without a process.
   */
  public String place(int rank) {
    return rank >= 0 && rank < places.length && processes[rank] != null ? places[rank] : "";
  }

  /**
   * Records where the processes of {@code ranks} run, as their servers reported it: on node {@code
   * nodeName} (added if the job has no such node yet, and {@link NodeState#UP}), served there by
   * process {@code serverPid} ({@link Attributes#SERVER_PID} of the node), each with
   * operating-system process id {@code pid} ({@link Attributes#PID}; 0 or less: none, and the
   * attribute is unset). Ranks without a process are skipped. The job's child listeners receive one
   * {@link ModelEvent.ProcessesLocated} when a node or a pid changed.
   *
   * @return the ranks whose node or pid changed
   */
  public RankSet locate(RankSet ranks, String nodeName, int pid, int serverPid) {
    Objects.requireNonNull(ranks, "ranks");
    Objects.requireNonNull(nodeName, "nodeName");
    if (nodeName.isBlank()) {
      throw new IllegalArgumentException("node name must not be blank");
    }
    ComputeNode node = nodes.containsKey(nodeName) ? nodes.get(nodeName) : addNode(nodeName);
    node.moveTo(NodeState.UP);
    node.setAttribute(Attributes.SERVER_PID, serverPid);
    RoaringBitmap onNode = ranksByNode.get(nodeName);
    RankSet.Builder changed = RankSet.builder();
    RoaringBitmap.and(ranks.bitmap(), allRanks)
        .forEach(
            (int rank) -> {
              DebugProcess process = processes[rank];
              boolean moved = !process.nodeName().equals(nodeName);
              if (moved) {
                RoaringBitmap before = ranksByNode.get(process.nodeName());
                if (before != null) {
                  before.remove(rank);
                }
                onNode.add(rank);
                process.nodeName = nodeName;
              }
              boolean newPid =
                  pid > 0
                      ? process.attribute(Attributes.PID) != pid
                      : process.hasAttribute(Attributes.PID);
              if (newPid) {
                process.setPid(pid);
              }
              if (moved || newPid) {
                changed.add(rank);
              }
            });
    RankSet located = changed.build();
    if (!located.isEmpty()) {
      childListeners.fire(new ModelEvent.ProcessesLocated(this, nodeName, located));
    }
    return located;
  }

  /**
   * Records how many threads the processes of {@code ranks} have ({@link Attributes#THREADS}), as
   * they were counted now.
   */
  public void countThreads(RankSet ranks, int threads) {
    Objects.requireNonNull(ranks, "ranks");
    RoaringBitmap.and(ranks.bitmap(), allRanks)
        .forEach((int rank) -> processes[rank].setAttribute(Attributes.THREADS, threads));
  }

  /**
   * Moves the node whose ranks' servers are gone to {@link NodeState#DOWN}: each node all of whose
   * processes are {@link ProcessState#LOST}.
   */
  public void markNodesDown() {
    RoaringBitmap lost = ranksByState.get(ProcessState.LOST);
    for (ComputeNode node : nodes.values()) {
      RoaringBitmap onNode = ranksByNode.get(node.name());
      if (!onNode.isEmpty() && RoaringBitmap.andNot(onNode, lost).isEmpty()) {
        node.moveTo(NodeState.DOWN);
      }
    }
  }

  /**
   * Moves the processes of {@code ranks} that may move to {@code to} ({@link
   * ProcessState#canMoveTo}) there, at {@code place}; ranks already in {@code to} take the new
   * place. The others stay as they are: a report that comes late (a lost rank's exit) changes
   * nothing. After every process is updated, the processes' own listeners receive one {@link
   * ModelEvent.StateChanged} each for a change of state (only processes that have listeners, so the
   * cost stays linear in the ranks and small), then the job's child listeners receive one {@link
   * ModelEvent.ProcessesMoved} when anything changed.
   *
   * @return the ranks whose state or place changed
   */
  public RankSet move(RankSet ranks, ProcessState to, String place) {
    Objects.requireNonNull(ranks, "ranks");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(place, "place");
    RoaringBitmap asked = RoaringBitmap.and(ranks.bitmap(), allRanks);
    // Per state group, not per rank: at most seven bitmap intersections.
    Map<ProcessState, RankSet> from = new EnumMap<>(ProcessState.class);
    for (ProcessState state : ProcessState.values()) {
      if (!state.canMoveTo(to)) {
        continue;
      }
      RoaringBitmap inState = RoaringBitmap.and(ranksByState.get(state), asked);
      if (state == to) {
        // Those at another place only.
        RoaringBitmap elsewhere = new RoaringBitmap();
        inState.forEach(
            (int rank) -> {
              if (!places[rank].equals(place)) {
                elsewhere.add(rank);
              }
            });
        inState = elsewhere;
      }
      if (!inState.isEmpty()) {
        from.put(state, RankSet.adopt(inState));
      }
    }
    if (from.isEmpty()) {
      return RankSet.empty();
    }
    RankSet.Builder changed = RankSet.builder();
    RoaringBitmap target = ranksByState.get(to);
    for (Map.Entry<ProcessState, RankSet> group : from.entrySet()) {
      RankSet part = group.getValue();
      ranksByState.get(group.getKey()).andNot(part.bitmap());
      target.or(part.bitmap());
      part.forEach(
          rank -> {
            processes[rank].state = to;
            places[rank] = place;
          });
      changed.addAll(part);
    }
    for (Map.Entry<ProcessState, RankSet> group : from.entrySet()) {
      ProcessState previous = group.getKey();
      if (previous == to) {
        continue;
      }
      group
          .getValue()
          .forEach(
              rank -> {
                DebugProcess process = processes[rank];
                if (process.hasListeners()) {
                  process.fire(new ModelEvent.StateChanged<>(process, previous, to));
                }
              });
    }
    childListeners.fire(new ModelEvent.ProcessesMoved(this, from, to, place));
    return changed.build();
  }

  /**
   * Registers {@code listener} for changes to this job's children (processes and nodes added, their
   * state changes); registering the same listener twice has no further effect. The job's own
   * changes go to {@link #addListener} listeners instead. See {@link ModelListener} for delivery.
   */
  public void addChildListener(ModelListener listener) {
    childListeners.add(listener);
  }

  /** Unregisters a child listener; returns whether it was registered. */
  public boolean removeChildListener(ModelListener listener) {
    return childListeners.remove(listener);
  }

  /** Keeps the per-state rank sets in step with single-process transitions. */
  void processStateChanged(int rank, ProcessState from, ProcessState to) {
    ranksByState.get(from).remove(rank);
    ranksByState.get(to).add(rank);
  }

  void fireToChildListeners(ModelEvent event) {
    childListeners.fire(event);
  }
}
