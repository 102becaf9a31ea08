package io.sdmfabric.cli;

import io.sdmfabric.model.StartProgress;
import io.sdmfabric.runtime.AttachedSession;
import io.sdmfabric.runtime.PmixSession;
import io.sdmfabric.runtime.SessionFactory;
import io.sdmfabric.runtime.attach.AttachTargets;
import io.sdmfabric.runtime.attach.SlurmStep;
import io.sdmfabric.server.FabricConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What to attach to, as every command that attaches takes it ({@code sdm attach}, {@code sdm
 * stacks} of a running job, {@code sdm dap}'s attach): processes as {@code HOST:PID[,PID...]} or
 * {@code PID[,PID...]}, or a Slurm job step, reached through a remote shell.
 */
final class AttachSpecs {
  private AttachSpecs() {}

  /**
   * The attach of {@code targets}, or of the Slurm step {@code slurm} when it is not null.
   *
   * @throws IllegalArgumentException for a target or step that does not parse
   */
  static AttachedSession.Spec of(
      List<String> targets,
      String slurm,
      String rsh,
      DistributedOptions distributed,
      GdbSharingOptions gdbs,
      FabricConfig config,
      PrintStream err) {
    return new AttachedSession.Spec(
        slurm == null ? Optional.of(AttachTargets.parse(targets)) : Optional.empty(),
        slurm == null ? Optional.empty() : Optional.of(SlurmStep.parse(slurm)),
        List.of(rsh.strip().split("\\s+")),
        distributed.transport(err),
        distributed.address,
        distributed.wireUp(),
        config,
        gdbs.ranksPerGdb(),
        distributed.keys(err));
  }

  /**
   * The attach through PMIx of {@code pmix}: {@code PID[:NAMESPACE]}, the launcher's pid and the
   * job's PMIx namespace if it runs several; or {@code URI[#NAMESPACE]}, a PMIx server's URI (a
   * DVM's, with "://" in it).
   *
   * @throws IllegalArgumentException when it does not parse
   */
  static PmixSession.AttachSpec pmix(
      String pmix,
      DistributedOptions distributed,
      GdbSharingOptions gdbs,
      FabricConfig config,
      PrintStream err) {
    boolean uri = pmix.contains("://");
    int at = uri ? pmix.lastIndexOf('#') : pmix.indexOf(':');
    String server = at < 0 ? pmix : pmix.substring(0, at);
    boolean pid = server.matches("[1-9][0-9]{0,9}");
    if ((!uri && !pid) || at == pmix.length() - 1) {
      throw new IllegalArgumentException(
          "--pmix needs the launcher's pid or a PMIx server's URI, and its job's namespace if it"
              + " runs several: PID[:NAMESPACE] or URI[#NAMESPACE], not "
              + pmix);
    }
    return new PmixSession.AttachSpec(
        server,
        at < 0 ? Optional.empty() : Optional.of(pmix.substring(at + 1)),
        new PmixSession.Wiring(
            distributed.transport(err),
            distributed.address,
            distributed.wireUp(),
            gdbs.ranksPerGdb(),
            config,
            distributed.keys(err)));
  }

  /**
   * Attaches to what the command line names: through PMIx when {@code pmix} is not null, else to
   * {@code targets} or the Slurm step {@code slurm} ({@link #of}).
   *
   * @throws IllegalArgumentException for an option that does not parse
   * @throws IOException when the processes cannot be attached to
   */
  static SessionFactory.Attached attach(
      String pmix,
      List<String> targets,
      String slurm,
      String rsh,
      DistributedOptions distributed,
      GdbSharingOptions gdbs,
      FabricConfig config,
      PrintStream err)
      throws IOException {
    return attach(pmix, targets, slurm, rsh, distributed, gdbs, config, err, p -> {});
  }

  /**
   * {@link #attach(String, List, String, String, DistributedOptions, GdbSharingOptions,
   * FabricConfig, PrintStream)}, telling {@code progress} how many ranks have joined as they do.
   */
  static SessionFactory.Attached attach(
      String pmix,
      List<String> targets,
      String slurm,
      String rsh,
      DistributedOptions distributed,
      GdbSharingOptions gdbs,
      FabricConfig config,
      PrintStream err,
      Consumer<StartProgress> progress)
      throws IOException {
    return pmix != null
        ? SessionFactory.attach(pmix(pmix, distributed, gdbs, config, err), err, progress)
        : SessionFactory.attach(
            of(targets, slurm, rsh, distributed, gdbs, config, err), err, progress);
  }
}
