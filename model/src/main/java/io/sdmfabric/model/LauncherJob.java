package io.sdmfabric.model;

import java.util.List;
import java.util.Objects;

/**
 * A job on this host started by an MPI launcher ({@code mpirun}, {@code mpiexec}, {@code prterun}),
 * without a resource manager's queue: the launcher's process and the ranks found under it.
 *
 * @param pid the launcher's process id
 * @param launcher the launcher's program name, e.g. {@code mpirun}
 * @param command the launcher's command line (the user's text, to be escaped before it reaches a
 *     terminal)
 * @param size the job's number of ranks, as its ranks' environment says; 0 when no rank was found
 * @param ranks the ranks found on this host, in rank order
 * @param startedBySdm whether sdm started it, for a session of its own ({@code sdm debug --launcher
 *     mpirun}: its agents, or the ranks under its rank shim): sdm debugs them already
 */
public record LauncherJob(
    long pid,
    String launcher,
    List<String> command,
    int size,
    List<Rank> ranks,
    boolean startedBySdm) {

  /**
   * A rank of the job on this host.
   *
   * @param rank its rank
   * @param pid its process id
   * @param tracerPid the process that traces it (a debugger), 0 for none
   */
  public record Rank(int rank, long pid, long tracerPid) {
    public Rank {
      if (rank < 0 || pid <= 0 || tracerPid < 0) {
        throw new IllegalArgumentException(
            "rank " + rank + ", pid " + pid + ", tracer " + tracerPid);
      }
    }
  }

  public LauncherJob {
    Objects.requireNonNull(launcher, "launcher");
    command = List.copyOf(command);
    ranks = List.copyOf(ranks);
    if (pid <= 0 || size < 0) {
      throw new IllegalArgumentException("pid " + pid + ", size " + size);
    }
  }

  /** Whether every rank of the job was found here. */
  public boolean allRanksHere() {
    return size > 0 && ranks.size() == size;
  }

  /**
   * Whether a debugger can attach to all of its ranks by pid: they are all here, not sdm's own, and
   * none is traced already.
   */
  public boolean attachable() {
    return allRanksHere() && !startedBySdm && ranks.stream().allMatch(r -> r.tracerPid() == 0);
  }
}
