package io.sdmfabric.bench;

import java.util.Arrays;
import java.util.List;

/**
 * The options the table-printing runners share: {@code --ranks N,N,...} and {@code --reps N}.
 *
 * @param sizes the rank counts to run, in order
 * @param reps repetitions per measurement; 0 lets the runner choose
 */
record RunnerOptions(List<Integer> sizes, int reps) {
  RunnerOptions {
    sizes = List.copyOf(sizes);
  }

  /** Reads the arguments over the defaults given. */
  static RunnerOptions parse(String[] args, List<Integer> defaultSizes, int defaultReps) {
    List<Integer> sizes = defaultSizes;
    int reps = defaultReps;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--ranks" ->
            sizes = Arrays.stream(args[++i].split(",")).map(Integer::parseInt).toList();
        case "--reps" -> reps = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    return new RunnerOptions(sizes, reps);
  }

  /** The {@code p}th percentile of sorted samples (nearest rank). */
  static double percentile(double[] sorted, int p) {
    int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }
}
