package io.sdmfabric.runtime.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A launcher sdm starts jobs with, and how: the ranks under the rank shim with each output line
 * tagged by its rank, and one agent per node of those ranks, each in its family's own options
 * ({@link LauncherFamily}). The user's own options for the launcher pass through untouched, except
 * that the agents' launch leaves out those that place or count the ranks.
 *
 * <p>Open MPI's mpirun places the agents with {@code --map-by ppr:1:node --bind-to none} over the
 * same options (host file, hosts) as the ranks, and passes the session's variables with {@code -x}.
 * MPICH's hydra places them with {@code -ppn 1} and {@code -n} the number of the job's hosts (one
 * when none is named: the job runs here), and passes the variables with {@code -genvlist}. srun
 * starts the ranks first, as a job of their own or a step of the allocation sdm runs in; rank 0's
 * shim prints the job and its nodes, and the agents run as an overlapping step of that job on
 * exactly those nodes.
 *
 * @param command the launcher as the user named it (a name on the PATH or a path): hydra finds its
 *     proxy next to the mpiexec it was started as
 */
public record JobLauncher(String command, LauncherFamily family) {
  /** Open MPI's mpirun, as the name on the PATH. */
  public static final JobLauncher MPIRUN = new JobLauncher("mpirun", LauncherFamily.OPEN_MPI);

  /** Slurm's srun, as the name on the PATH. */
  public static final JobLauncher SRUN = new JobLauncher("srun", LauncherFamily.SLURM);

  private static final Pattern OPEN_MPI_TAG =
      Pattern.compile("^\\[\\d+,(\\d+)\\]<std(?:out|err)>:(.*)$");
  private static final Pattern HYDRA_TAG = Pattern.compile("^\\[(\\d+)\\] (.*)$");
  private static final Pattern SLURM_TAG = Pattern.compile("^\\s*(\\d+): (.*)$");

  /** A line of the job's output, and the rank that wrote it. */
  public record Tagged(int rank, String text) {}

  /** A Slurm job, the nodes of its ranks and how many, as rank 0's shim reports them. */
  public record SlurmJob(String id, String nodes, int nodeCount) {}

  /** mpirun's options that place, rank, bind or count processes; each takes a value. */
  private static final Set<String> MPIRUN_PLACEMENT =
      Set.of(
          "--map-by",
          "-map-by",
          "--rank-by",
          "-rank-by",
          "--bind-to",
          "-bind-to",
          "--npernode",
          "-npernode",
          "-N",
          "--ppr",
          "-ppr",
          "-n",
          "--n",
          "-np",
          "--np",
          "-c",
          "--cpus-per-proc",
          "-cpus-per-proc",
          "--cpus-per-rank",
          "-cpus-per-rank");

  /**
   * hydra's options (one dash; hydra takes two as well) that place, bind or count processes, or tag
   * or redirect their output, and take a value: the agents have their own.
   */
  private static final Set<String> HYDRA_PLACEMENT =
      Set.of(
          "-n",
          "-np",
          "-ppn",
          "-bind-to",
          "-binding",
          "-map-by",
          "-prepend-pattern",
          "-outfile-pattern",
          "-errfile-pattern");

  /** hydra's options of the same kind that take no value. */
  private static final Set<String> HYDRA_PLACEMENT_FLAGS = Set.of("-rr", "-l", "-prepend-rank");

  public JobLauncher {
    Objects.requireNonNull(command, "command");
    Objects.requireNonNull(family, "family");
    if (command.isBlank()) {
      throw new IllegalArgumentException("no launcher command");
    }
  }

  /**
   * The launcher {@code command} (mpirun, mpiexec, srun, or a path), of the family its {@code
   * --version} says.
   *
   * @throws IllegalArgumentException when it is not found or its family is not one sdm speaks
   */
  public static JobLauncher of(String command) {
    return new JobLauncher(command, LauncherFamily.of(command));
  }

  /**
   * The launcher {@code command} of {@code family} when one is named (where its {@code --version}
   * cannot tell), else of the family it says.
   */
  public static JobLauncher of(String command, Optional<LauncherFamily> family) {
    return family.isPresent() ? new JobLauncher(command, family.get()) : of(command);
  }

  /**
   * Whether it serves PMIx tools (PRRTE's, Open MPI 5's mpirun): sdm starts its jobs through the
   * PMIx tool interface, not with a command line of its own.
   */
  public boolean servesPmixTools() {
    return family == LauncherFamily.PRRTE;
  }

  private IllegalStateException viaPmix() {
    return new IllegalStateException(
        command + " is PRRTE's: sdm starts its jobs through the PMIx tool interface");
  }

  /** Whether it is Slurm's srun, which places the job itself. */
  public boolean isSlurm() {
    return family == LauncherFamily.SLURM;
  }

