package io.sdmfabric.cli;

import io.sdmfabric.connect.ConnectDirectory;
import io.sdmfabric.connect.FrontEndListener;
import io.sdmfabric.connect.ListenConsole;
import io.sdmfabric.connect.RequestAcceptance;
import io.sdmfabric.frontend.RemoteSession;
import io.sdmfabric.frontend.dap.AttachConfig;
import io.sdmfabric.frontend.dap.LaunchConfig;
import io.sdmfabric.frontend.dap.SdmDebugAdapter;
import io.sdmfabric.frontend.dap.SessionOpener;
import io.sdmfabric.master.Rendezvous;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.runtime.AttachedSession;
import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.runtime.Programs;
import io.sdmfabric.runtime.attach.AttachTargets;
import io.sdmfabric.runtime.attach.SlurmStep;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.HostPort;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.SessionClient;
import io.sdmfabric.wire.proto.CommandBody;
import io.sdmfabric.wire.proto.Welcome;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import picocli.CommandLine.Command;

/**
 * {@code sdm dap}: a debug adapter on standard input and output, for VS Code and other DAP clients.
 * Each launch request starts its session as {@code sdm debug} would.
 */
@Command(
    name = "dap",
    description = "Serve a DAP client (VS Code and others) on standard input and output.",
    mixinStandardHelpOptions = true)
final class DapCommand implements Callable<Integer> {
  private final InputStream in;
  private final PrintStream out;

  DapCommand(InputStream in, PrintStream out) {
    this.in = in;
    this.out = out;
  }

  @Override
  public Integer call() throws Exception {
    // Standard output carries the protocol alone: anything else printed goes to standard error.
    System.setOut(System.err);
    SdmDebugAdapter.serve(in, out, new Opener());
    return 0;
  }

  /** Sessions as {@code sdm debug}, {@code sdm attach} and {@code sdm listen} open them. */
  private static final class Opener implements SessionOpener {
    @Override
    public SessionClient launch(LaunchConfig config, PrintStream log) throws Exception {
      LaunchOptions launch = new LaunchOptions();
      if (!config.launcher().equals("none")) {
        launch.launcher = config.launcher();
        launch.launcherOptions = new ArrayList<>(config.launcherArgs());
      }
      return launch.open(
          config.ranks(),
          Programs.resolve(config.program()),
          config.args(),
          FabricConfig.defaults(),
          log);
    }

    @Override
    public Attached attach(AttachConfig config, PrintStream log) throws Exception {
      DistributedOptions distributed = new DistributedOptions();
      AttachedSession.Spec spec =
          new AttachedSession.Spec(
              config.targets().isEmpty()
                  ? Optional.empty()
                  : Optional.of(AttachTargets.parse(config.targets())),
              config.slurm().isEmpty()
                  ? Optional.empty()
                  : Optional.of(SlurmStep.parse(config.slurm())),
              List.of(config.rsh().strip().split("\\s+")),
              distributed.transport(log),
              distributed.address,
              distributed.wireUp(),
              FabricConfig.defaults(),
              new GdbSharingOptions().ranksPerGdb());
      AttachedSession session = AttachedSession.start(spec, log);
      return new Attached(session, session.attached(), Rendezvous.NOT_ATTACHED);
    }

    @Override
    public Connected listen(AttachConfig config, PrintStream log) throws Exception {
      ConnectDirectory dir = ConnectDirectory.open();
      FrontEndListener listener =
          new FrontEndListener(
              HostPort.parse("0", ClusterSettings.localAddress()),
              ListenConsole.listenerWarnings(log));
      try {
        RemoteSession session =
            RequestAcceptance.acceptFirst(
                dir,
                listener,
                Duration.ofSeconds(config.listenSeconds()),
                log::println,
                Duration.ofMinutes(15));
        Welcome w = session.welcome();
        return new Connected(
            new ClosingAlso(session, listener), w.getProgram(), List.copyOf(w.getArgsList()));
      } catch (Exception e) {
        listener.close();
        throw e;
      }
    }
  }

  /** A reverse-connected session that, closed, stops listening too. */
  private record ClosingAlso(SessionClient session, AutoCloseable listener)
      implements SessionClient {
    @Override
    public int size() {
      return session.size();
    }

    @Override
    public CompletableFuture<List<RankReply>> call(
        CommandBody command, RankSet dest, Duration timeout) {
      return session.call(command, dest, timeout);
    }

    @Override
    public void onEvent(Consumer<RankReply> events) {
      session.onEvent(events);
    }

    @Override
    public void close() {
      try {
        session.close();
      } finally {
        try {
          listener.close();
        } catch (Exception e) {
          // Closing a listening socket: nothing left to do about it.
        }
      }
    }
  }
}
