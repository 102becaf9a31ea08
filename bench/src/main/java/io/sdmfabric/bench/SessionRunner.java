package io.sdmfabric.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Real-gdb sessions as a user runs them: {@code sdm debug --json} on N ranks of {@code
 * examples/ranks.c} in a subprocess, one line per N:
 *
 * <pre>
 * ranks=N launch_to_all_stopped_ms=.. bt_p50_ms=.. bt_p99_ms=.. print_p50_ms=.. print_p99_ms=..
 *     quit_ms=.. peak_rss_mb=..
 * </pre>
 *
 * launch = from starting the JVM to the last rank's stop at the breakpoint (gdbs started, program
 * loaded, run); bt and print = from writing the command to its {@code complete} event; print is of
 * a value that differs on every rank; peak RSS = the largest sum of RSS over the JVM, its gdbs and
 * the programs, sampled every 20 ms. Run with {@code bench/run session --ranks 1,4,8,16,32}.
 */
public final class SessionRunner {
  private SessionRunner() {}

  public static void main(String[] args) throws Exception {
    RunnerOptions options = RunnerOptions.parse(args, List.of(1, 4, 8, 16, 32), 30);
    List<Integer> sizes = options.sizes();
    int reps = options.reps();
    Path jar = Path.of("launchers/target/sdm.jar").toAbsolutePath();
    Path dir = Files.createTempDirectory("sdm-session-bench");
    Path program = dir.resolve("ranks");
    Process gcc =
        new ProcessBuilder("gcc", "-g", "-O0", "-o", program.toString(), "examples/ranks.c")
            .inheritIO()
            .start();
    if (gcc.waitFor() != 0) {
      throw new IllegalStateException("gcc failed");
    }
    for (int n : sizes) {
      run(jar, program, n, reps);
    }
  }

  private static void run(Path jar, Path program, int n, int reps) throws Exception {
    long start = System.nanoTime();
    Process sdm =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                jar.toString(),
                "debug",
                "--json",
                "-n",
                Integer.toString(n),
                program.toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    AtomicLong peakRss = new AtomicLong();
    Thread sampler = new Thread(() -> sampleRss(sdm.toHandle(), peakRss));
    sampler.setDaemon(true);
    sampler.start();
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(sdm.getInputStream(), StandardCharsets.UTF_8))) {
                for (String l = r.readLine(); l != null; l = r.readLine()) {
                  lines.add(l);
                }
              } catch (IOException e) {
                // The process ended.
              }
            });
    reader.setDaemon(true);
    reader.start();
    OutputStream in = sdm.getOutputStream();
    try {
      send(in, "break compute\nrun\n");
      int stopped = 0;
      while (stopped < n) {
        String l = next(lines);
        if (l.startsWith("{\"event\":\"stopped\"")) {
          stopped += count(l);
        }
      }
      double launchMs = (System.nanoTime() - start) / 1e6;
      double[] bt = roundTrips(in, lines, "bt", reps);
      double[] print = roundTrips(in, lines, "print rank", reps);
      long quitStart = System.nanoTime();
      send(in, "quit\n");
      if (!sdm.waitFor(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("sdm did not quit");
      }
      double quitMs = (System.nanoTime() - quitStart) / 1e6;
      System.out.printf(
          Locale.ROOT,
          "ranks=%d launch_to_all_stopped_ms=%.0f bt_p50_ms=%.2f bt_p99_ms=%.2f"
              + " print_p50_ms=%.2f print_p99_ms=%.2f quit_ms=%.0f peak_rss_mb=%d%n",
          n,
          launchMs,
          RunnerOptions.percentile(bt, 50),
          RunnerOptions.percentile(bt, 99),
          RunnerOptions.percentile(print, 50),
          RunnerOptions.percentile(print, 99),
          quitMs,
          peakRss.get() / (1024 * 1024));
    } finally {
      sdm.destroyForcibly();
    }
  }

  private static double[] roundTrips(
      OutputStream in, BlockingQueue<String> lines, String command, int reps) throws Exception {
    String word = command.split(" ")[0];
    double[] ms = new double[reps];
    for (int i = 0; i < reps; i++) {
      long t = System.nanoTime();
      send(in, command + "\n");
      while (!next(lines)
          .equals("{\"event\":\"complete\",\"ranks\":\"\",\"command\":\"" + word + "\"}")) {
        // Replies of the command; its completion ends the round trip.
      }
      ms[i] = (System.nanoTime() - t) / 1e6;
    }
    Arrays.sort(ms);
    return ms;
  }

  private static void send(OutputStream in, String text) throws IOException {
    in.write(text.getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  private static String next(BlockingQueue<String> lines) throws InterruptedException {
    String l = lines.poll(120, TimeUnit.SECONDS);
    if (l == null) {
      throw new IllegalStateException("no output from sdm for 2 minutes");
    }
    return l;
  }

  /** The number of ranks in an event line's "ranks" field. */
  private static int count(String line) {
    int i = line.indexOf("\"ranks\":\"") + 9;
    String set = line.substring(i, line.indexOf('"', i));
    int total = 0;
    for (String item : set.split(",")) {
      String[] ends = item.split("-");
      total += ends.length == 1 ? 1 : Integer.parseInt(ends[1]) - Integer.parseInt(ends[0]) + 1;
    }
    return total;
  }

  private static void sampleRss(ProcessHandle root, AtomicLong peak) {
    while (root.isAlive()) {
      long sum = rss(root.pid());
      List<ProcessHandle> all = new ArrayList<>();
      root.descendants().forEach(all::add);
      for (ProcessHandle p : all) {
        sum += rss(p.pid());
      }
      peak.accumulateAndGet(sum, Math::max);
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private static long rss(long pid) {
    try {
      for (String l : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (l.startsWith("VmRSS:")) {
          return Long.parseLong(l.replaceAll("\\D", "")) * 1024;
        }
      }
    } catch (IOException | NumberFormatException e) {
      // Gone.
    }
    return 0;
  }
}
