package io.sdmfabric.runtime.cluster;

import io.sdmfabric.model.JobStep;
import io.sdmfabric.model.QueuedJob;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Slurm's jobs and steps as {@link QueuedJob}s, read from Slurm 22.05's own commands: the jobs from
 * {@code squeue --json} (openapi v0.0.38, which lists every job slurmctld still holds, ended ones
 * too, and ignores squeue's filters), the running steps from {@code scontrol show step -o} (22.05
 * has no JSON for steps: {@code squeue --steps --json} prints the jobs).
 */
final class SlurmJobs {
  private SlurmJobs() {}

  /**
   * The jobs of {@code squeue --json}'s output, in its order; {@code now} is when it was taken (a
   * running job's time is counted to it).
   *
   * @throws IllegalArgumentException for output that is not squeue's JSON, or that reports errors
   */
  static List<QueuedJob> parseQueue(String json, Instant now) {
    SlurmFields top = SlurmFields.parse(json, "squeue's answer");
    List<SlurmFields> errors = top.list("errors");
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(errors.get(0).string("error"));
    }
    List<QueuedJob> jobs = new ArrayList<>();
    for (SlurmFields j : top.list("jobs")) {
      String state = j.string("job_state");
      String reason = j.string("state_reason");
      jobs.add(
          new QueuedJob(
              id(j),
              j.string("name"),
              j.string("user_name"),
              state,
              reason.equals("None") ? "" : reason,
              j.string("partition"),
              j.string("nodes"),
              (int) j.number("node_count", 0),
              (int) j.number("tasks", 0),
              elapsed(QueuedJob.Phase.of(state), j, now),
              List.of()));
    }
    return jobs;
  }

  /** {@code JOB}, or {@code ARRAYJOB_TASK} for a task of an array job, as squeue writes it. */
  private static String id(SlurmFields j) {
    long array = j.number("array_job_id", 0);
    if (array > 0 && j.isSet("array_task_id")) {
      return array + "_" + j.number("array_task_id", 0);
    }
    return Long.toString(j.number("job_id", 0));
  }

  /**
   * How long it ran: to now while it runs, to its end once it ends (a completing job has ended; its
   * processes are being cleaned up), none while it waits.
   */
  private static Duration elapsed(QueuedJob.Phase phase, SlurmFields j, Instant now) {
    long start = j.number("start_time", 0);
    long end =
        switch (phase) {
          case RUNNING, SUSPENDED -> now.getEpochSecond();
          case COMPLETING, ENDED -> j.number("end_time", 0);
          case PENDING, UNKNOWN -> start;
        };
    return Duration.ofSeconds(start <= 0 ? 0 : Math.max(0, end - start));
  }

  /**
   * The steps of {@code scontrol show step -o}'s output by their job's id, each job's in Slurm's
   * order. {@code No job steps in the system} is none.
   *
   * @throws IllegalArgumentException for a line without a step id or with counts that are not
   *     numbers
   */
  static Map<String, List<JobStep>> parseSteps(String text) {
    Map<String, List<JobStep>> byJob = new LinkedHashMap<>();
    for (String line : text.lines().map(String::strip).toList()) {
      if (line.isEmpty() || line.startsWith("No job steps")) {
        continue;
      }
      Map<String, String> w = SlurmFields.words(line);
      String id = w.getOrDefault("StepId", "");
      int dot = id.lastIndexOf('.');
      if (dot <= 0) {
        throw new IllegalArgumentException("a step without a StepId: " + line);
      }
      JobStep step =
          new JobStep(
              id,
              w.getOrDefault("Name", ""),
              w.getOrDefault("State", ""),
              w.getOrDefault("NodeList", ""),
              count(w, "Nodes", line),
              count(w, "Tasks", line));
      byJob.computeIfAbsent(id.substring(0, dot), k -> new ArrayList<>()).add(step);
    }
    return byJob;
  }

  private static int count(Map<String, String> w, String key, String line) {
    try {
      return Integer.parseInt(w.getOrDefault(key, "0"));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("a step's " + key + " is not a number: " + line, e);
    }
  }
}
