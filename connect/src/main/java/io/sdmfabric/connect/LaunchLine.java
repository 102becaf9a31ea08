package io.sdmfabric.connect;

import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.runtime.DistributedMaster;
import io.sdmfabric.runtime.GdbFleet;
import io.sdmfabric.runtime.LaunchedSession;
import io.sdmfabric.runtime.Programs;
import io.sdmfabric.runtime.launch.JobLauncher;
import io.sdmfabric.server.FabricConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A job's launch command as a batch script would run it, e.g. {@code srun -n 4 ./app arg} or {@code
 * mpirun -np 8 --oversubscribe ./app}: the launcher, its options, the number of ranks, the program
 * and its arguments. {@code sdm connect} takes the command as it is and runs the job the same way
 * with the rank shim in front of the program.
 *
 * <p>The number of ranks is the launcher's own option ({@code -n}, {@code -np}, {@code --np},
 * {@code --ntasks}); under srun without one, the allocation's {@code $SLURM_NTASKS}. The program is
 * the first word after the launcher that is not an option and names an executable file, as the
 * launcher itself would find it; the words before it that are not options are option values ({@code
 * -p debug}).
 *
 * @param options the launcher's options, without the number of ranks
 * @param program the program's absolute path
 */
public record LaunchLine(
    JobLauncher launcher, List<String> options, int size, String program, List<String> args) {
  private static final Pattern SIZE = Pattern.compile("^(?:-n|-np|--np|--ntasks)(?:=?(\\d+))?$");

  public LaunchLine {
    options = List.copyOf(options);
    args = List.copyOf(args);
  }

  /**
   * How to start this job with the rank shim, an agent per node and the master here; {@code
   * fromExec}: each rank attached at its exec, not at the end of MPI_Init.
   */
  public LaunchedSession.Spec job(
      ClusterSettings.Transport transport,
      DistributedMaster.KeyPassing keys,
      String address,
      Duration wireUp,
      boolean fromExec,
      FabricConfig config) {
    return new LaunchedSession.Spec(
        launcher,
        options,
        size,
        program,
        args,
        transport,
        address,
        wireUp,
        GdbFleet.ranksPerGdb(size),
        fromExec,
        config,
        keys);
  }

  /**
   * Reads {@code command} in an environment {@code env}.
   *
   * @throws IllegalArgumentException when it is not a launch command sdm can run; the message says
   *     why
   */
  public static LaunchLine parse(List<String> command, Map<String, String> env) {
    if (command.isEmpty()) {
      throw new IllegalArgumentException(
          "no launch command: give the job's command, e.g. srun -n 4 ./app");
    }
    JobLauncher launcher = JobLauncher.of(command.get(0));
    List<String> options = new ArrayList<>();
    Optional<Integer> size = Optional.empty();
    for (int i = 1; i < command.size(); i++) {
      String word = command.get(i);
      Matcher m = SIZE.matcher(word);
      if (m.matches()) {
        String value = m.group(1);
        if (value == null) {
          if (i + 1 >= command.size()) {
            throw new IllegalArgumentException(word + " needs the number of ranks");
          }
          value = command.get(++i);
        }
        size = Optional.of(ranks(word, value));
      } else if (word.startsWith("-")) {
        options.add(word);
      } else {
        Optional<String> program = program(word);
        if (program.isPresent()) {
          int n =
              size.or(() -> slurmTasks(launcher, env))
                  .orElseThrow(
                      () ->
                          new IllegalArgumentException(
                              "give the number of ranks with -n in the launch command"));
          return new LaunchLine(
              launcher, options, n, program.get(), command.subList(i + 1, command.size()));
        }
        options.add(word); // the value of the option before it
      }
    }
    throw new IllegalArgumentException(
        "no program in the launch command "
            + String.join(" ", command)
            + ": name it by a path (./app) or as a command on the PATH");
  }

  private static int ranks(String option, String value) {
    try {
      int n = Integer.parseInt(value);
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Said below.
    }
    throw new IllegalArgumentException(
        option + " needs a number of ranks of at least 1, not " + value);
  }

  private static Optional<Integer> slurmTasks(JobLauncher launcher, Map<String, String> env) {
    if (!launcher.isSlurm() || !env.containsKey("SLURM_NTASKS")) {
      return Optional.empty();
    }
    return Optional.of(ranks("$SLURM_NTASKS", env.get("SLURM_NTASKS")));
  }

  private static Optional<String> program(String word) {
    try {
      return Optional.of(Programs.resolve(word));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** The command as people read it. */
  public String text() {
    List<String> words = new ArrayList<>();
    words.add(launcher.command());
    words.addAll(options);
    words.addAll(List.of("-n", Integer.toString(size), program));
    words.addAll(args);
    return String.join(" ", words);
  }
}
