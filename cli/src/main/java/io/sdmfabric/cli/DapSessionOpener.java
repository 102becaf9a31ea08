package io.sdmfabric.cli;

import io.sdmfabric.connect.ListenOnce;
import io.sdmfabric.frontend.RemoteSession;
import io.sdmfabric.frontend.dap.AttachConfig;
import io.sdmfabric.frontend.dap.LaunchConfig;
import io.sdmfabric.frontend.dap.SessionOpener;
import io.sdmfabric.master.Rendezvous;
import io.sdmfabric.runtime.DistributedSettings;
import io.sdmfabric.runtime.GdbFleet;
import io.sdmfabric.runtime.LaunchRequest;
import io.sdmfabric.runtime.Programs;
import io.sdmfabric.runtime.SessionFactory;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.proto.Welcome;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Sessions for {@code sdm dap}'s requests as {@code sdm debug}, {@code sdm attach} and {@code sdm
 * listen} open them, with their options' defaults: each request's configuration becomes the request
 * of the service that opens it (runtime's {@link SessionFactory}, connect's {@link ListenOnce}). It
 * is here because only the command line sees both.
 */
final class DapSessionOpener implements SessionOpener {
  @Override
  public SessionClient launch(LaunchConfig config, PrintStream log) throws Exception {
    boolean launcher = !config.launcher().equals("none");
    return SessionFactory.open(
        new LaunchRequest(
            config.ranks(),
            Programs.resolve(config.program()),
            config.args(),
            launcher ? Optional.of(config.launcher()) : Optional.empty(),
            launcher && !config.launcherFamily().isEmpty()
                ? Optional.of(config.launcherFamily())
                : Optional.empty(),
            launcher ? config.launcherArgs() : List.of(),
            OptionalLong.empty(),
            GdbFleet.ranksPerGdb(config.ranks()),
            config.fromExec(),
            DistributedSettings.DEFAULTS,
            FabricConfig.defaults()),
        log);
  }

  @Override
  public Attached attach(AttachConfig config, PrintStream log) throws Exception {
    SessionFactory.Attached job =
        SessionFactory.attach(
            AttachSpecs.of(
                config.targets(),
                config.slurm().isEmpty() ? null : config.slurm(),
                config.rsh(),
                new DistributedOptions(),
                new GdbSharingOptions(),
                FabricConfig.defaults(),
                log),
            log);
    return new Attached(job.session(), job.attached(), Rendezvous.NOT_ATTACHED);
  }

  @Override
  public Connected listen(AttachConfig config, PrintStream log) throws Exception {
    RemoteSession session = ListenOnce.accept(Duration.ofSeconds(config.listenSeconds()), log);
    Welcome w = session.welcome();
    return new Connected(session, w.getProgram(), List.copyOf(w.getArgsList()));
  }
}
