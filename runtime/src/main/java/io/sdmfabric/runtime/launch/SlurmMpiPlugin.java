package io.sdmfabric.runtime.launch;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether srun starts an MPICH program's ranks as one MPI job. MPICH's ranks find each other under
 * srun through the Slurm MPI plugin that speaks their PMI: {@code pmi2} for an MPICH built with its
 * own PMI (Debian's; Intel MPI, MVAPICH), {@code cray_shasta} for Cray MPICH, {@code pmix} only for
 * an MPICH that loads libpmix. Under any other plugin each rank is an MPI world of its own: a job
 * that runs, and is wrong. The user's launcher options are theirs, so sdm says so on standard error
 * rather than adding {@code --mpi=pmi2}. The plugin is srun's {@code --mpi}, else {@code
 * SLURM_MPI_TYPE}, else Slurm's {@code MpiDefault}.
 */
public final class SlurmMpiPlugin {
  private static final Pattern MPI_DEFAULT = Pattern.compile("(?m)^MpiDefault\\s*=\\s*(\\S+)\\s*$");

  private SlurmMpiPlugin() {}

  /**
   * What to tell the user before srun starts {@code program} with {@code options} in {@code env};
   * empty when its MPI is not MPICH or the plugin fits it.
   */
  public static Optional<String> warning(
      String program, List<String> options, Map<String, String> env) {
    if (MpiWaitLibrary.Mpi.linkedBy(program).orElse(null) != MpiWaitLibrary.Mpi.MPICH) {
      return Optional.empty();
    }
    boolean pmix = loadsPmix(program);
    Optional<String> plugin = named(options, env).or(SlurmMpiPlugin::mpiDefault);
    if (plugin.isPresent() && fits(plugin.get(), pmix)) {
      return Optional.empty();
    }
    return Optional.of(
        "sdm: WARNING: "
            + program
            + " runs with MPICH, whose ranks find each other under srun only through Slurm's"
            + (pmix ? " pmi2 or pmix" : " pmi2")
            + " plugin, and srun would use "
            + plugin.map(p -> "'" + p + "'").orElse("Slurm's default plugin")
            + ": each rank would be an MPI world of its own. Add --mpi=pmi2 to srun's options.");
  }

  /** The plugin the options or the environment name: {@code --mpi=X}, {@code --mpi X}. */
  static Optional<String> named(List<String> options, Map<String, String> env) {
    for (int i = 0; i < options.size(); i++) {
      String o = options.get(i);
      if (o.startsWith("--mpi=")) {
        return Optional.of(o.substring("--mpi=".length()));
      }
      if (o.equals("--mpi") && i + 1 < options.size()) {
        return Optional.of(options.get(i + 1));
      }
    }
    return Optional.ofNullable(env.get("SLURM_MPI_TYPE")).filter(t -> !t.isBlank());
  }

  /** Whether MPICH's ranks talk to the plugin {@code plugin} ({@code pmix}: they load libpmix). */
  static boolean fits(String plugin, boolean pmix) {
    return plugin.startsWith("pmi2")
        || plugin.equals("cray_shasta")
        || (pmix && plugin.startsWith("pmix"));
  }

  /** Slurm's MpiDefault, as {@code scontrol show config} says it; empty if it cannot tell. */
  static Optional<String> mpiDefault(String config) {
    Matcher m = MPI_DEFAULT.matcher(config);
    return m.find() ? Optional.of(m.group(1)) : Optional.empty();
  }

  private static Optional<String> mpiDefault() {
    try {
      return mpiDefault(MpiWaitLibrary.run(List.of("scontrol", "show", "config"), "scontrol"));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static boolean loadsPmix(String program) {
    try {
      return MpiWaitLibrary.run(List.of("ldd", program), "ldd").contains("libpmix");
    } catch (IOException e) {
      return false;
    }
  }
}
