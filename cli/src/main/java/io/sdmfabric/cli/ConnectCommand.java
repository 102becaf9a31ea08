package io.sdmfabric.cli;

import io.sdmfabric.connect.LaunchLine;
import io.sdmfabric.connect.ReverseConnect;
import io.sdmfabric.frontend.Durations;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.HostPort;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sdm connect}: reverse connect, for batch scripts ({@link ReverseConnect}). In front of the
 * job's launch command ({@code sdm connect srun -n 4 ./app}) it asks a front-end ({@code sdm
 * listen}) to debug the job, and serves it once accepted. Exit status 0 when the front-end ended
 * the session, 1 when no front-end answered, it was rejected or the job failed, 2 on bad input.
 */
@Command(
    name = "connect",
    description =
        "Ask a front-end (sdm listen) to debug a job: put it in front of the launch command"
            + " in a batch script.",
    mixinStandardHelpOptions = true)
final class ConnectCommand implements Callable<Integer> {
  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      description =
          "give up when no front-end has answered within DURATION, e.g. 10m (default: wait)")
  String timeout;

  @Option(
      names = "--via",
      paramLabel = "HOST:PORT",
      description = "connect to the front-end through the relay at HOST:PORT (sdm relay)")
  String via;

  @Option(
      names = "--from-exec",
      description =
          "attach each rank at its exec, to debug what runs before MPI_Init (default: an MPI"
              + " program's ranks are attached at the end of MPI_Init)")
  boolean fromExec;

  @Mixin DistributedOptions distributed = new DistributedOptions();

  @Parameters(
      paramLabel = "LAUNCH COMMAND",
      arity = "1..*",
      description = "the job's launch command, e.g. srun -n 4 ./app arg")
  List<String> command = new ArrayList<>();

  private final PrintStream err;

  ConnectCommand(PrintStream err) {
    this.err = err;
  }

  @Override
  public Integer call() throws Exception {
    ReverseConnect.Spec spec;
    try {
      LaunchLine line = LaunchLine.parse(command, System.getenv());
      spec =
          new ReverseConnect.Spec(
              command,
              line,
              line.job(
                  distributed.transport(err),
                  distributed.keys(err),
                  distributed.address,
                  distributed.wireUp(),
                  fromExec,
                  FabricConfig.defaults()),
              timeout == null ? Optional.empty() : Optional.of(Durations.parse(timeout)),
              via == null ? Optional.empty() : Optional.of(HostPort.parse(via)));
    } catch (IllegalArgumentException e) {
      throw new UsageError("sdm connect", e.getMessage());
    }
    ReverseConnect.Outcome outcome;
    try {
      outcome = ReverseConnect.run(spec, err);
    } catch (IOException e) {
      throw new UsageError("sdm connect", e.getMessage());
    }
    if (outcome instanceof ReverseConnect.Unanswered u) {
      err.println(
          "sdm connect: no front-end answered within "
              + timeout
              + "; request "
              + u.requestId()
              + " withdrawn");
    } else if (outcome instanceof ReverseConnect.Rejected r) {
      err.println(
          "sdm connect: reverse connect request rejected"
              + (r.reason().isBlank() ? "" : ": " + TerminalText.escape(r.reason())));
    } else if (outcome instanceof ReverseConnect.Failed f) {
      // A failed handshake may quote the other side's reason: text a stranger chose.
      err.println("sdm connect: " + TerminalText.escape(f.why()));
    }
    return outcome.succeeded() ? 0 : 1;
  }
}
