package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.runtime.JvmOptions;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Runs the fat jar ({@code target/sdm.jar}) as a user would, in a subprocess, and builds the
 * example programs of {@code examples/} with gcc.
 */
final class Sdm {
  private static final Path JAR = Path.of("target", "sdm.jar").toAbsolutePath();
  private static final Path EXAMPLES = Path.of("..", "examples").toAbsolutePath().normalize();

  /**
   * Which of the build's test JVMs this is: failsafe runs the IT classes in several JVMs side by
   * side and gives each its number in {@code SDM_TEST_FORK} ({@code fork1} ...), which every
   * process a test starts inherits (sdm, its gdbs and agents, the launchers and their ranks). Empty
   * outside a fork.
   */
  static final String FORK = System.getenv().getOrDefault("SDM_TEST_FORK", "");

  /** Where this JVM's example programs are built: a directory of its own for each fork. */
  private static final Path BUILT =
      Path.of("target", FORK.isEmpty() ? "examples" : "examples-" + FORK).toAbsolutePath();

  private static final ConcurrentHashMap<String, Path> PROGRAMS = new ConcurrentHashMap<>();
  private static final ConcurrentHashMap<String, Boolean> LAUNCHERS = new ConcurrentHashMap<>();

  /** What a run printed and how it ended. */
  record Result(int exitCode, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  static {
    Thread t = new Thread(Sdm::lowerTheExamplesPriority, "lower the examples' priority");
    t.setDaemon(true);
    t.start();
  }

  private Sdm() {}

  /**
   * Gives this JVM's example processes the lowest priority (nice 19) as they appear, once a second.
   * An MPI rank that waits in MPI spins, polling its peers: the deadlocked examples' four ranks
   * keep both cores busy for the whole of a test that samples them after 20 s. At the lowest
   * priority they leave the cores to the work of the IT classes that run beside it (sdm, its agents
   * and gdbs, JVMs starting), which they slowed to a crawl; what they do themselves is wait.
   */
  private static void lowerTheExamplesPriority() {
    java.util.Set<Long> lowered = new java.util.HashSet<>();
    while (true) {
      try (var procs = Files.list(Path.of("/proc"))) {
        for (Path p : (Iterable<Path>) procs::iterator) {
          String name = p.getFileName().toString();
          if (!name.matches("\\d+") || lowered.contains(Long.parseLong(name))) {
            continue;
          }
          try {
            if (Files.readString(p.resolve("cmdline")).startsWith(BUILT.toString())) {
              lowered.add(Long.parseLong(name));
              new ProcessBuilder("renice", "-n", "19", "-p", name)
                  .redirectErrorStream(true)
                  .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                  .start()
                  .waitFor();
            }
          } catch (IOException e) {
            // It ended while we looked.
          }
        }
        TimeUnit.SECONDS.sleep(1);
      } catch (IOException e) {
        return; // no /proc: nothing to lower
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** An example program, built with {@code gcc -g} (or without debug info) once. */
  static Path example(String name, boolean debugInfo) {
    List<String> flags = debugInfo ? List.of("-g", "-O0") : List.of("-O0");
    return built(
        name + debugInfo, "gcc", flags, name, BUILT.resolve(name + (debugInfo ? "" : "-nodebug")));
  }

  /** An MPI example program, built with {@code mpicc -g} once. */
  static Path mpiExample(String name) {
    return built(name + "-mpi", "mpicc", List.of("-g", "-O0"), name, BUILT.resolve(name));
  }

  /**
   * {@code examples/NAME.c} built once into {@code binary} by {@code compiler} with {@code flags};
   * {@code key} names it among this JVM's builds.
   */
  private static Path built(
      String key, String compiler, List<String> flags, String name, Path binary) {
    return PROGRAMS.computeIfAbsent(
        key,
        k -> {
          try {
            Files.createDirectories(binary.getParent());
            List<String> cmd = new ArrayList<>(List.of(compiler));
            cmd.addAll(flags);
            cmd.addAll(List.of("-o", binary.toString(), name + ".c"));
            Process p =
                new ProcessBuilder(cmd)
                    .directory(EXAMPLES.toFile())
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
              throw new IllegalStateException(compiler + " failed for " + name + ": " + out);
            }
            return binary;
          } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
          }
        });
  }

  /**
   * How a test runs an MPI job: the MPI the program is built with ({@code openmpi} or {@code
   * mpich}, or {@code openmpi5}) and the launcher named on sdm's command line, spelled {@code
   * mpirun}, {@code srun} (Open MPI), {@code mpich:mpirun}, {@code mpich:srun} or {@code
   * openmpi5:mpirun} (Open MPI 5's, by its path). Under MPICH, {@code mpirun} is MPICH's as for a
   * user whose {@code mpirun} and {@code mpicc} are MPICH's: a directory of links to MPICH's (and
   * hydra's proxy, which hydra finds next to the mpiexec it was started as) comes first on the
   * PATH; srun runs MPICH's ranks through Slurm's PMI-2 plugin ({@code --mpi=pmi2}).
   */
  record Mpi(String family, String launcher) {
    static Mpi of(String spec) {
      int colon = spec.indexOf(':');
      return colon < 0
          ? new Mpi("openmpi", spec)
          : new Mpi(spec.substring(0, colon), spec.substring(colon + 1));
    }

    boolean mpich() {
      return family.equals("mpich");
    }

    /** Open MPI 5 (the one dev/test builds into a cache), whose mpirun is PRRTE's. */
    boolean openMpi5() {
      return family.equals("openmpi5");
    }

    /** Skips the test unless this MPI and launcher can start a job here. */
    void assume() {
      if (mpich()) {
        assumeMpich();
      }
      if (openMpi5()) {
        assumeTrue(
            System.getenv("SDM_OPENMPI5") != null,
            "no Open MPI 5 ($SDM_OPENMPI5: dev/test builds it once with dev/lib/openmpi5.sh)");
        return;
      }
      assumeLauncher(launcher);
    }

    /** The launcher as sdm's --launcher names it: Open MPI 5's by its path. */
    String command() {
      return openMpi5()
          ? Path.of(System.getenv("SDM_OPENMPI5"), "bin", launcher).toString()
          : launcher;
    }

    /**
     * The environment sdm runs in: MPICH's commands first on the PATH under MPICH; as root, Open
     * MPI 5's launcher's consent.
     */
    Map<String, String> env() {
      if (openMpi5()) {
        return "root".equals(System.getProperty("user.name"))
            ? Map.of("PRTE_ALLOW_RUN_AS_ROOT", "1", "PRTE_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            : Map.of();
      }
      return mpich() ? Map.of("PATH", mpichFirst() + ":" + System.getenv("PATH")) : Map.of();
    }

    /** The launcher options the job needs: MPICH under srun talks PMI-2. */
    List<String> launcherOptions() {
      return mpich() && launcher.equals("srun") ? List.of("--mpi=pmi2") : List.of();
    }

    /** The MPI example {@code name} built with this MPI's mpicc. */
    Path example(String name) {
      if (openMpi5()) {
        return mpiExample(
            name, Path.of(System.getenv("SDM_OPENMPI5"), "bin", "mpicc").toString(), "openmpi5");
      }
      return mpich() ? mpiExample(name, "mpicc.mpich", "mpich") : mpiExample(name);
    }
  }

  /** Skips the test unless MPICH (Debian's mpich, libmpich-dev) is installed and hydra works. */
  static void assumeMpich() {
    assumeTrue(
        works("mpicc.mpich", "--version"),
        "MPICH is not installed (Debian's mpich and libmpich-dev; dev/test installs them)");
    assumeTrue(
        LAUNCHERS.computeIfAbsent("mpiexec.hydra", l -> works("mpiexec.hydra", "-n", "1", "true")),
        "mpiexec.hydra -n 1 true fails");
  }

  /**
   * A directory (made once) whose mpirun, mpiexec, mpicc and hydra_pmi_proxy are MPICH's: first on
   * the PATH, MPICH is the MPI, as Debian's alternatives would make it.
   */
  static Path mpichFirst() {
    return PROGRAMS.computeIfAbsent(
        "mpich-first",
        k -> {
          try {
            Path dir = Path.of("target", "mpich-first").toAbsolutePath();
            Files.createDirectories(dir);
            for (String[] link :
                new String[][] {
                  {"mpirun", "mpiexec.hydra"},
                  {"mpiexec", "mpiexec.hydra"},
                  {"mpicc", "mpicc.mpich"},
                  {"hydra_pmi_proxy", "hydra_pmi_proxy"}
                }) {
              Path at = dir.resolve(link[0]);
              Files.deleteIfExists(at);
              Files.createSymbolicLink(at, Path.of("/usr/bin", link[1]));
            }
            return dir;
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        });
  }

  /** An MPI example program, built with {@code mpicc -g} (the compiler {@code mpicc}) once. */
  static Path mpiExample(String name, String mpicc, String family) {
    return built(
        name + "-" + family,
        mpicc,
        List.of("-g", "-O0"),
        name,
        BUILT.resolve(family).resolve(name));
  }

  /**
   * The arguments of {@code examples/mpi_iterate.c} for a job that iterates until the file {@code
   * stop} appears (see {@link #stop}), five minutes at most.
   */
  static List<String> iterateUntil(Path stop) {
    return List.of("6000", stop.toString());
  }

  /** A file that does not exist yet, for a job to stop at ({@link #iterateUntil}). */
  static Path stopFile() throws IOException {
    Path target = Path.of("target").toAbsolutePath();
    Files.createDirectories(target);
    return Files.createTempDirectory(target, "stop-").resolve("now");
  }

  /** Tells the job of {@link #iterateUntil} to finish: it ends after its current iteration. */
  static void stop(Path stop) throws IOException {
    Files.createFile(stop);
  }

  /** Whether mpi_iterate's output says it computed the total it must have. */
  static boolean iteratedRight(String output) {
    return output.matches("(?s).*total = (\\d+), expected \\1\\b.*");
  }

  /**
   * The line of main in mpi_iterate.c that calls iterate, where every rank's outermost frame is.
   */
  static int iterateCall() throws IOException {
    List<String> source = Files.readAllLines(EXAMPLES.resolve("mpi_iterate.c"));
    for (int i = 0; i < source.size(); i++) {
      if (source.get(i).contains("= iterate(rank, ")) {
        return i + 1;
      }
    }
    throw new AssertionError("mpi_iterate.c calls iterate nowhere");
  }

  /** {@code sdm stacks --launcher LAUNCHER -n 4 --after 20s [OPTIONS] -- EXAMPLE}, exit 0. */
  static Result mpiStacks(String launcher, String example, String... options) throws Exception {
    Mpi mpi = Mpi.of(launcher);
    mpi.assume();
    return pastMpiInit(
        after -> {
          List<String> args =
              new ArrayList<>(List.of("stacks", "--launcher", mpi.launcher(), "-n", "4"));
          args.addAll(List.of("--after", after));
          args.addAll(List.of(options));
          args.addAll(mpi.launcherOptions());
          args.addAll(List.of("--", mpi.example(example).toString()));
          Result r = runWithEnv(mpi.env(), "", args.toArray(String[]::new));
          assertEquals(0, r.exitCode(), r.toString());
          return r;
        });
  }

  /** A run of {@code sdm stacks} that lets the job run for the time it is given. */
  interface StacksAfter {
    Result run(String after) throws Exception;
  }

  /**
   * {@code stacks} run with {@code --after 20s}, and once more with 45 s when some rank was still
   * in MPI_Init. MPI_Init under gdb takes seconds here: each component it dlopens stops gdb once,
   * and one gdb handles its ranks' one after the other; under the full suite's load a rank of the
   * nodes' srun jobs was still there after 20 s. Such a sample is right, but not of the wait the
   * test is about.
   */
  static Result pastMpiInit(StacksAfter stacks) throws Exception {
    Result r = stacks.run("20s");
    if (r.out().contains("MPI_Init")) {
      System.err.println("[tests] a rank was still in MPI_Init after 20 s; again, with 45 s");
      r = stacks.run("45s");
    }
    return r;
  }

  /** Whether {@code command} runs and exits with 0 within 30 seconds. */
  /** Skips the test class unless gdb and OpenMPI's compiler are here. */
  static void assumeGdbAndMpi() {
    assumeTrue(works("gdb", "--version"), "gdb is not installed");
    assumeTrue(works("mpicc", "--version"), "mpicc is not installed (OpenMPI's libopenmpi-dev)");
  }

  /** Skips the test unless {@code launcher} (mpirun or srun) can start a job here. */
  static void assumeLauncher(String launcher) {
    if (launcher.equals("mpirun")) {
      assumeTrue(
          LAUNCHERS.computeIfAbsent("mpirun", l -> works("mpirun", "-n", "1", "true")),
          "mpirun -n 1 true fails (as root it needs OMPI_ALLOW_RUN_AS_ROOT=1"
              + " OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; dev/test sets them)");
    } else {
      assumeTrue(
          LAUNCHERS.computeIfAbsent(
              "srun", l -> System.getenv("SLURM_CONF") != null && works("srun", "-n", "1", "true")),
          "no Slurm to run srun on (dev/test starts one and sets SLURM_CONF)");
    }
  }

  static boolean works(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return false;
      }
      return p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Runs {@code sdm ARGS} with {@code input} on its standard input, at most three minutes (IT
   * classes run side by side on a machine of two cores: a session that takes seconds alone can take
   * a minute there).
   */
  static Result run(String input, String... args) throws Exception {
    return runWithEnv(Map.of(), input, args);
  }

  /**
   * The command line that runs {@code sdm ARGS}: this JVM's java running the fat jar, with the
   * master's JVM options and the jar's class-data archive as {@code ./sdm} runs it.
   */
  static List<String> command(String... args) {
    List<String> cmd = new ArrayList<>(List.of(java()));
    cmd.addAll(JvmOptions.MASTER);
    cmd.addAll(Archive.OPTIONS);
    cmd.addAll(List.of("-jar", JAR.toString()));
    cmd.addAll(List.of(args));
    return cmd;
  }

  /** The archive's options, found or recorded once, when a first test runs sdm. */
  private static final class Archive {
    static final List<String> OPTIONS = ClassDataArchive.options(JAR);
  }

  /** The java command of this JVM. */
  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * {@code sdm ARGS} running in the background, its output in files; closing it kills what is left
   * of it.
   */
  static final class Background implements AutoCloseable {
    private final Process process;
    private final Path out;
    private final Path err;

    Background(Map<String, String> env, String... args) throws IOException {
      this.out = Files.createTempFile("sdm-out", ".txt");
      this.err = Files.createTempFile("sdm-err", ".txt");
      ProcessBuilder b =
          new ProcessBuilder(command(args))
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
              .redirectOutput(out.toFile())
              .redirectError(err.toFile());
      b.environment().putAll(env);
      this.process = b.start();
    }

    Process process() {
      return process;
    }

    /** Waits for it to end, two minutes at most. */
    Result await() throws Exception {
      if (!process.waitFor(2, TimeUnit.MINUTES)) {
        throw new AssertionError("sdm did not end within 2 minutes:\n" + Files.readString(err));
      }
      return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** What it wrote on standard error so far. */
    String err() throws IOException {
      return Files.readString(err);
    }

    @Override
    public void close() throws IOException, InterruptedException {
      end(process);
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /**
   * Submits a Slurm batch job that runs {@code sdm ARGS}: its script {@code dir/job.sh} holds the
   * {@code #SBATCH} lines {@code directives}, its output goes to {@code dir/job.out}, and sbatch
   * (and so the job) gets {@code env} too. Returns the job's id.
   */
  static String sbatch(Map<String, String> env, Path dir, List<String> directives, String... args)
      throws Exception {
    StringBuilder script = new StringBuilder("#!/bin/sh\n");
    directives.forEach(d -> script.append("#SBATCH ").append(d).append('\n'));
    script.append("exec");
    command(args).forEach(w -> script.append(" '").append(w).append('\''));
    Path file = dir.resolve("job.sh");
    Files.writeString(file, script.append('\n').toString());
    ProcessBuilder sbatch =
        new ProcessBuilder(
                "sbatch", "--parsable", "-o", dir.resolve("job.out").toString(), file.toString())
            .redirectErrorStream(true);
    sbatch.environment().putAll(env);
    Process submitted = sbatch.start();
    String job =
        new String(submitted.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertEquals(0, submitted.waitFor(), job);
    return job;
  }

  /** Runs {@code sdm ARGS} with more environment variables. */
  static Result runWithEnv(Map<String, String> env, String input, String... args) throws Exception {
    List<String> cmd = command(args);
    Path out = Files.createTempFile("sdm-out", ".txt");
    Path err = Files.createTempFile("sdm-err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().putAll(env);
    Process p = builder.start();
    try {
      p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
      p.getOutputStream().close();
      if (!p.waitFor(3, TimeUnit.MINUTES)) {
        throw new AssertionError(
            "sdm did not end within 3 minutes:\n"
                + new Result(-1, Files.readString(out), Files.readString(err)));
      }
      return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    } finally {
      end(p);
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /**
   * Ends {@code sdm} if it still runs: SIGTERM first, as a user would, so that it ends its job (a
   * launcher killed outright leaves its ranks to run on under Slurm), then SIGKILL to what is left
   * of it after 30 s.
   */
  static void end(Process sdm) throws InterruptedException {
    List<ProcessHandle> tree = sdm.descendants().toList();
    if (sdm.isAlive()) {
      sdm.destroy();
      sdm.waitFor(30, TimeUnit.SECONDS);
    }
    sdm.destroyForcibly();
    tree.forEach(ProcessHandle::destroyForcibly);
  }

  /**
   * The processes running {@code gdb --interpreter=mi3}, one of the example programs, an agent,
   * {@code sdm connect}, {@code sdm listen} or {@code sdm relay}.
   */
  static List<String> leftovers() throws IOException {
    List<String> found = new ArrayList<>();
    try (var procs = Files.list(Path.of("/proc"))) {
      for (Path p : (Iterable<Path>) procs::iterator) {
        if (!p.getFileName().toString().matches("\\d+")) {
          continue;
        }
        try {
          String cmdline = Files.readString(p.resolve("cmdline")).replace('\0', ' ');
          boolean watched =
              cmdline.contains("--interpreter=mi3")
                  || cmdline.contains(BUILT.toString())
                  || cmdline.contains(Main.class.getName() + " agent")
                  || cmdline.contains(JAR + " connect")
                  || cmdline.contains(JAR + " listen")
                  || cmdline.contains(JAR + " relay");
          // The environment is read only for those: the check polls every 100 ms.
          if (watched && ours(Long.parseLong(p.getFileName().toString()))) {
            found.add(p.getFileName() + " (" + lineage(p) + "): " + cmdline);
          }
        } catch (IOException e) {
          // The process ended while we looked.
        }
      }
    }
    return found;
  }

  /** Who started process {@code proc} and whose mark it carries, for a leftover's report. */
  private static String lineage(Path proc) {
    try {
      String stat = Files.readString(proc.resolve("stat"));
      String ppid = stat.substring(stat.lastIndexOf(')') + 2).split(" ")[1];
      String parent = Files.readString(Path.of("/proc", ppid, "comm")).strip();
      String mark = "unmarked";
      byte[] environ = Files.readAllBytes(proc.resolve("environ"));
      for (String v : new String(environ, StandardCharsets.ISO_8859_1).split("\0")) {
        if (v.startsWith("SDM_TEST_FORK=")) {
          mark = v;
        }
      }
      return "parent " + ppid + " " + parent + ", " + mark;
    } catch (IOException | RuntimeException e) {
      return "parent unknown";
    }
  }

  /**
   * Asserts that no process of this JVM's tests is left ({@link #leftovers}), after a moment for
   * the ones that end as sdm exits to disappear from /proc (a gdb detaching from its ranks takes
   * seconds on a loaded machine: up to 30 s are allowed).
   */
  static void assertNothingLeftBehind() throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!leftovers().isEmpty() && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(100);
    }
    assertEquals(List.of(), leftovers());
  }

  /**
   * Whether process {@code pid} is this JVM's tests': it is not marked as another fork's ({@link
   * #FORK}). An unmarked process counts as ours, so that nothing escapes the check.
   */
  static boolean ours(long pid) {
    try {
      byte[] environ = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
      for (String v : new String(environ, StandardCharsets.ISO_8859_1).split("\0")) {
        if (v.startsWith("SDM_TEST_FORK=")) {
          return v.substring("SDM_TEST_FORK=".length()).equals(FORK);
        }
      }
      return true;
    } catch (IOException e) {
      return false; // it ended while we looked, or is not ours to read
    }
  }

  /**
   * Holds {@code resource} for this JVM alone among the build's test JVMs until closed, waiting for
   * it as long as another holds it: the test nodes, which one IT class uses at a time.
   */
  static AutoCloseable exclusive(String resource) throws IOException {
    FileChannel channel =
        FileChannel.open(
            Path.of("target", resource + ".lock"),
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE);
    channel.lock();
    return channel::close;
  }

  /** The ranks of every line {@code [RANKS] TEXT} of {@code r}'s standard output, together. */
  static RankSet ranksSaying(Result r, String text) {
    RankSet.Builder ranks = RankSet.builder();
    for (String line : r.out().lines().toList()) {
      int end = line.indexOf(']');
      if (line.startsWith("[") && end > 0 && line.substring(end + 1).equals(" " + text)) {
        ranks.addAll(RankSet.parse(line.substring(1, end)));
      }
    }
    return ranks.build();
  }

  /** Asserts that {@code r}'s standard output contains {@code text}, showing all of {@code r}. */
  static void contains(Result r, String text) {
    assertTrue(r.out().contains(text), "missing \"" + text + "\" in\n" + r);
  }

  /** Waits at most {@code bound} for {@code condition}. */
  static void await(BooleanSupplier condition, Duration bound, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + bound + ": " + what);
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }

  /**
   * The JSON document {@code text} as maps, lists, strings, booleans, nulls and numbers (whole ones
   * as {@code Long}).
   */
  static Object json(String text) {
    return new com.google.gson.GsonBuilder()
        .setObjectToNumberStrategy(com.google.gson.ToNumberPolicy.LONG_OR_DOUBLE)
        .create()
        .fromJson(text, Object.class);
  }
}
