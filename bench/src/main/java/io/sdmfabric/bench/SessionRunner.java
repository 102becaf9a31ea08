package io.sdmfabric.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Real-gdb sessions as a user runs them: {@code sdm debug --json} on N ranks of an example program
 * in a subprocess, embedded (one JVM) or through a launcher (mpirun or srun, an agent JVM per
 * node), with G ranks per gdb ({@code --ranks-per-gdb G,G,...}; 1 is a gdb per rank), one line per
 * launcher, G and N:
 *
 * <pre>
 * launcher=L ranks_per_gdb=G ranks=N launch_to_all_stopped_ms=.. bt_p50_ms=.. bt_p99_ms=.. print_p50_ms=..
 *     print_p99_ms=.. quit_ms=.. peak_rss_mb=.. debugger_rss_per_rank_mb=..
 * </pre>
 *
 * launch = from starting the JVM to the last rank's stop at the breakpoint (gdbs started or
 * attached, program loaded, run); bt and print = from writing the command to its {@code complete}
 * event; peak RSS = the largest sum of RSS over sdm's JVM, its agents, gdbs and the programs,
 * sampled every 50 ms; debugger RSS per rank = the same without the programs, over N (the share of
 * the JVMs plus a gdb). Options: {@code --launcher embedded,mpirun,srun}, {@code --program NAME}
 * ({@code examples/NAME.c}, built with mpicc when NAME starts with {@code mpi_}), {@code --break
 * FUNCTION}, {@code --print EXPRESSION}, with {@code --ranks} and {@code --reps}. The launchers are
 * interleaved per N (and the gdb sharings per launcher) so that they are compared in the same
 * conditions. A launcher may carry its options ({@code --launcher "srun -N 4
 * --ntasks-per-node=8,srun -N 1 --overcommit"}). A launcher spelled {@code mpich:mpirun} or {@code
 * mpich:srun --mpi=pmi2} runs the program built with MPICH's compiler ({@code mpicc.mpich}) with
 * MPICH's commands first on sdm's PATH, as for a user whose mpirun is MPICH's; beside the plain
 * spelling (Open MPI's) it compares the two MPI families in one run. {@code --mpicc PATH} builds
 * the program with another MPI's compiler than {@code mpicc} (Open MPI 5's: its mpirun starts jobs
 * through the PMIx tool interface, or, given {@code --launcher-family openmpi}, under the rank
 * shim). With {@code $SDM_MESSAGE_COUNTS} set (a directory every node sees; {@link MessageCounts}),
 * a second line per run gives the session's messages and bytes that crossed node boundaries per bt
 * and per print, beside the floor of one message each way per tree edge between JVMs (one per
 * agent).
 *
 * <p>Each line also gives the launch's timeline and its CPU: {@code gdbs_ready_ms} (every rank has
 * a gdb), {@code loaded_ms} (the program is loaded on every rank), {@code first_stop_ms}, all from
 * starting the JVM, and {@code launch_cpu_s}, the CPU time (user and system) that sdm's JVM, its
 * gdbs and the programs had used when the last rank stopped, with {@code jvm_cpu_s} the JVM's
 * share: on a machine others use too, CPU time moves less than wall time. {@code --jars
 * A.jar,B.jar} runs each jar in turn for every N (a before beside an after, interleaved; the
 * default is {@code cli/target/sdm.jar}) and {@code --runs K} repeats the whole sequence K times.
 * {@code --warmup W} runs W bt and W print, not timed, before the timed ones: the JVM's compilers
 * are busy through the first commands after a launch, and their CPU would count as the commands'.
 * {@code --cds} runs each jar as {@code ./sdm} does, with a class-data archive (which the master
 * passes on to its agents): recorded for each jar by one session first, not timed, at the first
 * launcher, sharing and size ({@code jar=NAME+cds} in the lines).
 */
public final class SessionRunner {
  private SessionRunner() {}

  /** What to run. */
  private record Workload(Path program, String breakAt, String print) {}

