package io.sdmfabric.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A short embedded start as a user runs it: {@code sdm debug --json -n N} of {@code
 * examples/ranks.c}, {@code break compute}, {@code run}, timed from starting the JVM to the last
 * rank's stop at the breakpoint (issue #30, item 2: 4 ranks against the C SDM's 0.62 s). Each jar
 * of {@code --jars} runs plain ({@code java -jar}) and with a class-data archive recorded by an
 * untimed first run of that jar ({@code cds}: {@code -XX:SharedArchiveFile}, as {@code ./sdm} runs
 * it), the jars and modes interleaved in every repetition so that they meet the same load. One line
 * per run, then the medians:
 *
 * <pre>
 * rep=R mode=plain|cds jar=NAME launch_to_all_stopped_ms=.. jvm_cpu_ms=.. gdb_cpu_ms=..
 * median mode=M jar=NAME launch_to_all_stopped_ms=.. jvm_cpu_ms=.. (of R runs)
 * </pre>
 *
 * CPU = user and system time of sdm's JVM and of its gdbs when the last rank has stopped. With
 * {@code --timeline}, each run also logs its class loads ({@code -Xlog:class+load}, which costs a
 * little) and prints where the time went, in milliseconds from starting the JVM: {@code main}
 * (sdm's Main loaded), {@code session} (SessionFactory loaded: the command line is parsed), {@code
 * pekko} (Pekko's actor system class loaded) and {@code tree} (the tree's first node), {@code
 * gdb_exec} (the first gdb's process started, from /proc, 10 ms ticks), {@code gdbs_ready} (the
 * progress event saying every rank has a gdb), {@code master} (the session event), {@code loaded}
 * (the program loaded on every rank), {@code stopped}. Class loads are stamped with the JVM's
 * uptime, which starts a few milliseconds after the runner starts the process. Options: {@code
 * --jars A.jar,B.jar} (default cli/target/sdm.jar; {@code A.jar@-XX:+UseSerialGC} runs A.jar with
 * that option, its archive recorded with it too), {@code --modes plain,cds}, {@code --ranks N},
 * {@code --reps R}, {@code --java-options "-XX:..."} (added to every JVM of the timed runs).
 */
public final class StartRunner {
  private StartRunner() {}

  private static final long TICK_MS = 10; // USER_HZ is 100 on Linux

  /**
   * A jar and the JVM options it runs with, written {@code PATH} or {@code PATH@OPTION@OPTION}
   * ({@code sdm.jar@-XX:+UseSerialGC}), so that two sets of options of one jar compare side by
   * side.
   */
  private record Variant(Path jar, List<String> options) {
    static Variant of(String spec) {
      List<String> words = List.of(spec.split("@"));
      return new Variant(Path.of(words.get(0)).toAbsolutePath(), words.subList(1, words.size()));
    }

    String name() {
      return jar.getFileName() + (options.isEmpty() ? "" : "@" + String.join("@", options));
    }
  }

  /** What one run measured; the marks are empty without a timeline. */
  private record Run(double launchMs, long jvmCpuMs, long gdbCpuMs, Map<String, Long> marks) {}

