package io.sdmfabric.runtime.launch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * sdm's PMIx tool helper ({@code sdm_pmix.c}, in the jar): the JVM's hands in the PMIx tool
 * interface, a small C program that speaks lines ({@link PmixEvent} out, commands in). PMIx is
 * heavy with macros and calls back on its own threads; a process of its own keeps all of that out
 * of the JVM. It is built on this machine against the PMIx of the launcher it serves: the PMIx
 * installation of the launcher's own prefix ({@code PREFIX/bin/mpirun}: {@code
 * PREFIX/include/pmix_tool.h}, {@code PREFIX/lib/libpmix.so}), found where the launcher really is.
 */
public final class PmixTool {
  private PmixTool() {}

  /**
   * The helper for {@code launcher} (a command on the PATH or a path), built if need be.
   *
   * @throws IOException saying why there is none: no launcher, no PMIx beside it, or the compiler
   *     failed
   */
  public static Path helperFor(String launcher) throws IOException {
    Path prefix = prefixOf(launcher);
    Path include = prefix.resolve("include");
    Path lib = prefix.resolve("lib");
    if (!Files.isRegularFile(include.resolve("pmix_tool.h"))
        || !Files.exists(lib.resolve("libpmix.so"))) {
      throw new IOException(
          launcher
              + " is in "
              + prefix
              + ", which has no PMIx to build sdm's tool helper against (looked for"
              + " include/pmix_tool.h and lib/libpmix.so)");
    }
    return CompiledOnce.build(
        "sdm_pmix.c",
        "pmix",
        "sdm_pmix",
        prefix.toString(),
        (c, out) ->
            List.of(
                "cc",
                "-O2",
                "-o",
                out.toString(),
                c.toString(),
                "-I" + include,
                "-L" + lib,
                "-Wl,-rpath," + lib,
                "-lpmix",
                "-lpthread"));
  }