  public static void main(String[] args) throws Exception {
    List<String> launchers = List.of("embedded");
    List<Integer> perGdb = List.of(16);
    String name = "ranks";
    String breakAt = "compute";
    String print = "rank";
    String mpicc = "mpicc";
    List<Path> jars = List.of(Path.of("cli/target/sdm.jar").toAbsolutePath());
    int runs = 1;
    int warmup = 0;
    boolean cds = false;
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--launcher" -> launchers = List.of(args[++i].split(","));
        case "--program" -> name = args[++i];
        case "--break" -> breakAt = args[++i];
        case "--print" -> print = args[++i];
        case "--mpicc" -> mpicc = args[++i];
        case "--jars" ->
            jars =
                Arrays.stream(args[++i].split(",")).map(j -> Path.of(j).toAbsolutePath()).toList();
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--warmup" -> warmup = Integer.parseInt(args[++i]);
        case "--cds" -> cds = true;
        case "--ranks-per-gdb" ->
            perGdb = Arrays.stream(args[++i].split(",")).map(Integer::parseInt).toList();
        default -> rest.add(args[i]);
      }
    }
    RunnerOptions options =
        RunnerOptions.parse(rest.toArray(String[]::new), List.of(1, 4, 8, 16, 32), 30);
    Path dir = Files.createTempDirectory("sdm-session-bench");
    Map<Boolean, Workload> work = new HashMap<>();
    for (String launcher : launchers) {
      boolean mpich = launcher.startsWith(MPICH);
      if (!work.containsKey(mpich)) {
        String cc = !name.startsWith("mpi_") ? "gcc" : mpich ? "mpicc.mpich" : mpicc;
        work.put(mpich, new Workload(compile(cc, name, dir), breakAt, print));
      }
    }
    Map<String, String> mpichEnv =
        work.containsKey(true)
            ? Map.of("PATH", mpichFirst(dir) + ":" + System.getenv("PATH"))
            : Map.of();
    Map<Path, List<String>> jvmOptions = new HashMap<>();
    for (Path jar : jars) {
      jvmOptions.put(jar, List.of());
      if (cds) {
        Path archive = dir.resolve("archive-" + jvmOptions.size() + ".jsa");
        String launcher = launchers.get(0);
        boolean mpich = launcher.startsWith(MPICH);
        System.out.println("recording the class-data archive of " + jar.getFileName() + ":");
        run(
            jar,
            SdmJar.recordingArchive(archive),
            launcher,
            mpich ? launcher.substring(MPICH.length()) : launcher,
            mpich ? mpichEnv : Map.of(),
            perGdb.get(0),
            work.get(mpich),
            options.sizes().get(0),
            warmup,
            options.reps());
        jvmOptions.put(jar, SdmJar.withArchive(archive));
      }
    }
    for (int r = 0; r < runs; r++) {
      for (int n : options.sizes()) {
        for (String launcher : launchers) {
          boolean mpich = launcher.startsWith(MPICH);
          for (int g : perGdb) {
            for (Path jar : jars) {
              run(
                  jar,
                  jvmOptions.get(jar),
                  launcher,
                  mpich ? launcher.substring(MPICH.length()) : launcher,
                  mpich ? mpichEnv : Map.of(),
                  g,
                  work.get(mpich),
                  n,
                  warmup,
                  options.reps());
            }
          }
        }
      }
    }
  }

  /** How a launcher that runs MPICH's programs is spelled: {@code mpich:mpirun}. */
  private static final String MPICH = "mpich:";

  /** examples/NAME.c built with {@code cc} into {@code dir}. */
  private static Path compile(String cc, String name, Path dir) throws Exception {
    Path program = dir.resolve(cc.equals("mpicc.mpich") ? name + "-mpich" : name);
    Process p =
        new ProcessBuilder(cc, "-g", "-O0", "-o", program.toString(), "examples/" + name + ".c")
            .inheritIO()
            .start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException(cc + " failed on examples/" + name + ".c");
    }
    return program;
  }

  /**
   * A directory in {@code dir} whose mpirun, mpiexec, mpicc and hydra_pmi_proxy are MPICH's (hydra
   * finds its proxy beside the mpiexec it was started as): first on the PATH, MPICH is the MPI.
   */
  private static Path mpichFirst(Path dir) throws Exception {
    Path links = Files.createDirectories(dir.resolve("mpich-first"));
    for (String[] link :
        new String[][] {
          {"mpirun", "mpiexec.hydra"},
          {"mpiexec", "mpiexec.hydra"},
          {"mpicc", "mpicc.mpich"},
          {"hydra_pmi_proxy", "hydra_pmi_proxy"}
        }) {
      Files.createSymbolicLink(links.resolve(link[0]), Path.of("/usr/bin", link[1]));
    }
    return links;
  }

  /**
   * One session: {@code label} is the launcher as the table names it, {@code launcher} as sdm's
   * command line does (with its options), {@code env} what sdm's environment adds.
   */
  private static void run(
      Path jar,
      List<String> jvmOptions,
      String label,
      String launcher,
      Map<String, String> env,
      int perGdb,
      Workload work,
      int n,
      int warmup,
      int reps)
      throws Exception {
    List<String> command =
        new ArrayList<>(
            SdmJar.command(
                jar,
                jvmOptions,
                "debug",
                "--json",
                "--ranks-per-gdb",
                Integer.toString(perGdb),
                "-n",
                Integer.toString(n)));
    if (!launcher.equals("embedded")) {
      // A launcher may come with its options: "srun -N 4 --ntasks-per-node=8".
      List<String> words = List.of(launcher.split(" "));
      command.addAll(List.of("--launcher", words.get(0)));
      command.addAll(words.subList(1, words.size()));
      command.add("--");
    }
    command.add(work.program().toString());
    Path counts = MessageCounts.directory();
    int jvmsBefore = counts == null ? 0 : MessageCounts.read(counts).jvms();
    long start = System.nanoTime();
    JsonConsole sdm = JsonConsole.start(command, env);
    RssSampler rss = new RssSampler(sdm.process().toHandle(), work.program().toString());
    rss.start();
    try {
      sdm.send("break " + work.breakAt() + "\nrun\n");
      int stopped = 0;
      double gdbsMs = 0;
      double loadedMs = 0;
      double firstStopMs = 0;
      double runMs = 0;
      while (stopped < n) {
        String l = sdm.next();
        double at = (System.nanoTime() - start) / 1e6;
        if (JsonConsole.isStop(l)) {
          stopped += JsonConsole.count(l);
          firstStopMs = firstStopMs == 0 ? at : firstStopMs;
        } else if (l.contains("\"phase\":\"loading\"") && gdbsMs == 0) {
          gdbsMs = at;
        } else if (l.equals(JsonConsole.completion("run"))) {
          runMs = at;
        } else if (l.contains("\"phase\":\"running\"")
            && !l.contains("\"held\":0,")
            && firstStopMs == 0) {
          firstStopMs = at;
        } else if (l.startsWith("{\"event\":\"loaded\"")) {
          loadedMs = at;
        }
      }
      double launchMs = (System.nanoTime() - start) / 1e6;
      double jvmCpu = ProcessCpu.seconds(sdm.process().pid());
      double launchCpu = jvmCpu;
      for (ProcessHandle p : (Iterable<ProcessHandle>) sdm.process().descendants()::iterator) {
        launchCpu += ProcessCpu.seconds(p.pid());
      }
      if (warmup > 0) {
        roundTrips(sdm, "bt", warmup);
        roundTrips(sdm, "print " + work.print(), warmup);
      }
      MessageCounts before = counts == null ? null : MessageCounts.settled(counts);
      double[] cpu0 = cpuSplit(sdm.process());
      double[] bt = roundTrips(sdm, "bt", reps);
      double[] cpu1 = cpuSplit(sdm.process());
      MessageCounts afterBt = counts == null ? null : MessageCounts.settled(counts);
      double[] print = roundTrips(sdm, "print " + work.print(), reps);
      double[] cpu2 = cpuSplit(sdm.process());
      MessageCounts afterPrint = counts == null ? null : MessageCounts.settled(counts);
      long quitStart = System.nanoTime();
      sdm.send("quit\n");
      if (!sdm.process().waitFor(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("sdm did not quit");
      }
      double quitMs = (System.nanoTime() - quitStart) / 1e6;
      rss.stop();
      System.out.printf(
          Locale.ROOT,
          "launcher=%s ranks_per_gdb=%d ranks=%d launch_to_all_stopped_ms=%.0f bt_p50_ms=%.2f bt_p99_ms=%.2f"
              + " print_p50_ms=%.2f print_p99_ms=%.2f quit_ms=%.0f peak_rss_mb=%d"
              + " debugger_rss_per_rank_mb=%.1f gdbs_ready_ms=%.0f loaded_ms=%.0f"
              + " run_ms=%.0f first_stop_ms=%.0f launch_cpu_s=%.1f jvm_cpu_s=%.1f"
              + " bt_cpu_ms=%.0f/%.0f print_cpu_ms=%.0f/%.0f jar=%s%n",
          label,
          perGdb,
          n,
          launchMs,
          RunnerOptions.percentile(bt, 50),
          RunnerOptions.percentile(bt, 99),
          RunnerOptions.percentile(print, 50),
          RunnerOptions.percentile(print, 99),
          quitMs,
          rss.peakTotal() / (1024 * 1024),
          rss.peakDebugger() / (1024.0 * 1024) / n,
          gdbsMs,
          loadedMs,
          runMs,
          firstStopMs,
          launchCpu,
          jvmCpu,
          (cpu1[0] - cpu0[0]) * 1000 / reps,
          (cpu1[1] - cpu0[1]) * 1000 / reps,
          (cpu2[0] - cpu1[0]) * 1000 / reps,
          (cpu2[1] - cpu1[1]) * 1000 / reps,
          jar.getFileName()
              + (jvmOptions.stream().anyMatch(o -> o.startsWith("-XX:SharedArchiveFile="))
                  ? "+cds"
                  : ""));
      if (counts != null) {
        // Each agent's server has its parent in another JVM: one tree edge across nodes.
        int agents = afterPrint.jvms() - jvmsBefore - 1;
        MessageCounts btCost = afterBt.minus(before);
        MessageCounts printCost = afterPrint.minus(afterBt);
        System.out.printf(
            Locale.ROOT,
            "  agents=%d floor_msgs_per_cmd=%d bt_msgs_per_cmd=%.1f bt_bytes_per_cmd=%.0f"
                + " print_msgs_per_cmd=%.1f print_bytes_per_cmd=%.0f%n",
            agents,
            2 * agents,
            btCost.messages() / (double) reps,
            btCost.bytes() / (double) reps,
            printCost.messages() / (double) reps,
            printCost.bytes() / (double) reps);
      }
    } finally {
      sdm.close();
      rss.stop();
    }
  }

  /** CPU seconds so far of sdm's JVM and of all its descendants (its gdbs and the programs). */
  private static double[] cpuSplit(Process sdm) {
    double below = 0;
    for (ProcessHandle p : (Iterable<ProcessHandle>) sdm.descendants()::iterator) {
      below += ProcessCpu.seconds(p.pid());
    }
    return new double[] {ProcessCpu.seconds(sdm.pid()), below};
  }

  private static double[] roundTrips(JsonConsole sdm, String command, int reps) throws Exception {
    String word = command.split(" ")[0];
    double[] ms = new double[reps];
    for (int i = 0; i < reps; i++) {
      long t = System.nanoTime();
      sdm.send(command + "\n");
      sdm.untilComplete(word); // the command's replies; its completion ends the round trip
      ms[i] = (System.nanoTime() - t) / 1e6;
    }
    Arrays.sort(ms);
    return ms;
  }
}
