package io.sdmfabric.runtime.attach;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a process stands in its MPI job, as the job's launcher wrote it into the process's
 * environment ({@code /proc/PID/environ}, the environment the process was started with): its rank
 * from the first of {@value #RANK_NAMES} that is set, the job's size from the first of {@value
 * #SIZE_NAMES}, and what names the job, so that processes of different jobs are not mixed up.
 *
 * @param rank the process's rank in its job
 * @param size the number of ranks of the job; 0 when the environment does not say
 * @param job the PMIx namespace, or else the Slurm job step ({@code JOBID.STEP}); empty when the
 *     environment has neither
 */
public record RankEnvironment(int rank, int size, String job) {
  /** Where the rank comes from, first found first: OpenMPI, PMIx, PMI (MPICH), Slurm. */
  static final List<String> RANK_VARIABLES =
      List.of("OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID");

  /** Where the job's size comes from, first found first. */
  static final List<String> SIZE_VARIABLES =
      List.of("OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE", "SLURM_NTASKS", "SLURM_NPROCS");

  /** What names the job. */
  static final List<String> JOB_VARIABLES =
      List.of("PMIX_NAMESPACE", "SLURM_JOB_ID", "SLURM_STEP_ID");

  static final String RANK_NAMES = "OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK or SLURM_PROCID";
  static final String SIZE_NAMES =
      "OMPI_COMM_WORLD_SIZE, PMIX_SIZE, PMI_SIZE, SLURM_NTASKS or SLURM_NPROCS";

  public RankEnvironment {
    Objects.requireNonNull(job, "job");
    if (rank < 0 || size < 0 || (size > 0 && rank >= size)) {
      throw new IllegalArgumentException("rank " + rank + " does not fit a job of size " + size);
    }
  }

  /** Every variable this class reads, for a remote shell to pick out of a process's environment. */
  static List<String> variables() {
    List<String> all = new java.util.ArrayList<>(RANK_VARIABLES);
    all.addAll(SIZE_VARIABLES);
    all.addAll(JOB_VARIABLES);
    return List.copyOf(all);
  }

  /**
   * The rank, size and job that {@code env} gives; empty when it has no rank variable.
   *
   * @throws IllegalArgumentException when a variable holds no number, or a rank past the size
   */
  static Optional<RankEnvironment> of(Map<String, String> env) {
    Optional<Integer> rank = first(env, RANK_VARIABLES);
    if (rank.isEmpty()) {
      return Optional.empty();
    }
    int size = first(env, SIZE_VARIABLES).orElse(0);
    String job = env.getOrDefault("PMIX_NAMESPACE", "");
    if (job.isEmpty() && env.containsKey("SLURM_JOB_ID") && env.containsKey("SLURM_STEP_ID")) {
      job = env.get("SLURM_JOB_ID") + "." + env.get("SLURM_STEP_ID");
    }
    return Optional.of(new RankEnvironment(rank.get(), size, job));
  }

  private static Optional<Integer> first(Map<String, String> env, List<String> names) {
    for (String name : names) {
      String value = env.get(name);
      if (value != null) {
        try {
          int n = Integer.parseInt(value.strip());
          if (n < 0) {
            throw new NumberFormatException();
          }
          return Optional.of(n);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(name + "=" + value + " is not a rank or a size");
        }
      }
    }
    return Optional.empty();
  }

  /** The variables of {@code /proc/PID/environ}: {@code NAME=VALUE} entries, each ending in NUL. */
  static Map<String, String> parse(byte[] environ) {
    Map<String, String> env = new HashMap<>();
    int start = 0;
    for (int i = 0; i <= environ.length; i++) {
      if (i == environ.length || environ[i] == 0) {
        String entry = new String(environ, start, i - start, StandardCharsets.UTF_8);
        int eq = entry.indexOf('=');
        if (eq > 0) {
          env.putIfAbsent(entry.substring(0, eq), entry.substring(eq + 1));
        }
        start = i + 1;
      }
    }
    return env;
  }

  /**
   * The rank of process {@code pid} of this host, from its environment.
   *
   * @throws IOException saying why there is none: no such process, an environment that cannot be
   *     read, or one without a rank
   */
  public static RankEnvironment ofProcess(long pid) throws IOException {
    Path proc = Path.of("/proc", Long.toString(pid));
    if (pid <= 0 || !Files.isDirectory(proc)) {
      throw new IOException("no process " + pid);
    }
    String executable = executable(pid);
    byte[] environ;
    try {
      environ = Files.readAllBytes(proc.resolve("environ"));
    } catch (NoSuchFileException e) {
      throw new IOException("no process " + pid, e);
    } catch (AccessDeniedException e) {
      throw new IOException(
          "cannot read the environment of process " + pid + " (" + executable + "): not yours", e);
    }
    return check(Long.toString(pid), executable, parse(environ));
  }

  /**
   * The rank that {@code env}, the environment of process {@code name} running {@code executable},
   * gives.
   *
   * @throws IOException when it gives none, or a malformed one, saying which process it is
   */
  static RankEnvironment check(String name, String executable, Map<String, String> env)
      throws IOException {
    String process = "process " + name + (executable.isEmpty() ? "" : " (" + executable + ")");
    try {
      return of(env)
          .orElseThrow(
              () ->
                  new IOException(
                      process + " has no MPI rank in its environment (" + RANK_NAMES + ")"));
    } catch (IllegalArgumentException e) {
      throw new IOException(process + ": " + e.getMessage(), e);
    }
  }

  /** The program process {@code pid} runs, as {@code /proc/PID/exe} links it, or its name. */
  static String executable(long pid) {
    Path proc = Path.of("/proc", Long.toString(pid));
    try {
      return Files.readSymbolicLink(proc.resolve("exe")).toString();
    } catch (IOException | UnsupportedOperationException e) {
      try {
        return Files.readString(proc.resolve("comm")).strip();
      } catch (IOException again) {
        return "";
      }
    }
  }
}
