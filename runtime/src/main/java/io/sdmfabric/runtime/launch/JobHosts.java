package io.sdmfabric.runtime.launch;

import io.sdmfabric.model.HostList;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The hosts a job will run on, as far as they are known before it starts: from the launcher's own
 * options (mpirun's {@code --host} and {@code --hostfile}, hydra's {@code -hosts} and {@code -f},
 * srun's {@code --nodelist}), else from the batch allocation the launcher runs in ({@code
 * SLURM_JOB_NODELIST}, {@code PBS_NODEFILE}), as the launcher itself would take them. Empty when
 * none of these says: the job runs on this host, or (srun outside an allocation) where Slurm puts
 * it.
 */
public final class JobHosts {
  private static final Set<String> MPIRUN_HOSTS = Set.of("--host", "-host", "-H");
  private static final Set<String> MPIRUN_HOSTFILES =
      Set.of("--hostfile", "-hostfile", "--machinefile", "-machinefile", "--default-hostfile");
  private static final Set<String> SRUN_NODELISTS = Set.of("--nodelist", "-w");

  /** hydra's (one dash; it takes two as well). */
  private static final Set<String> HYDRA_HOSTS = Set.of("-hosts", "-host");

  private static final Set<String> HYDRA_HOSTFILES = Set.of("-f", "-hostfile", "-machinefile");

  private JobHosts() {}

  /**
   * The hosts of a job that {@code launcher} starts with {@code options}, in environment {@code
   * env}.
   */
  public static List<String> of(
      JobLauncher launcher, List<String> options, Map<String, String> env) {
    List<String> hosts = new ArrayList<>();
    for (int i = 0; i < options.size(); i++) {
      String option = options.get(i);
      String name = option.contains("=") ? option.substring(0, option.indexOf('=')) : option;
      String value =
          option.contains("=")
              ? option.substring(option.indexOf('=') + 1)
              : i + 1 < options.size() ? options.get(i + 1) : "";
      String hydra = name.startsWith("--") ? name.substring(1) : name;
      LauncherFamily family = launcher.family();
      if (family == LauncherFamily.OPEN_MPI && MPIRUN_HOSTS.contains(name)
          || family == LauncherFamily.MPICH && HYDRA_HOSTS.contains(hydra)) {
        for (String host : value.split(",")) {
          hosts.add(host.replaceFirst(":.*$", "")); // host:slots
        }
      } else if (family == LauncherFamily.OPEN_MPI && MPIRUN_HOSTFILES.contains(name)
          || family == LauncherFamily.MPICH && HYDRA_HOSTFILES.contains(hydra)) {
        hosts.addAll(hostfile(Path.of(value)));
      } else if (family == LauncherFamily.SLURM && SRUN_NODELISTS.contains(name)) {
        hosts.addAll(HostList.expand(value));
      }
    }
    if (hosts.isEmpty() && env.containsKey("SLURM_JOB_NODELIST")) {
      hosts.addAll(HostList.expand(env.get("SLURM_JOB_NODELIST")));
    }
    if (hosts.isEmpty() && !launcher.isSlurm() && env.containsKey("PBS_NODEFILE")) {
      hosts.addAll(hostfile(Path.of(env.get("PBS_NODEFILE"))));
    }
    hosts.removeIf(String::isBlank);
    return hosts;
  }

  /**
   * The hosts an Open MPI, hydra or PBS host file names: each line's first word, comments aside,
   * without hydra's {@code :slots}.
   */
  static List<String> hostfile(Path file) {
    List<String> hosts = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        String text = line.replaceFirst("#.*$", "").strip();
        if (!text.isEmpty()) {
          hosts.add(text.split("\\s+")[0].replaceFirst(":.*$", ""));
        }
      }
    } catch (IOException | RuntimeException e) {
      // The launcher will say what is wrong with the file; no hosts known here.
    }
    return hosts;
  }
}
