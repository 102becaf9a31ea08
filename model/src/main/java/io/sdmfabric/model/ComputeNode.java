package io.sdmfabric.model;

/**
 * A compute node of a {@link DebugJob}, that is, the host whose debugger agent runs some of the
 * job's ranks. Created by the job; its state ({@link NodeState}) tells whether the agent is
 * reachable, and its state changes also reach the job's child listeners. Threading follows {@link
 * ModelElement}.
 */
public final class ComputeNode extends ModelElement<NodeState> {

  private final DebugJob job;
  private final String name;

  ComputeNode(DebugJob job, String name) {
    super(NodeState.UNKNOWN);
    this.job = job;
    this.name = name;
  }

  /** {@code <job id>/node/<name>}. */
  @Override
  public String id() {
    return job.id() + "/node/" + name;
  }

  public DebugJob job() {
    return job;
  }

  /** Unique within the job; usually the host name. */
  public String name() {
    return name;
  }

  /** The ranks of the job's processes on this node. */
  public RankSet ranks() {
    return job.ranksOn(name);
  }

  @Override
  void notifyParent(ModelEvent.StateChanged<NodeState> event) {
    job.fireToChildListeners(event);
  }
}