  /** The command that starts {@code size} ranks running {@code shimmed} (the rank shim). */
  public List<String> ranks(List<String> options, int size, List<String> shimmed) {
    List<String> c = new ArrayList<>();
    c.add(command);
    c.addAll(options);
    c.addAll(List.of("-n", Integer.toString(size)));
    c.add(
        switch (family) {
          case OPEN_MPI -> "--tag-output";
          case MPICH -> "-prepend-rank";
          case SLURM -> "--label";
          case PRRTE -> throw viaPmix();
        });
    c.addAll(shimmed);
    return c;
  }

  /**
   * The command that starts one agent ({@code agent}, a java command line) per node of the ranks,
   * with the environment variables {@code exported} (their values stay off the command line); for
   * srun, {@code job} is where the ranks run. The job's hosts come from the options and this
   * process's environment.
   */
  public List<String> agents(
      List<String> options, Optional<SlurmJob> job, List<String> exported, List<String> agent) {
    return agents(options, job, exported, agent, System.getenv());
  }

  /**
   * {@link #agents(List, Optional, List, List)} in the environment {@code env}, where hydra finds
   * the batch allocation's hosts as the ranks' launch does.
   */
  public List<String> agents(
      List<String> options,
      Optional<SlurmJob> job,
      List<String> exported,
      List<String> agent,
      Map<String, String> env) {
    List<String> c = new ArrayList<>();
    c.add(command);
    switch (family) {
      case OPEN_MPI -> {
        c.addAll(withoutPlacement(options));
        c.addAll(List.of("--map-by", "ppr:1:node", "--bind-to", "none"));
        for (String name : exported) {
          c.addAll(List.of("-x", name)); // srun passes the whole environment on by itself
        }
      }
      case MPICH -> {
        c.addAll(withoutHydraPlacement(options));
        int nodes = Math.max(1, (int) JobHosts.of(this, options, env).stream().distinct().count());
        c.addAll(List.of("-n", Integer.toString(nodes), "-ppn", "1"));
        if (!exported.isEmpty()) {
          c.addAll(List.of("-genvlist", String.join(",", exported)));
        }
      }
      case PRRTE -> throw viaPmix();
      case SLURM -> {
        SlurmJob j =
            job.orElseThrow(() -> new IllegalStateException("no Slurm job for the agents"));
        // The counts are explicit: inside a batch allocation srun would otherwise take the job's
        // $SLURM_NTASKS and start that many agents.
        c.addAll(
            List.of(
                "--jobid=" + j.id(),
                "--overlap",
                "--nodelist=" + j.nodes(),
                "--nodes=" + j.nodeCount(),
                "--ntasks=" + j.nodeCount(),
                "--ntasks-per-node=1",
                "--kill-on-bad-exit=0",
                // A node that fails takes its agent, not the others: sdm tells its ranks lost.
                "--no-kill"));
      }
    }
    c.addAll(agent);
    return c;
  }

  /**
   * mpirun's options for the ranks without those that place, rank, bind or count processes (each
   * with its value), which the agents have their own of: the same hosts, one agent per node.
   */
  static List<String> withoutPlacement(List<String> options) {
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < options.size(); i++) {
      String option = options.get(i);
      String name = option.contains("=") ? option.substring(0, option.indexOf('=')) : option;
      if (MPIRUN_PLACEMENT.contains(name)) {
        if (!option.contains("=")) {
          i++; // and its value
        }
      } else {
        kept.add(option);
      }
    }
    return kept;
  }

  /**
   * hydra's options for the ranks without those that place, bind or count processes or tag their
   * output (each with its value): the agents keep the hosts, the launcher ({@code -launcher},
   * {@code -launcher-exec}) and the environment options, and are one per node with output of their
   * own.
   */
  static List<String> withoutHydraPlacement(List<String> options) {
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < options.size(); i++) {
      String option = options.get(i);
      String name = option.startsWith("--") ? option.substring(1) : option;
      if (HYDRA_PLACEMENT_FLAGS.contains(name)) {
        continue;
      }
      if (HYDRA_PLACEMENT.contains(name)) {
        i++; // and its value
      } else {
        kept.add(option);
      }
    }
    return kept;
  }

  /** The rank and text of a line of the ranks' output; empty for the launcher's own lines. */
  public Optional<Tagged> untag(String line) {
    Pattern tag =
        switch (family) {
          case OPEN_MPI -> OPEN_MPI_TAG;
          case MPICH -> HYDRA_TAG;
          case SLURM -> SLURM_TAG;
          case PRRTE -> throw viaPmix();
        };
    Matcher m = tag.matcher(line);
    if (!m.matches()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new Tagged(Integer.parseInt(m.group(1)), m.group(2)));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** The job that rank 0's shim reported in {@code text} ({@link RankShim#JOB_MARKER}). */
  public static Optional<SlurmJob> slurmJob(String text) {
    if (!text.startsWith(RankShim.JOB_MARKER)) {
      return Optional.empty();
    }
    String[] parts = text.substring(RankShim.JOB_MARKER.length()).trim().split("\\s+");
    if (parts.length != 3) {
      return Optional.empty();
    }
    try {
      return Optional.of(new SlurmJob(parts[0], parts[1], Integer.parseInt(parts[2])));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
