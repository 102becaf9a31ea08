package io.sdmfabric.bench;

import java.util.Arrays;
import java.util.List;

/**
 * The options the table-printing runners share: {@code --ranks N,N,...}, {@code --reps N} and, for
 * the runners that start agent JVMs, {@code --agents J,J,...}.
 *
 * @param sizes the rank counts to run, in order (for the agents runner: ranks per agent)
 * @param agents the agent JVM counts to run, in order; empty for runners without agents
 * @param reps repetitions per measurement; 0 lets the runner choose
 */
record RunnerOptions(List<Integer> sizes, List<Integer> agents, int reps) {
  RunnerOptions {
    sizes = List.copyOf(sizes);
    agents = List.copyOf(agents);
  }

  /** Reads the arguments over the defaults given, for a runner without agents. */
  static RunnerOptions parse(String[] args, List<Integer> defaultSizes, int defaultReps) {
    return parse(args, defaultSizes, List.of(), defaultReps);
  }

  /**
   * Reads the arguments over the defaults given; {@code --agents} is accepted only when there are
   * default agent counts.
   */
  static RunnerOptions parse(
      String[] args, List<Integer> defaultSizes, List<Integer> defaultAgents, int defaultReps) {
    List<Integer> sizes = defaultSizes;
    List<Integer> agents = defaultAgents;
    int reps = defaultReps;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--ranks" -> sizes = numbers(args[++i]);
        case "--agents" -> {
          if (defaultAgents.isEmpty()) {
            throw new IllegalArgumentException("this runner starts no agents: --agents");
          }
          agents = numbers(args[++i]);
        }
        case "--reps" -> reps = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    return new RunnerOptions(sizes, agents, reps);
  }

  private static List<Integer> numbers(String list) {
    return Arrays.stream(list.split(",")).map(Integer::parseInt).toList();
  }

  /** The {@code p}th percentile of sorted samples (nearest rank). */
  static double percentile(double[] sorted, int p) {
    int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }
}
