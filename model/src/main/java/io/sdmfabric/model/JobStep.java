package io.sdmfabric.model;

import java.util.Objects;

/**
 * A step of a resource manager's job (a Slurm job step, {@code srun} inside an allocation): the
 * processes a debugger attaches to.
 *
 * @param id the step's id, {@code JOBID.STEP}: {@code 1234.0}, {@code 1234.batch}
 * @param name its name (the resource manager's text, to be escaped before it reaches a terminal)
 * @param state its state in Slurm's words: {@code RUNNING}, {@code COMPLETING} ...
 * @param nodes its nodes in Slurm's notation ({@link HostList})
 * @param nodeCount how many nodes those are
 * @param tasks how many tasks (ranks) it runs
 */
public record JobStep(
    String id, String name, String state, String nodes, int nodeCount, int tasks) {
  public JobStep {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(nodes, "nodes");
    if (nodeCount < 0 || tasks < 0) {
      throw new IllegalArgumentException("negative counts: " + nodeCount + " nodes, " + tasks);
    }
  }

  /** The step within its job: {@code 0} of {@code 1234.0}, {@code batch} of {@code 1234.batch}. */
  public String step() {
    return id.substring(id.lastIndexOf('.') + 1);
  }

  /** Whether it runs a program's tasks now: running, and not the batch script or extern step. */
  public boolean runsTasks() {
    return state.equals("RUNNING") && step().chars().allMatch(Character::isDigit);
  }
}
