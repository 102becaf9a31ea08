package io.sdmfabric.model;

import java.util.OptionalInt;

/**
 * One application process (one MPI rank) of a {@link DebugJob}, created by the job. Its state
 * follows {@link ProcessState}; its state changes also reach the job's child listeners. Threading
 * follows {@link ModelElement}.
 */
public final class DebugProcess extends ModelElement<ProcessState> {

  private final DebugJob job;
  private final int rank;

  /** Set by the job when the process is located ({@link DebugJob#locate}). */
  String nodeName;

  DebugProcess(DebugJob job, int rank, String nodeName) {
    super(ProcessState.NOT_STARTED);
    this.job = job;
    this.rank = rank;
    this.nodeName = nodeName;
  }

  /** {@code <job id>/process/<rank>}, built on demand to keep a million processes small. */
  @Override
  public String id() {
    return job.id() + "/process/" + rank;
  }

  public DebugJob job() {
    return job;
  }

  public int rank() {
    return rank;
  }

  /** The name of the {@link ComputeNode} this process runs on; empty while it is not known. */
  public String nodeName() {
    return nodeName;
  }

  /** The operating-system process id ({@link Attributes#PID}), once the backend reported it. */
  public OptionalInt pid() {
    return hasAttribute(Attributes.PID)
        ? OptionalInt.of(attribute(Attributes.PID))
        : OptionalInt.empty();
  }

  /** Sets or, for 0 or less, unsets the pid. */
  void setPid(int pid) {
    if (pid > 0) {
      setAttribute(Attributes.PID, pid);
    } else {
      removeAttribute(Attributes.PID);
    }
  }

  /** How many threads the process had when they were last counted; 0 if never. */
  public int threads() {
    return attribute(Attributes.THREADS);
  }

  /** Where it stopped, how it exited, why it is in error ({@link DebugJob#place}). */
  public String place() {
    return job.place(rank);
  }

  @Override
  void stateChanged(ProcessState from, ProcessState to) {
    job.processStateChanged(rank, from, to);
  }

  @Override
  void notifyParent(ModelEvent.StateChanged<ProcessState> event) {
    job.fireToChildListeners(event);
  }
}