  public static void main(String[] args) throws Exception {
    List<Variant> jars = List.of(Variant.of("cli/target/sdm.jar"));
    List<String> modes = List.of("plain", "cds");
    int ranks = 4;
    int reps = 5;
    boolean timeline = false;
    List<String> javaOptions = List.of();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--jars" -> jars = Arrays.stream(args[++i].split(",")).map(Variant::of).toList();
        case "--modes" -> modes = List.of(args[++i].split(","));
        case "--ranks" -> ranks = Integer.parseInt(args[++i]);
        case "--reps" -> reps = Integer.parseInt(args[++i]);
        case "--timeline" -> timeline = true;
        case "--java-options" -> javaOptions = List.of(args[++i].trim().split("\\s+"));
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    for (String m : modes) {
      if (!m.equals("plain") && !m.equals("cds")) {
        throw new IllegalArgumentException("--modes takes plain and cds, not " + m);
      }
    }
    Path dir = Files.createTempDirectory("sdm-start-bench");
    // sdm's home for the runs (its logs), closed to others as sdm requires.
    Path home =
        Files.createDirectory(
            dir.resolve("home"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path program = dir.resolve("ranks");
    Process cc =
        new ProcessBuilder("gcc", "-g", "-O0", "-o", program.toString(), "examples/ranks.c")
            .inheritIO()
            .start();
    if (cc.waitFor() != 0) {
      throw new IllegalStateException("gcc failed on examples/ranks.c");
    }
    Map<Variant, Path> archives = new LinkedHashMap<>();
    if (modes.contains("cds")) {
      for (Variant jar : jars) {
        Path archive = dir.resolve("archive-" + archives.size() + ".jsa");
        List<String> record = new ArrayList<>(jar.options());
        record.addAll(SdmJar.recordingArchive(archive));
        run(jar.jar(), record, home, program, ranks, dir, false);
        archives.put(jar, archive);
      }
    }
    Map<String, List<Run>> all = new LinkedHashMap<>();
    for (int rep = 1; rep <= reps; rep++) {
      for (String mode : modes) {
        for (Variant jar : jars) {
          List<String> options = new ArrayList<>(javaOptions);
          options.addAll(jar.options());
          if (mode.equals("cds")) {
            options.addAll(SdmJar.withArchive(archives.get(jar)));
          }
          Run r = run(jar.jar(), options, home, program, ranks, dir, timeline);
          String key = "mode=" + mode + " jar=" + jar.name();
          all.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
          System.out.printf(
              Locale.ROOT,
              "rep=%d %s launch_to_all_stopped_ms=%.0f jvm_cpu_ms=%d gdb_cpu_ms=%d%s%n",
              rep,
              key,
              r.launchMs(),
              r.jvmCpuMs(),
              r.gdbCpuMs(),
              marks(r.marks()));
        }
      }
    }
    for (Map.Entry<String, List<Run>> e : all.entrySet()) {
      List<Run> runs = e.getValue();
      System.out.printf(
          Locale.ROOT,
          "median %s launch_to_all_stopped_ms=%.0f jvm_cpu_ms=%.0f gdb_cpu_ms=%.0f (of %d runs)%s%n",
          e.getKey(),
          median(runs.stream().mapToDouble(Run::launchMs).toArray()),
          median(runs.stream().mapToDouble(Run::jvmCpuMs).toArray()),
          median(runs.stream().mapToDouble(Run::gdbCpuMs).toArray()),
          runs.size(),
          timeline ? marks(medianMarks(runs)) : "");
    }
  }

  /** The order of a timeline's marks. */
  private static final List<String> MARKS =
      List.of(
          "main",
          "session",
          "pekko",
          "gdb_exec",
          "gdbs_ready",
          "tree",
          "master",
          "loaded",
          "stopped");

  /** The class whose first load makes each class-load mark. */
  private static final Map<String, String> CLASS_MARKS =
      Map.of(
          "main", "io.sdmfabric.cli.Main",
          "session", "io.sdmfabric.runtime.SessionFactory",
          "pekko", "org.apache.pekko.actor.ActorSystemImpl",
          "tree", "io.sdmfabric.server.ServerNode");

  /** One session: start, break, run, until every rank has stopped; then quit. */
  private static Run run(
      Path jar,
      List<String> javaOptions,
      Path home,
      Path program,
      int ranks,
      Path dir,
      boolean timeline)
      throws Exception {
    List<String> command = new ArrayList<>(List.of(SdmJar.java()));
    command.addAll(SdmJar.options());
    command.addAll(javaOptions);
    Path classLog = dir.resolve("class-load.txt");
    if (timeline) {
      Files.deleteIfExists(classLog);
      command.add("-Xlog:class+load=info:file=" + classLog + ":uptimemillis");
    }
    command.addAll(
        List.of(
            "-jar",
            jar.toString(),
            "debug",
            "--json",
            "-n",
            Integer.toString(ranks),
            program.toString()));
    Map<String, Long> marks = new LinkedHashMap<>();
    long start = System.nanoTime();
    JsonConsole sdm = JsonConsole.start(command, Map.of("SDM_HOME", home.toString()));
    try {
      sdm.send("break compute\nrun\n");
      int stopped = 0;
      while (stopped < ranks) {
        String l;
        try {
          l = sdm.next();
        } catch (IllegalStateException silent) {
          if (!sdm.process().isAlive()) {
            throw new IllegalStateException(
                "sdm exited with status " + sdm.process().exitValue() + ": " + command, silent);
          }
          throw new IllegalStateException(
              silent.getMessage()
                  + " ("
                  + jar.getFileName()
                  + " "
                  + javaOptions
                  + "): "
                  + threads(sdm),
              silent);
        }
        long at = (System.nanoTime() - start) / 1_000_000;
        if (JsonConsole.isStop(l)) {
          stopped += JsonConsole.count(l);
        } else if (JsonConsole.isError(l)) {
          throw new IllegalStateException("sdm: " + l);
        } else if (l.startsWith("{\"event\":\"session\"")) {
          marks.put("master", at);
        } else if (l.startsWith("{\"event\":\"loaded\"")) {
          marks.put("loaded", at);
        } else if (l.contains("\"phase\":\"starting\"")
            && l.contains("\"held\":" + ranks + ",")
            && !marks.containsKey("gdbs_ready")) {
          marks.put("gdbs_ready", at);
        }
      }
      double launchMs = (System.nanoTime() - start) / 1e6;
      marks.put("stopped", Math.round(launchMs));
      long pid = sdm.process().pid();
      long[] jvm = stat(pid);
      long gdbCpu = 0;
      long firstGdb = Long.MAX_VALUE;
      for (ProcessHandle child : sdm.process().toHandle().children().toList()) {
        long[] s = stat(child.pid());
        if (s != null && child.info().command().orElse("").endsWith("gdb")) {
          gdbCpu += s[0];
          firstGdb = Math.min(firstGdb, s[1]);
        }
      }
      if (timeline) {
        if (firstGdb != Long.MAX_VALUE && jvm != null) {
          marks.put("gdb_exec", (firstGdb - jvm[1]) * TICK_MS);
        }
        sdm.send("quit\n");
        sdm.process().waitFor(60, TimeUnit.SECONDS);
        marks.putAll(classMarks(classLog));
      } else {
        sdm.send("quit\n");
        if (!sdm.process().waitFor(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("sdm did not quit");
        }
      }
      return new Run(launchMs, jvm == null ? -1 : jvm[0] * TICK_MS, gdbCpu * TICK_MS, marks);
    } finally {
      sdm.close();
    }
  }

  /** The threads of a silent sdm, in a file named here, for the reader to see where it waits. */
  private static String threads(JsonConsole sdm) {
    try {
      Path dump = Files.createTempFile("sdm-silent-", ".threads");
      new ProcessBuilder("jcmd", Long.toString(sdm.process().pid()), "Thread.print")
          .redirectErrorStream(true)
          .redirectOutput(dump.toFile())
          .start()
          .waitFor(60, TimeUnit.SECONDS);
      return "its threads in " + dump;
    } catch (IOException | InterruptedException e) {
      return "its threads not dumped: " + e;
    }
  }

  /**
   * A process's CPU time (user and system, in ticks) and its start (ticks since boot), from /proc;
   * null when it has gone.
   */
  private static long[] stat(long pid) {
    try {
      String s = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // The fields after the command's closing parenthesis: state is field 3 of stat(5).
      String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
      return new long[] {Long.parseLong(f[11]) + Long.parseLong(f[12]), Long.parseLong(f[19])};
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The uptime of the first load of each class of {@link #CLASS_MARKS}. */
  private static Map<String, Long> classMarks(Path log) throws IOException {
    Map<String, Long> found = new LinkedHashMap<>();
    if (!Files.exists(log)) {
      return found;
    }
    for (String l : Files.readAllLines(log)) {
      // [123ms] org.apache.pekko.actor.ActorSystemImpl source: ...
      int close = l.indexOf("ms] ");
      if (!l.startsWith("[") || close < 0) {
        continue;
      }
      String name = l.substring(close + 4).split(" ")[0];
      for (Map.Entry<String, String> m : CLASS_MARKS.entrySet()) {
        if (m.getValue().equals(name) && !found.containsKey(m.getKey())) {
          found.put(m.getKey(), Long.parseLong(l.substring(1, close)));
        }
      }
    }
    return found;
  }

  private static String marks(Map<String, Long> marks) {
    if (marks.isEmpty()) {
      return "";
    }
    StringBuilder b = new StringBuilder(" |");
    for (String m : MARKS) {
      if (marks.containsKey(m)) {
        b.append(' ').append(m).append('=').append(marks.get(m));
      }
    }
    return b.toString();
  }

  private static Map<String, Long> medianMarks(List<Run> runs) {
    Map<String, Long> medians = new LinkedHashMap<>();
    for (String m : MARKS) {
      double[] v =
          runs.stream()
              .filter(r -> r.marks().containsKey(m))
              .mapToDouble(r -> r.marks().get(m))
              .toArray();
      if (v.length > 0) {
        medians.put(m, Math.round(median(v)));
      }
    }
    return medians;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
