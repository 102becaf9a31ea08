package io.sdmfabric.cli;

import io.sdmfabric.runtime.EmbeddedSession;
import io.sdmfabric.runtime.LaunchedSession;
import io.sdmfabric.runtime.PmixSession;
import io.sdmfabric.runtime.launch.JobLauncher;
import io.sdmfabric.runtime.launch.LauncherFamily;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.SessionClient;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * How {@code sdm debug} and {@code sdm stacks} start a job: on this machine in this JVM, a gdb for
 * every {@code --ranks-per-gdb} ranks (the default), or through a launcher (Open MPI's mpirun,
 * MPICH's hydra, Slurm's srun) with an agent per node. Options for the launcher itself are the
 * unknown options before {@code --}.
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

  @Mixin GdbSharingOptions gdbs = new GdbSharingOptions();

  @Mixin DistributedOptions distributed = new DistributedOptions();

  /** The launcher's own options, from before {@code --} on the command line. */
  List<String> launcherOptions = new ArrayList<>();

  /**
   * Starts {@code size} ranks of {@code program} and the session over them.
   *
   * @throws IOException when they cannot be started; the message says why
   * @throws IllegalArgumentException when an option is wrong; the message says why
   */
  SessionClient open(
      int size, String program, List<String> args, FabricConfig config, PrintStream err)
      throws IOException {
    int ranksPerGdb = gdbs.ranksPerGdb();
    if (dvm != null) {
      if (launcher != null || launcherFamily != null || !launcherOptions.isEmpty()) {
        throw new IllegalArgumentException(
            "--dvm starts the job in the DVM: no --launcher, --launcher-family or launcher options");
      }
      return PmixSession.direct(
          dvm,
          size,
          program,
          args,
          new PmixSession.Wiring(
              distributed.transport(err),
              distributed.address,
              distributed.wireUp(),
              ranksPerGdb,
              config,
              distributed.keys(err)),
          err);
    }
    if (launcher == null) {
      if (launcherFamily != null) {
        throw new IllegalArgumentException("--launcher-family needs --launcher");
      }
      if (!launcherOptions.isEmpty()) {
        throw new IllegalArgumentException(
            "unknown options "
                + String.join(" ", launcherOptions)
                + " (launcher options need --launcher)");
      }
      return EmbeddedSession.start(size, ranksPerGdb, config);
    }
    Duration wireUp = distributed.wireUp();
    JobLauncher job =
        JobLauncher.of(launcher, Optional.ofNullable(launcherFamily).map(LauncherFamily::named));
    LaunchedSession.Spec spec =
        new LaunchedSession.Spec(
            job,
            launcherOptions,
            size,
            program,
            args,
            distributed.transport(err),
            distributed.address,
            wireUp,
            ranksPerGdb,
            config,
            distributed.keys(err));
    return job.servesPmixTools() ? PmixSession.launch(spec, err) : LaunchedSession.start(spec, err);
  }
}
