package io.sdmfabric.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reverse connect as a user meets it: a front-end ({@code sdm listen}) already running, then {@code
 * sdm connect LAUNCHER -n N PROGRAM} as a batch script would run it, the front-end accepting at
 * once. Beside it, the same job started directly ({@code sdm debug --launcher}), so that what
 * reverse connect adds shows side by side. One line per launcher and N, medians over the reps:
 *
 * <pre>
 * launcher=L ranks=N seen_ms=.. connected_ms=.. ready_ms=.. loaded_ms=.. direct_loaded_ms=..
 * </pre>
 *
 * All from the moment the request file appears (for the direct start: from the start of its JVM):
 * seen = the front-end has announced it; connected = the master's first progress line reached the
 * front-end (it was accepted, dialed and authenticated); ready = the session's welcome; loaded =
 * every rank answered the console's first command. Options: {@code --launcher mpirun,srun}, {@code
 * --program NAME} ({@code examples/NAME.c}, built with mpicc), {@code --ranks}, {@code --reps}.
 */
public final class ConnectRunner {
  private ConnectRunner() {}

  /** When each mark was reached, in ms after the start. */
  private record Marks(double seen, double connected, double ready, double loaded) {}

  public static void main(String[] args) throws Exception {
    List<String> launchers = List.of("mpirun");
    String name = "mpi_reduce";
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--launcher" -> launchers = List.of(args[++i].split(","));
        case "--program" -> name = args[++i];
        default -> rest.add(args[i]);
      }
    }
    RunnerOptions options = RunnerOptions.parse(rest.toArray(String[]::new), List.of(4, 16), 3);
    Path jar = Path.of("cli/target/sdm.jar").toAbsolutePath();
    Path dir = Files.createTempDirectory("sdm-connect-bench");
    Path program = dir.resolve(name);
    Process cc =
        new ProcessBuilder(
                "mpicc", "-g", "-O0", "-o", program.toString(), "examples/" + name + ".c")
            .inheritIO()
            .start();
    if (cc.waitFor() != 0) {
      throw new IllegalStateException("mpicc failed on examples/" + name + ".c");
    }
    try {
      run(jar, dir, launchers, program, options);
    } finally {
      try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static void run(
      Path jar, Path dir, List<String> launchers, Path program, RunnerOptions options)
      throws Exception {
    for (int n : options.sizes()) {
      for (String launcher : launchers) {
        List<Marks> marks = new ArrayList<>();
        double[] direct = new double[options.reps()];
        for (int r = 0; r < options.reps(); r++) {
          marks.add(reverse(jar, dir, launcher, program, n));
          direct[r] = direct(jar, launcher, program, n);
        }
        System.out.printf(
            Locale.ROOT,
            "launcher=%s ranks=%d seen_ms=%.0f connected_ms=%.0f ready_ms=%.0f loaded_ms=%.0f"
                + " direct_loaded_ms=%.0f%n",
            launcher,
            n,
            median(marks.stream().mapToDouble(Marks::seen).toArray()),
            median(marks.stream().mapToDouble(Marks::connected).toArray()),
            median(marks.stream().mapToDouble(Marks::ready).toArray()),
            median(marks.stream().mapToDouble(Marks::loaded).toArray()),
            median(direct));
      }
    }
  }

  private static Marks reverse(Path jar, Path dir, String launcher, Path program, int n)
      throws Exception {
    Path home =
        Files.createTempDirectory(
            dir,
            "home",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    ProcessBuilder listenBuilder = new ProcessBuilder(java(jar, "listen", "--batch"));
    listenBuilder.environment().put("SDM_HOME", home.toString());
    listenBuilder.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process listen = listenBuilder.start();
    Process connect = null;
    try {
      BlockingQueue<Stamped> lines = stamped(listen);
      until(lines, "sdm listen: waiting");
      send(listen.getOutputStream(), "requests wait 300\naccept\n");
      ProcessBuilder connectBuilder =
          new ProcessBuilder(
              java(jar, "connect", launcher, "-n", Integer.toString(n), program.toString()));
      connectBuilder.environment().put("SDM_HOME", home.toString());
      connectBuilder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
      connectBuilder.redirectError(ProcessBuilder.Redirect.DISCARD);
      connect = connectBuilder.start();
      long written = awaitRequest(home.resolve("connect"));
      double seen = ms(written, until(lines, "request ").at());
      double connected = ms(written, until(lines, ": master on ").at());
      double ready = ms(written, until(lines, "session 1: ").at());
      double loaded = ms(written, until(lines, "] loaded ").at());
      send(listen.getOutputStream(), "quit\nexit\n");
      listen.getOutputStream().close();
      if (!listen.waitFor(60, TimeUnit.SECONDS) || !connect.waitFor(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("sdm listen or sdm connect did not end");
      }
      return new Marks(seen, connected, ready, loaded);
    } finally {
      listen.destroyForcibly();
      if (connect != null) {
        connect.destroyForcibly();
        connect.descendants().forEach(ProcessHandle::destroyForcibly);
      }
    }
  }

  /** From the start of {@code sdm debug --launcher} to every rank's load answer. */
  private static double direct(Path jar, String launcher, Path program, int n) throws Exception {
    long start = System.nanoTime();
    Process sdm =
        new ProcessBuilder(
                java(
                    jar,
                    "debug",
                    "--launcher",
                    launcher,
                    "-n",
                    Integer.toString(n),
                    "--",
                    program.toString()))
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      BlockingQueue<Stamped> lines = stamped(sdm);
      double loaded = ms(start, until(lines, "] loaded ").at());
      send(sdm.getOutputStream(), "quit\n");
      sdm.getOutputStream().close();
      if (!sdm.waitFor(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("sdm debug did not quit");
      }
      return loaded;
    } finally {
      sdm.destroyForcibly();
      sdm.descendants().forEach(ProcessHandle::destroyForcibly);
    }
  }

  /** A line of output and when it was read. */
  private record Stamped(String line, long at) {}

  private static BlockingQueue<Stamped> stamped(Process p) {
    BlockingQueue<Stamped> lines = new LinkedBlockingQueue<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String l = r.readLine(); l != null; l = r.readLine()) {
                  lines.add(new Stamped(l, System.nanoTime()));
                }
              } catch (IOException e) {
                // The process ended.
              }
            });
    reader.setDaemon(true);
    reader.start();
    return lines;
  }

  /** The first line from now on that contains {@code text}. */
  private static Stamped until(BlockingQueue<Stamped> lines, String text) throws Exception {
    while (true) {
      Stamped s = lines.poll(300, TimeUnit.SECONDS);
      if (s == null) {
        throw new IllegalStateException("no line with \"" + text + "\" within 5 minutes");
      }
      if (s.line().contains(text)) {
        return s;
      }
    }
  }

  /** When the request file appeared, watched every millisecond. */
  private static long awaitRequest(Path dir) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (Files.isDirectory(dir)) {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.request")) {
          if (files.iterator().hasNext()) {
            return System.nanoTime();
          }
        }
      }
      Thread.sleep(1);
    }
    throw new IllegalStateException("sdm connect wrote no request within 60 s");
  }

  private static List<String> java(Path jar, String... args) {
    return SdmJar.command(jar, args);
  }

  private static void send(OutputStream in, String text) throws IOException {
    in.write(text.getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  private static double ms(long from, long to) {
    return (to - from) / 1e6;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return RunnerOptions.percentile(sorted, 50);
  }
}
