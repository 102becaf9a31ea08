package io.sdmfabric.runtime.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The family of a job launcher, which decides the language sdm speaks to it: Open MPI's mpirun
 * (ORTE), MPICH's hydra ({@code mpiexec}, {@code mpirun}, {@code mpiexec.hydra}: MPICH, Intel MPI,
 * MVAPICH), or Slurm's srun. sdm asks the launcher itself ({@code --version}) rather than trusting
 * its name: on a cluster {@code mpirun} is whichever MPI the modules loaded. PRRTE's prterun (and
 * Open MPI 5's mpirun) is spoken to through the PMIx tool interface instead.
 */
public enum LauncherFamily {
  /** Open MPI's mpirun/mpiexec (ORTE, Open MPI 4). */
  OPEN_MPI("openmpi"),
  /** MPICH's hydra, and the MPIs built on it (Intel MPI, MVAPICH). */
  MPICH("mpich"),
  /** Slurm's srun, whatever MPI runs under it. */
  SLURM("slurm"),
  /**
   * PRRTE's prterun, and Open MPI 5's mpirun, which is PRRTE's: a launcher that serves PMIx tools.
   * sdm starts the job through the PMIx tool interface ({@code PmixSession}), not with the
   * launcher's command line options.
   */
  PRRTE("prrte");

  /** How long {@code LAUNCHER --version} may take. */
  private static final long VERSION_SECONDS = 20;

  /** The family of each launcher asked, by its real path: asked once per process. */
  private static final Map<Path, LauncherFamily> KNOWN = new ConcurrentHashMap<>();

  private final String option;

  LauncherFamily(String option) {
    this.option = option;
  }

  /** Its name for {@code --launcher-family}. */
  public String option() {
    return option;
  }

  /** The family {@code --launcher-family} names. */
  public static LauncherFamily named(String name) {
    for (LauncherFamily f : values()) {
      if (f.option.equals(name.toLowerCase(Locale.ROOT))) {
        return f;
      }
    }
    throw new IllegalArgumentException(
        "unknown launcher family " + name + ": use openmpi, mpich, slurm or prrte");
  }

  /**
   * The family whose launcher printed {@code version} for {@code --version}.
   *
   * @throws IllegalArgumentException when it is none sdm speaks; the message quotes its first line
   */
  static LauncherFamily fromVersion(String launcher, String version) {
    if (version.contains("HYDRA build details") || version.contains("Intel(R) MPI Library")) {
      return MPICH;
    }
    if (version.contains("(OpenRTE)")) {
      return OPEN_MPI;
    }
    if (version.contains("(PRRTE)") || version.contains("(Open MPI)")) {
      return PRRTE;
    }
    if (version.contains("Open MPI")) {
      return OPEN_MPI;
    }
    if (version.strip().toLowerCase(Locale.ROOT).startsWith("slurm ")) {
      return SLURM;
    }
    throw new IllegalArgumentException(
        "unknown launcher "
            + launcher
            + ": its --version says "
            + (version.isBlank() ? "nothing" : firstLine(version))
            + "; name its family with --launcher-family openmpi|mpich|slurm|prrte");
  }

  private static String firstLine(String text) {
    String line = text.strip().lines().findFirst().orElse("");
    return '"' + (line.length() > 200 ? line.substring(0, 200) + "..." : line) + '"';
  }

  /**
   * The family of the launcher {@code launcher} (a name on the {@code PATH} or a path), asking it
   * with {@code --version} the first time.
   *
   * @throws IllegalArgumentException when it cannot be found or run, or sdm does not know its
   *     family; the message says what was found
   */
  public static LauncherFamily of(String launcher) {
    if (launcher.equals("srun") || launcher.endsWith("/srun")) {
      // Slurm's alone; and its --version needs the cluster's configuration, which may be missing.
      return SLURM;
    }
    Path path = resolve(launcher);
    Path real;
    try {
      real = path.toRealPath();
    } catch (IOException e) {
      real = path;
    }
    return KNOWN.computeIfAbsent(real, p -> fromVersion(launcher, version(launcher, p)));
  }

  /** Where {@code launcher} is: as given when it names a path, else the first on the PATH. */
  static Path resolve(String launcher) {
    Optional<Path> found = Executables.find(launcher, System.getenv().getOrDefault("PATH", ""));
    if (found.isPresent()) {
      return found.get().toAbsolutePath().normalize();
    }
    throw new IllegalArgumentException(
        "the launcher "
            + launcher
            + (launcher.contains("/") ? " is not an executable file" : " is not on the PATH"));
  }

  private static String version(String launcher, Path path) {
    // Into a file, not a pipe: a launcher that hangs does not hang the read, only the bounded wait.
    Path out = null;
    Process p = null;
    try {
      out = Files.createTempFile("sdm-launcher", ".version");
      p =
          new ProcessBuilder(List.of(path.toString(), "--version"))
              .redirectErrorStream(true)
              .redirectOutput(out.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
              .start();
      if (!p.waitFor(VERSION_SECONDS, TimeUnit.SECONDS)) {
        throw new IllegalArgumentException(
            launcher + " --version took more than " + VERSION_SECONDS + " s");
      }
      byte[] text = Files.readAllBytes(out);
      return new String(text, 0, Math.min(text.length, 64 * 1024), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "the launcher " + launcher + " cannot be run: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalArgumentException(launcher + " --version was interrupted", e);
    } finally {
      if (p != null && p.isAlive()) {
        p.destroyForcibly();
      }
      if (out != null) {
        try {
          Files.deleteIfExists(out);
        } catch (IOException e) {
          // A temporary file left behind.
        }
      }
    }
  }
}
