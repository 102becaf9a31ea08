package io.sdmfabric.cli;

import io.sdmfabric.model.JobStep;
import io.sdmfabric.model.LauncherJob;
import io.sdmfabric.model.QueuedJob;
import io.sdmfabric.model.Shell;
import io.sdmfabric.model.TerminalText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code sdm jobs} shows: the user's Slurm jobs with their steps (or why there are none), and
 * the user's jobs of mpirun, mpiexec and prterun on this host; beside each step or job that can be
 * attached to, the {@code sdm attach} and {@code sdm stacks} command lines that do it. Text from
 * Slurm and from command lines is escaped ({@link TerminalText}).
 *
 * @param user whose jobs these are
 * @param slurmJobs the Slurm jobs; empty when Slurm could not be read
 * @param slurmProblem why Slurm could not be read (Slurm not on this host); empty when it was read
 * @param local the launcher jobs of this host
 */
record JobsReport(
    String user, List<QueuedJob> slurmJobs, String slurmProblem, List<LauncherJob> local) {

  /** The longest command line of a launcher shown whole in text. */
  private static final int LONGEST = 160;

  JobsReport {
    slurmJobs = List.copyOf(slurmJobs);
    local = List.copyOf(local);
  }

  /** The command line that attaches to {@code step}, if it runs tasks. */
  static Optional<String> attach(JobStep step) {
    return step.runsTasks() ? Optional.of("sdm attach --slurm " + step.id()) : Optional.empty();
  }

  /** The command line that samples the stacks of {@code step}, if it runs tasks. */
  static Optional<String> stacks(JobStep step) {
    return step.runsTasks() ? Optional.of("sdm stacks --slurm " + step.id()) : Optional.empty();
  }

  /**
   * The command line that attaches to {@code job}'s ranks by pid, if it is {@link
   * LauncherJob#attachable}.
   */
  static Optional<String> attach(LauncherJob job) {
    return job.attachable() ? Optional.of("sdm attach " + pids(job)) : Optional.empty();
  }

  /** The command line that samples the stacks of {@code job}'s ranks, if it is attachable. */
  static Optional<String> stacks(LauncherJob job) {
    return job.attachable() ? Optional.of("sdm stacks " + pids(job)) : Optional.empty();
  }

  private static String pids(LauncherJob job) {
    return String.join(",", job.ranks().stream().map(r -> Long.toString(r.pid())).toList());
  }

  String text() {
    StringBuilder b = new StringBuilder();
    b.append("Slurm jobs of ").append(TerminalText.escape(user)).append(':');
    if (!slurmProblem.isEmpty()) {
      b.append(" none (").append(TerminalText.escape(slurmProblem)).append(")\n");
    } else if (slurmJobs.isEmpty()) {
      b.append(" none\n");
    } else {
      b.append('\n');
      slurmJobs.forEach(j -> slurmJob(b, j));
    }
    b.append("Jobs of mpirun, mpiexec and prterun on this host:");
    if (local.isEmpty()) {
      b.append(" none\n");
    } else {
      b.append('\n');
      local.forEach(j -> launcherJob(b, j));
    }
    return b.toString();
  }

  private static void slurmJob(StringBuilder b, QueuedJob j) {
    b.append("  job ")
        .append(j.id())
        .append(' ')
        .append(quoted(j.name()))
        .append(": ")
        .append(TerminalText.escape(j.state()));
    if (!j.reason().isEmpty()) {
      b.append(" (").append(TerminalText.escape(j.reason())).append(')');
    }
    b.append(" in ").append(TerminalText.escape(j.partition()));
    b.append(", ").append(nodes(j.nodeCount(), j.nodes()));
    b.append(", ").append(count(j.tasks(), "task"));
    if (j.phase() != QueuedJob.Phase.PENDING) {
      b.append(", ").append(time(j.elapsed()));
    }
    b.append('\n');
    for (JobStep s : j.steps()) {
      b.append("    step ")
          .append(TerminalText.escape(s.id()))
          .append(' ')
          .append(quoted(s.name()))
          .append(": ")
          .append(TerminalText.escape(s.state()))
          .append(", ")
          .append(nodes(s.nodeCount(), s.nodes()))
          .append(", ")
          .append(count(s.tasks(), "task"))
          .append('\n');
      attach(s).ifPresent(a -> b.append("      attach: ").append(a).append('\n'));
      stacks(s).ifPresent(a -> b.append("      stacks: ").append(a).append('\n'));
    }
  }

  private static void launcherJob(StringBuilder b, LauncherJob j) {
    b.append("  ")
        .append(TerminalText.escape(j.launcher()))
        .append(' ')
        .append(j.pid())
        .append(": ")
        .append(TerminalText.escape(shortened(Shell.join(j.command()))))
        .append('\n');
    if (j.startedBySdm()) {
      b.append("    started by sdm, for a session of its own\n");
      return;
    }
    if (j.ranks().isEmpty()) {
      b.append("    no ranks found on this host\n");
    } else {
      b.append("    ranks ");
      b.append(String.join(",", j.ranks().stream().map(r -> r.rank() + ":" + r.pid()).toList()));
      b.append(" (rank:pid)");
      if (!j.allRanksHere()) {
        b.append(j.size() > 0 ? ", " + j.ranks().size() + " of " + j.size() + " here" : "");
      }
      j.ranks().stream()
          .filter(r -> r.tracerPid() != 0)
          .findFirst()
          .ifPresent(
              r ->
                  b.append(
                      ", being debugged (rank " + r.rank() + " by pid " + r.tracerPid() + ")"));
      b.append('\n');
    }
    attach(j).ifPresent(a -> b.append("    attach: ").append(a).append('\n'));
    stacks(j).ifPresent(a -> b.append("    stacks: ").append(a).append('\n'));
  }

  /**
   * The report as JSON: {@code {"user", "slurm": {"jobs": [...]} or {"error": WHY}, "local":
   * [...]}}; without the jobs' times when {@code withTimes} is false (what {@code --watch}
   * compares).
   */
  Map<String, Object> json(boolean withTimes) {
    Map<String, Object> slurm = new LinkedHashMap<>();
    if (!slurmProblem.isEmpty()) {
      slurm.put("error", slurmProblem);
    } else {
      slurm.put("jobs", slurmJobs.stream().map(j -> json(j, withTimes)).toList());
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("user", user);
    m.put("slurm", slurm);
    m.put("local", local.stream().map(JobsReport::json).toList());
    return m;
  }

  private static Map<String, Object> json(QueuedJob j, boolean withTimes) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", j.id());
    m.put("name", j.name());
    m.put("user", j.user());
    m.put("state", j.state());
    m.put("phase", j.phase().name().toLowerCase(Locale.ROOT));
    m.put("reason", j.reason());
    m.put("partition", j.partition());
    m.put("nodes", j.nodes());
    m.put("nodeCount", j.nodeCount());
    m.put("tasks", j.tasks());
    if (withTimes) {
      m.put("seconds", j.elapsed().toSeconds());
    }
    List<Object> steps = new ArrayList<>();
    for (JobStep s : j.steps()) {
      Map<String, Object> step = new LinkedHashMap<>();
      step.put("id", s.id());
      step.put("name", s.name());
      step.put("state", s.state());
      step.put("nodes", s.nodes());
      step.put("nodeCount", s.nodeCount());
      step.put("tasks", s.tasks());
      attach(s).ifPresent(a -> step.put("attach", a));
      stacks(s).ifPresent(a -> step.put("stacks", a));
      steps.add(step);
    }
    m.put("steps", steps);
    return m;
  }

  private static Map<String, Object> json(LauncherJob j) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("pid", j.pid());
    m.put("launcher", j.launcher());
    m.put("command", j.command());
    m.put("size", j.size());
    List<Object> ranks = new ArrayList<>();
    for (LauncherJob.Rank r : j.ranks()) {
      Map<String, Object> rank = new LinkedHashMap<>();
      rank.put("rank", r.rank());
      rank.put("pid", r.pid());
      rank.put("tracerPid", r.tracerPid());
      ranks.add(rank);
    }
    m.put("ranks", ranks);
    m.put("startedBySdm", j.startedBySdm());
    attach(j).ifPresent(a -> m.put("attach", a));
    stacks(j).ifPresent(a -> m.put("stacks", a));
    return m;
  }

  /** A command line cut to {@value #LONGEST} characters, for one line of text. */
  private static String shortened(String line) {
    return line.length() <= LONGEST ? line : line.substring(0, LONGEST) + " ...";
  }

  private static String quoted(String name) {
    return "\"" + TerminalText.escape(name) + "\"";
  }

  private static String nodes(int count, String list) {
    return count(count, "node") + (list.isEmpty() ? "" : " " + TerminalText.escape(list));
  }

  private static String count(int n, String what) {
    return n + " " + what + (n == 1 ? "" : "s");
  }

  /** {@code M:SS}, {@code H:MM:SS} or {@code D-HH:MM:SS}, as squeue writes a job's time. */
  static String time(Duration d) {
    long s = d.toSeconds();
    long days = s / 86400;
    long h = s / 3600 % 24;
    long m = s / 60 % 60;
    String hms =
        days > 0 || h > 0
            ? String.format("%d:%02d:%02d", h, m, s % 60)
            : String.format("%d:%02d", m, s % 60);
    return days > 0 ? String.format("%d-%02d:%02d:%02d", days, h, m, s % 60) : hms;
  }
}
