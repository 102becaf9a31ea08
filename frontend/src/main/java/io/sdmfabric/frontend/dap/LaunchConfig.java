package io.sdmfabric.frontend.dap;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a DAP {@code launch} request asks for, read from its arguments (the attributes of an {@code
 * sdm} launch configuration): the program and its arguments, working directory and environment, the
 * number of ranks, the launcher ({@code none}: every rank on this machine; {@code mpirun}, {@code
 * mpiexec}, {@code srun} or a launcher's path) with its own arguments and, where its {@code
 * --version} cannot tell, its family ({@code launcherFamily}: openmpi, mpich, slurm; empty: as it
 * says), whether to stop at {@code main}, and whether a launcher's ranks are attached at their exec
 * ({@code fromExec}) rather than held at the end of MPI_Init.
 */
public record LaunchConfig(
    String program,
    List<String> args,
    String cwd,
    Map<String, String> env,
    int ranks,
    String launcher,
    List<String> launcherArgs,
    boolean stopOnEntry,
    int threadPerRankUpTo,
    String launcherFamily,
    boolean fromExec) {

  /** Up to how many ranks each is a thread of its own, unless the configuration says. */
  static final int THREAD_PER_RANK_UP_TO = 2;

  /** The launchers a configuration may name. */
  static final List<String> LAUNCHERS = List.of("none", "mpirun", "mpiexec", "srun");

  public LaunchConfig {
    Objects.requireNonNull(program, "program");
    Objects.requireNonNull(launcherFamily, "launcherFamily");
    args = List.copyOf(args);
    env = Map.copyOf(env);
    launcherArgs = List.copyOf(launcherArgs);
  }

  /**
   * Reads a launch request's arguments, as the DAP library hands them over (JSON values, or plain
   * Java ones).
   *
   * @throws IllegalArgumentException saying which attribute is missing or wrong
   */
  static LaunchConfig from(Map<String, Object> arguments) {
    Object program = arguments.get("program");
    if (program == null || Attributes.text(program, "program").isBlank()) {
      throw new IllegalArgumentException("the launch configuration names no \"program\"");
    }
    String launcher =
        arguments.containsKey("launcher")
            ? Attributes.text(arguments.get("launcher"), "launcher")
            : "none";
    if (!LAUNCHERS.contains(launcher) && !launcher.contains("/")) {
      throw new IllegalArgumentException(
          "\"launcher\" is "
              + launcher
              + ": use one of "
              + String.join(", ", LAUNCHERS)
              + ", or a launcher's path");
    }
    int ranks =
        arguments.containsKey("ranks") ? Attributes.number(arguments.get("ranks"), "ranks") : 4;
    if (ranks < 1) {
      throw new IllegalArgumentException("\"ranks\" needs at least one rank, not " + ranks);
    }
    return new LaunchConfig(
        Attributes.text(program, "program"),
        Attributes.texts(arguments.get("args"), "args"),
        arguments.containsKey("cwd") ? Attributes.text(arguments.get("cwd"), "cwd") : "",
        Attributes.environment(arguments.get("env")),
        ranks,
        launcher,
        Attributes.texts(arguments.get("launcherArgs"), "launcherArgs"),
        arguments.containsKey("stopOnEntry")
            && Attributes.flag(arguments.get("stopOnEntry"), "stopOnEntry"),
        arguments.containsKey("threadPerRankUpTo")
            ? Attributes.number(arguments.get("threadPerRankUpTo"), "threadPerRankUpTo")
            : THREAD_PER_RANK_UP_TO,
        arguments.containsKey("launcherFamily")
            ? Attributes.text(arguments.get("launcherFamily"), "launcherFamily")
            : "",
        arguments.containsKey("fromExec")
            && Attributes.flag(arguments.get("fromExec"), "fromExec"));
  }
}
