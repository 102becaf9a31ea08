package io.sdmfabric.model;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A job of the resource manager (PTP's job in a queue): a Slurm job, pending, running or ended,
 * with its steps.
 *
 * @param id its id ({@code 1234}, or {@code 1234_7} for a task of an array job)
 * @param name its name (the user's text, to be escaped before it reaches a terminal)
 * @param user the user it runs as
 * @param state its state in Slurm's words: {@code PENDING}, {@code RUNNING}, {@code COMPLETED},
 *     {@code CANCELLED} ...
 * @param reason why it waits or ended as it did, in Slurm's words ({@code BeginTime}, {@code
 *     Resources}); empty when there is none
 * @param partition the queue it is in
 * @param nodes its nodes in Slurm's notation ({@link HostList}); empty while it waits
 * @param nodeCount how many nodes it has, or asks for while it waits
 * @param tasks how many tasks it has, or asks for
 * @param elapsed how long it has run (zero while it waits)
 * @param steps its steps that run now
 */
public record QueuedJob(
    String id,
    String name,
    String user,
    String state,
    String reason,
    String partition,
    String nodes,
    int nodeCount,
    int tasks,
    Duration elapsed,
    List<JobStep> steps) {

  /** What a job's state means to a user, whatever Slurm's word for it. */
  public enum Phase {
    /** Waiting for its nodes or its time. */
    PENDING,
    /** Running (or starting, resizing, being signalled). */
    RUNNING,
    /** Suspended or stopped. */
    SUSPENDED,
    /** Ending: its processes are being cleaned up. */
    COMPLETING,
    /** Ended: completed, failed, cancelled, timed out ... */
    ENDED,
    /** A state this class does not know. */
    UNKNOWN;

    /** The phase of Slurm's job state {@code state} (any case). */
    public static Phase of(String state) {
      return switch (state.strip().toUpperCase(Locale.ROOT)) {
        case "PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD" -> PENDING;
        case "RUNNING", "CONFIGURING", "RESIZING", "SIGNALING", "STAGE_OUT" -> RUNNING;
        case "SUSPENDED", "STOPPED" -> SUSPENDED;
        case "COMPLETING" -> COMPLETING;
        case "COMPLETED",
                "CANCELLED",
                "FAILED",
                "TIMEOUT",
                "NODE_FAIL",
                "PREEMPTED",
                "BOOT_FAIL",
                "DEADLINE",
                "OUT_OF_MEMORY",
                "SPECIAL_EXIT",
                "REVOKED" ->
            ENDED;
        default -> UNKNOWN;
      };
    }
  }

  public QueuedJob {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(nodes, "nodes");
    Objects.requireNonNull(elapsed, "elapsed");
    steps = List.copyOf(steps);
    if (nodeCount < 0 || tasks < 0 || elapsed.isNegative()) {
      throw new IllegalArgumentException(
          "negative counts or time: " + nodeCount + " nodes, " + tasks + " tasks, " + elapsed);
    }
  }

  /** What its state means. */
  public Phase phase() {
    return Phase.of(state);
  }

  /** This job with {@code steps} as its steps. */
  public QueuedJob withSteps(List<JobStep> steps) {
    return new QueuedJob(
        id, name, user, state, reason, partition, nodes, nodeCount, tasks, elapsed, steps);
  }
}