  /** The MPI compiler beside {@code launcher} in its installation prefix, if there is one. */
  public static Optional<Path> mpiccBeside(String launcher) {
    try {
      Path mpicc = prefixOf(launcher).resolve("bin").resolve("mpicc");
      return Files.isExecutable(mpicc) ? Optional.of(mpicc) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** The installation prefix of {@code launcher}: the parent of the directory it really is in. */
  static Path prefixOf(String launcher) throws IOException {
    Path path = launcher.contains("/") ? Path.of(launcher) : onPath(launcher);
    Path real = path.toRealPath();
    Path bin = real.getParent();
    if (bin == null || bin.getParent() == null) {
      throw new IOException(launcher + " (" + real + ") is in no installation prefix");
    }
    return bin.getParent();
  }

  private static Path onPath(String command) throws IOException {
    for (String dir : Optional.ofNullable(System.getenv("PATH")).orElse("").split(":")) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, command);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    throw new IOException(command + " is not on the PATH");
  }

  /**
   * The helper's command line that starts {@code launcher} with its options and the job, paused for
   * the tool, the ranks held in PMIx_Init ({@code onExec}: stopped at their exec, for programs that
   * are no PMIx clients).
   */
  public static List<String> launch(Path helper, boolean onExec, List<String> launcherCommand) {
    List<String> c = new ArrayList<>(List.of(helper.toString(), "launch"));
    c.add(onExec ? "on-exec" : "in-init");
    c.addAll(launcherCommand);
    return c;
  }

  /**
   * The helper's command line that spawns {@code size} ranks of {@code program} into the running
   * DVM {@code dvm} (a pid), held in PMIx_Init, or at exec ({@code onExec}), with {@code env} set
   * in their environment.
   */
  public static List<String> direct(
      Path helper,
      long dvm,
      boolean onExec,
      int size,
      Map<String, String> env,
      String program,
      List<String> args) {
    List<String> c =
        new ArrayList<>(
            List.of(
                helper.toString(),
                "direct",
                Long.toString(dvm),
                onExec ? "on-exec" : "in-init",
                Integer.toString(size)));
    env.forEach((name, value) -> c.addAll(List.of("--env", name + "=" + value)));
    c.add(program);
    c.addAll(args);
    return c;
  }

  /**
   * Whether {@code program} is a PMIx client, which waits in PMIx_Init when held for a debugger (an
   * MPI program of Open MPI 5 loads libpmix): as {@code ldd} lists its libraries. A program that is
   * none is held stopped at its exec instead.
   */
  public static boolean isPmixClient(String program) {
    try {
      return CompiledOnce.run(List.of("ldd", program), "ldd " + program).contains("libpmix.so");
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * The helper's command line that connects to the PMIx server of the running launcher or DVM
   * {@code server} (its pid, or a PMIx server URI) and takes its job {@code namespace} (by default
   * the first it runs).
   */
  public static List<String> attach(Path helper, String server, Optional<String> namespace) {
    List<String> c = new ArrayList<>(List.of(helper.toString(), "attach", server));
    namespace.ifPresent(c::add);
    return c;
  }

  /**
   * The number of ranks of the job {@code attach} ({@link #attach}'s command line) finds, asked
   * once: the helper connects, reads the proc table and leaves, the job running on.
   *
   * @throws IOException with what the helper said, when it finds no job
   */
  public static int jobSize(List<String> attach) throws IOException {
    Process p = new ProcessBuilder(attach).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    // A helper that says nothing is ended, and the read with it.
    java.util.concurrent.CompletableFuture.delayedExecutor(
            CompiledOnce.COMMAND_SECONDS, java.util.concurrent.TimeUnit.SECONDS)
        .execute(p::destroyForcibly);
    try {
      p.getOutputStream().close(); // no commands: it leaves once it has said the table
      String failure = "it ended without the job's proc table";
      try (java.io.BufferedReader lines =
          new java.io.BufferedReader(
              new java.io.InputStreamReader(
                  p.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))) {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          PmixEvent e;
          try {
            e = PmixEvent.parse(line);
          } catch (IllegalArgumentException notOne) {
            continue;
          }
          if (e instanceof PmixEvent.Procs procs) {
            return procs.count();
          }
          if (e instanceof PmixEvent.Failed f) {
            failure = f.text();
          }
        }
      }
      throw new IOException("no job through PMIx: " + failure);
    } finally {
      try {
        if (!p.waitFor(CompiledOnce.COMMAND_SECONDS, java.util.concurrent.TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * The command that spawns one daemon per node of the job, each running {@code helper local} in
   * front of {@code agent}: the helper asks its node's PMIx server for the node's ranks and runs
   * the agent with {@code --attach PID=RANK,...} of them.
   */
  public static String daemons(Path helper, List<String> agent) {
    List<String> words = new ArrayList<>(List.of("daemons", helper.toString(), "local"));
    agent.stream().map(PmixEvent::escape).forEach(words::add);
    words.set(1, PmixEvent.escape(words.get(1)));
    return String.join(" ", words);
  }

  /**
   * A directory of the user's alone (mode 0700, a new name) for the temporary files of the launcher
   * and its PMIx server: their session directories and rendezvous files go there, not into the
   * shared {@code /tmp}. (OpenPMIx 5.0.5's clean-up once removed a directory it had not made, the
   * whole of this machine's {@code /tmp}, openpmix#3476: what it may clean up is kept to a
   * directory of its own.)
   */
  public static Path runDirectory() throws IOException {
    return Files.createTempDirectory(
        "sdm-pmix-",
        java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
            java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
  }

  /**
   * The environment that puts the launcher's and PMIx's temporary files into {@code dir}: PRRTE's
   * session directory base, and PMIx's server and system temporary directories. {@code TMPDIR}
   * itself is left as it is: the ranks inherit it, and it is the program's.
   */
  public static Map<String, String> runEnvironment(Path dir) {
    return Map.of(
        "PRTE_MCA_prte_tmpdir_base", dir.toString(),
        "PMIX_SERVER_TMPDIR", dir.toString(),
        "PMIX_SYSTEM_TMPDIR", dir.toString());
  }

  /**
   * Deletes what {@link #runDirectory} made, and all in it; nothing when it is null. The launcher's
   * daemons may still be removing their own files from it (a machine under load lets them end
   * late): a pass that meets a file going, or one still being made, is tried again, five times at
   * most, 100 ms apart (the suite once found the directory left, after such a pass gave up).
   */
  public static void deleteRunDirectory(Path dir) {
    if (dir == null) {
      return;
    }
    for (int pass = 0; pass < 5 && Files.exists(dir, LinkOption.NOFOLLOW_LINKS); pass++) {
      try (java.util.stream.Stream<Path> all = Files.walk(dir)) {
        for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      } catch (IOException | UncheckedIOException e) {
        try {
          Thread.sleep(100);
        } catch (InterruptedException stop) {
          Thread.currentThread().interrupt();
          return; // Left for the system's clean-up of its temporary directory.
        }
      }
    }
  }

  /** The command that releases the held ranks. */
  public static final String RELEASE = "release";

  /** The command that ends the job and the helper. */
  public static final String END = "end";
}
