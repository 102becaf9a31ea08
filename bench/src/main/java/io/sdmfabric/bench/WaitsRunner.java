package io.sdmfabric.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The time from asking for the stacks of a hanging MPI job to the report, with and without the MPI
 * wait-for graph ({@code bench/run waits [--ranks 8,32,64] [--reps 10] [--launcher mpirun]}).
 *
 * <p>For each N: {@code sdm debug --json --launcher L -n N -- mpi_cycle} (examples/mpi_cycle.c:
 * ranks 0-2 in a cycle of sends, the others in a barrier), run until every rank has started, then
 * interrupted; then REPS rounds of {@code bt all} (the stacks of every thread, merged) followed by
 * {@code waits} (the graph), each timed from the command to its completion event. Prints the
 * medians and 99th percentiles: the stacks alone, the graph alone, both.
 */
public final class WaitsRunner {
  private WaitsRunner() {}

  public static void main(String[] args) throws Exception {
    String launcher = "mpirun";
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--launcher")) {
        launcher = args[++i];
      } else {
        rest.add(args[i]);
      }
    }
    RunnerOptions options =
        RunnerOptions.parse(rest.toArray(String[]::new), List.of(8, 32, 64), 10);
    Path jar = Path.of("cli/target/sdm.jar").toAbsolutePath();
    Path program = Files.createTempDirectory("sdm-waits-bench").resolve("mpi_cycle");
    Process cc =
        new ProcessBuilder("mpicc", "-g", "-O0", "-o", program.toString(), "examples/mpi_cycle.c")
            .inheritIO()
            .start();
    if (cc.waitFor() != 0) {
      throw new IllegalStateException("mpicc failed on examples/mpi_cycle.c");
    }
    System.out.println(
        "launcher ranks reps stacks_p50_ms stacks_p99_ms waits_p50_ms waits_p99_ms"
            + " both_p50_ms deadlock_named");
    for (int n : options.sizes()) {
      run(jar, launcher, program, n, options.reps());
    }
  }

  private static void run(Path jar, String launcher, Path program, int n, int reps)
      throws Exception {
    List<String> command =
        SdmJar.command(
            jar,
            "debug",
            "--json",
            "--launcher",
            launcher,
            "-n",
            Integer.toString(n),
            "--",
            program.toString());
    try (JsonConsole sdm = JsonConsole.start(command)) {
      sdm.send("run\n");
      int started = 0;
      while (started < n) {
        String l = sdm.next();
        if (l.startsWith("{\"event\":\"output\"") && l.contains("started")) {
          started += JsonConsole.count(l);
        }
      }
      Thread.sleep(2_000); // into the cycle and the barrier
      sdm.send("interrupt\n");
      sdm.untilComplete("interrupt");
      sdm.send("wait 60\n");
      sdm.untilComplete("wait");
      double[] stacks = new double[reps];
      double[] waits = new double[reps];
      double[] both = new double[reps];
      boolean named = true;
      for (int i = 0; i < reps; i++) {
        long t0 = System.nanoTime();
        sdm.send("bt all\n");
        sdm.untilComplete("bt");
        long t1 = System.nanoTime();
        sdm.send("waits\n");
        named &=
            sdm.untilComplete("waits").stream()
                .anyMatch(l -> l.contains("\"path\":\"0 -> 1 -> 2 -> 0\""));
        long t2 = System.nanoTime();
        stacks[i] = (t1 - t0) / 1e6;
        waits[i] = (t2 - t1) / 1e6;
        both[i] = (t2 - t0) / 1e6;
      }
      Arrays.sort(stacks);
      Arrays.sort(waits);
      Arrays.sort(both);
      System.out.printf(
          Locale.ROOT,
          "%s %d %d %.1f %.1f %.1f %.1f %.1f %s%n",
          launcher,
          n,
          reps,
          RunnerOptions.percentile(stacks, 50),
          RunnerOptions.percentile(stacks, 99),
          RunnerOptions.percentile(waits, 50),
          RunnerOptions.percentile(waits, 99),
          RunnerOptions.percentile(both, 50),
          named ? "yes" : "no");
      sdm.send("quit\n");
      if (!sdm.process().waitFor(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("sdm did not quit");
      }
    }
  }
}
