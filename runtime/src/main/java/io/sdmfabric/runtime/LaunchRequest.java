package io.sdmfabric.runtime;

import io.sdmfabric.server.FabricConfig;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A job to start and debug, as {@code sdm debug}, {@code sdm stacks} and the debug adapter's launch
 * ask for it; {@link SessionFactory#open} picks the session that serves it.
 *
 * @param size the number of ranks
 * @param program the program, resolved ({@link Programs#resolve})
 * @param args its arguments
 * @param launcher the launcher's command (mpirun, mpiexec, srun or a path); empty: none, the ranks
 *     run in this JVM's gdbs
 * @param launcherFamily the launcher's family, where its {@code --version} cannot tell
 * @param launcherOptions the launcher's own options
 * @param dvm the pid of a running PRRTE DVM to start the job in, through PMIx
 * @param ranksPerGdb how many ranks one gdb debugs
 * @param fromExec whether a launcher's ranks are attached at their exec, gdb seeing each from its
 *     first instruction, rather than held at the end of MPI_Init (where MPI's own start is over)
 * @param distributed how the JVMs talk, for a job with agents
 * @param config the fabric's settings
 */
public record LaunchRequest(
    int size,
    String program,
    List<String> args,
    Optional<String> launcher,
    Optional<String> launcherFamily,
    List<String> launcherOptions,
    OptionalLong dvm,
    int ranksPerGdb,
    boolean fromExec,
    DistributedSettings distributed,
    FabricConfig config) {

  public LaunchRequest {
    Objects.requireNonNull(program, "program");
    args = List.copyOf(args);
    Objects.requireNonNull(launcher, "launcher");
    Objects.requireNonNull(launcherFamily, "launcherFamily");
    launcherOptions = List.copyOf(launcherOptions);
    Objects.requireNonNull(dvm, "dvm");
    Objects.requireNonNull(distributed, "distributed");
    Objects.requireNonNull(config, "config");
  }
}
