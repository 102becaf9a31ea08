package io.sdmfabric.cli;

import io.sdmfabric.runtime.LaunchRequest;
import io.sdmfabric.server.FabricConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * How {@code sdm debug} and {@code sdm stacks} start a job: on this machine in this JVM, a gdb for
 * every {@code --ranks-per-gdb} ranks (the default), or through a launcher (Open MPI's mpirun,
 * MPICH's hydra, Slurm's srun) with an agent per node. Options for the launcher itself are the
 * unknown options before {@code --}. They become a {@link LaunchRequest}, whose session runtime's
 * {@code SessionFactory} picks.
 */
final class LaunchOptions {
  @Option(
      names = "--launcher",
      paramLabel = "mpirun|mpiexec|srun|PATH",
      description =
          "start the job with this launcher, one agent JVM per node (default: none); sdm asks it"
              + " (--version) whether it is Open MPI's, MPICH's hydra or Slurm's")
  String launcher;

  @Option(
      names = "--launcher-family",
      paramLabel = "openmpi|mpich|slurm|prrte",
      description = "the launcher's family, where its --version cannot tell (default: as it says)")
  String launcherFamily;

  @Option(
      names = "--dvm",
      paramLabel = "PID",
      description =
          "start the job in the running PRRTE DVM (prte) whose pid is PID, through the PMIx tool"
              + " interface")
  Long dvm;

  @Option(
      names = "--from-exec",
      description =
          "attach each rank a launcher starts at its exec, to debug it from its first instruction"
              + " (what runs before MPI_Init); without it an MPI program's ranks are attached at the"
              + " end of MPI_Init, which takes a few seconds less: under gdb, each of the libraries"
              + " MPI_Init loads stops the rank")
  boolean fromExec;

  @Mixin GdbSharingOptions gdbs = new GdbSharingOptions();

  @Mixin DistributedOptions distributed = new DistributedOptions();

  /** The launcher's own options, from before {@code --} on the command line. */
  List<String> launcherOptions = new ArrayList<>();

  /**
   * The request to start {@code size} ranks of {@code program} (resolved) with these options.
   *
   * @throws IllegalArgumentException when {@code --ranks-per-gdb} is wrong; the message says why
   */
  LaunchRequest request(int size, String program, List<String> args, FabricConfig config) {
    return new LaunchRequest(
        size,
        program,
        args,
        Optional.ofNullable(launcher),
        Optional.ofNullable(launcherFamily),
        launcherOptions,
        dvm == null ? OptionalLong.empty() : OptionalLong.of(dvm),
        gdbs.ranksPerGdb(size),
        fromExec,
        distributed.settings(),
        config);
  }
}
