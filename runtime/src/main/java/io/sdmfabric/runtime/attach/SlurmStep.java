package io.sdmfabric.runtime.attach;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Slurm job step that {@code sdm attach --slurm} attaches to, as Slurm's own tools describe it:
 * its nodes and number of tasks from {@code scontrol show step} (in the front-end), and each node's
 * processes of it from {@code scontrol listpids} (in the agent on that node, since listpids asks
 * the node's own slurmd). Both behave the same in Slurm 22.05 inside and outside an allocation.
 *
 * @param job the job id
 * @param step the step id within the job
 */
public record SlurmStep(String job, String step) {
  private static final Logger log = LoggerFactory.getLogger(SlurmStep.class);
  private static final Pattern ID = Pattern.compile("\\d+(_\\d+)?");
  private static final long SCONTROL_SECONDS = 30;

  /**
   * What {@code scontrol show step} says of a running step.
   *
   * @param nodes the step's node list, in Slurm's notation (e.g. {@code node[1-4]})
   * @param nodeCount how many nodes that list names
   * @param tasks how many tasks (ranks) the step has
   */
  public record Description(String nodes, int nodeCount, int tasks) {}

  /** One task of the step on this node: the process to attach to and its task id (its rank). */
  public record Task(long pid, int globalId) {}

  /** One line of {@code scontrol listpids}. */
  record Listed(long pid, int globalId) {}

  public SlurmStep {
    Objects.requireNonNull(job, "job");
    Objects.requireNonNull(step, "step");
    if (!ID.matcher(job).matches() || !step.matches("\\d+")) {
      throw new IllegalArgumentException(
          "\"" + job + "." + step + "\" is not a job step: give JOBID or JOBID.STEP, e.g. 1234.0");
    }
  }

  /**
   * {@code JOBID} (step 0) or {@code JOBID.STEP}.
   *
   * @throws IllegalArgumentException for anything else
   */
  public static SlurmStep parse(String text) {
    int dot = text.lastIndexOf('.');
    try {
      return dot < 0
          ? new SlurmStep(text, "0")
          : new SlurmStep(text.substring(0, dot), text.substring(dot + 1));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "\"" + text + "\" is not a job step: give JOBID or JOBID.STEP, e.g. 1234.0", e);
    }
  }

  /** {@code JOBID.STEP}. */
  public String id() {
    return job + "." + step;
  }

  /**
   * The step's nodes and number of tasks.
   *
   * @throws IOException when scontrol cannot run, knows no such step, or the step does not run
   */
  public Description describe() throws IOException {
    return parseShow(id(), scontrol("show", "step", "-o", id()));
  }

  /** Reads {@code scontrol show step -o}: one line of {@code KEY=VALUE} words. */
  static Description parseShow(String id, String text) throws IOException {
    Map<String, String> fields = new HashMap<>();
    for (String word : text.strip().split("\\s+")) {
      int eq = word.indexOf('=');
      if (eq > 0) {
        fields.putIfAbsent(word.substring(0, eq), word.substring(eq + 1));
      }
    }
    String state = fields.getOrDefault("State", "");
    String nodes = fields.getOrDefault("NodeList", "");
    String tasks = fields.getOrDefault("Tasks", "");
    String nodeCount = fields.getOrDefault("Nodes", "");
    if (!state.equals("RUNNING")) {
      throw new IOException(
          "Slurm job step " + id + " is " + (state.isEmpty() ? "not running" : state));
    }
    try {
      int n = Integer.parseInt(tasks);
      int k = Integer.parseInt(nodeCount);
      if (nodes.isEmpty() || n < 1 || k < 1) {
        throw new NumberFormatException();
      }
      return new Description(nodes, k, n);
    } catch (NumberFormatException e) {
      throw new IOException(
          "scontrol show step " + id + " did not say its nodes and tasks: " + text.strip());
    }
  }

  /**
   * This node's tasks of the step, one process each, from {@code scontrol listpids}.
   *
   * @throws IOException when scontrol cannot run or knows no such step here
   */
  public List<Task> localTasks() throws IOException {
    List<Listed> listed = parseListPids(scontrol("listpids", id()));
    return onePerTask(
        listed,
        pid ->
            ProcessHandle.of(pid)
                .flatMap(ProcessHandle::parent)
                .map(ProcessHandle::pid)
                .orElse(-1L));
  }

  /** Reads {@code scontrol listpids}: a header, then {@code PID JOBID STEPID LOCALID GLOBALID}. */
  static List<Listed> parseListPids(String text) {
    List<Listed> listed = new ArrayList<>();
    for (String line : text.lines().toList()) {
      String[] words = line.strip().split("\\s+");
      if (words.length >= 5 && words[0].matches("\\d+") && words[4].matches("\\d+")) {
        listed.add(new Listed(Long.parseLong(words[0]), Integer.parseInt(words[4])));
      }
    }
    return listed;
  }

  /**
   * One process per task: a task may be a shell and the program it started, and listpids lists
   * both; the program is the one without a child among them. Of several such (a program that
   * forked), the lowest pid, with a warning naming the others.
   */
  static List<Task> onePerTask(List<Listed> listed, LongFunction<Long> parentOf) {
    Map<Integer, List<Long>> byTask = new TreeMap<>();
    for (Listed l : listed) {
      byTask.computeIfAbsent(l.globalId(), t -> new ArrayList<>()).add(l.pid());
    }
    List<Task> tasks = new ArrayList<>();
    byTask.forEach(
        (task, pids) -> {
          List<Long> parents = pids.stream().map(parentOf::apply).toList();
          List<Long> leaves = pids.stream().filter(p -> !parents.contains(p)).sorted().toList();
          List<Long> candidates = leaves.isEmpty() ? pids.stream().sorted().toList() : leaves;
          if (candidates.size() > 1) {
            log.warn(
                "task {} of the step has processes {}; attaching to {}",
                task,
                candidates,
                candidates.get(0));
          }
          tasks.add(new Task(candidates.get(0), task));
        });
    return tasks;
  }

  /** Runs scontrol; its output, or an IOException with its message. */
  private static String scontrol(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("scontrol"));
    command.addAll(List.of(args));
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new IOException(
          "cannot run scontrol: is Slurm installed here? (" + e.getMessage() + ")", e);
    }
    p.getOutputStream().close();
    CompletableFuture<String> out =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
              } catch (IOException e) {
                return "";
              }
            });
    try {
      if (!p.waitFor(SCONTROL_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(String.join(" ", command) + " did not answer in time");
      }
      String text = out.get(5, TimeUnit.SECONDS);
      if (p.exitValue() != 0) {
        throw new IOException(
            "no Slurm job step "
                + args[args.length - 1]
                + Optional.of(text.strip())
                    .filter(t -> !t.isEmpty())
                    .map(t -> " (scontrol: " + t + ")")
                    .orElse(""));
      }
      return text;
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running scontrol", e);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IOException("cannot read what scontrol said: " + e.getMessage(), e);
    }
  }
}
