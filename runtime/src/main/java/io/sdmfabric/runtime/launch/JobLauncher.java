package io.sdmfabric.runtime.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The launchers sdm starts jobs with, and how: the ranks under the rank shim with each output line
 * tagged by its rank, and one agent per node of those ranks.
 *
 * <p>mpirun (OpenMPI's ORTE) places the agents with {@code --map-by ppr:1:node} over the same
 * options (host file, hosts) as the ranks. srun starts the ranks first, as a job of their own or a
 * step of the allocation sdm runs in; rank 0's shim prints the job and its nodes, and the agents
 * run as an overlapping step of that job on exactly those nodes.
 */
public enum JobLauncher {
  MPIRUN("mpirun", Pattern.compile("^\\[\\d+,(\\d+)\\]<std(?:out|err)>:(.*)$")),
  SRUN("srun", Pattern.compile("^\\s*(\\d+): (.*)$"));

  /** A line of the job's output, and the rank that wrote it. */
  public record Tagged(int rank, String text) {}

  /** A Slurm job, the nodes of its ranks and how many, as rank 0's shim reports them. */
  public record SlurmJob(String id, String nodes, int nodeCount) {}

  /** mpirun's options that place, rank, bind or count processes; each takes a value. */
  private static final java.util.Set<String> MPIRUN_PLACEMENT =
      java.util.Set.of(
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

  private final String command;
  private final Pattern tag;

  JobLauncher(String command, Pattern tag) {
    this.command = command;
    this.tag = tag;
  }

  /** The launcher's command name. */
  public String command() {
    return command;
  }

  /** The launcher called {@code name}. */
  public static JobLauncher named(String name) {
    for (JobLauncher l : values()) {
      if (l.command.equals(name)) {
        return l;
      }
    }
    throw new IllegalArgumentException("unknown launcher " + name + ": use mpirun or srun");
  }

  /** The command that starts {@code size} ranks running {@code shimmed} (the rank shim). */
  public List<String> ranks(List<String> options, int size, List<String> shimmed) {
    List<String> c = new ArrayList<>();
    c.add(command);
    c.addAll(options);
    c.addAll(List.of("-n", Integer.toString(size)));
    c.add(this == MPIRUN ? "--tag-output" : "--label");
    c.addAll(shimmed);
    return c;
  }

  /**
   * The command that starts one agent ({@code agent}, a java command line) per node of the ranks,
   * with the environment variables {@code exported} (their values stay off the command line); for
   * srun, {@code job} is where the ranks run.
   */
  public List<String> agents(
      List<String> options, Optional<SlurmJob> job, List<String> exported, List<String> agent) {
    List<String> c = new ArrayList<>();
    c.add(command);
    if (this == MPIRUN) {
      c.addAll(withoutPlacement(options));
      c.addAll(List.of("--map-by", "ppr:1:node", "--bind-to", "none"));
      for (String name : exported) {
        c.addAll(List.of("-x", name)); // srun passes the whole environment on by itself
      }
    } else {
      SlurmJob j = job.orElseThrow(() -> new IllegalStateException("no Slurm job for the agents"));
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

  /** The rank and text of a line of the ranks' output; empty for the launcher's own lines. */
  public Optional<Tagged> untag(String line) {
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
