package io.sdmfabric.cli;

import io.sdmfabric.frontend.AttachWorkflow;
import io.sdmfabric.frontend.Console;
import io.sdmfabric.frontend.Renderer;
import io.sdmfabric.frontend.StartDisplay;
import io.sdmfabric.master.Rendezvous;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.runtime.MasterSession;
import io.sdmfabric.runtime.SessionFactory;
import io.sdmfabric.server.FabricConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sdm attach}: debugs the running processes of an MPI job that sdm did not start, given by
 * host and pid or as a Slurm job step, from the same console as {@code sdm debug}. Attaching stops
 * each process where it is; {@code detach}, {@code quit}, the end of the input, Ctrl-C and SIGTERM
 * leave every process running on unharmed. Only {@code kill} ends them.
 */
@Command(
    name = "attach",
    description =
        "Debug the running processes of an MPI job: HOST:PID[,PID...] (PID alone: this host), or"
            + " --slurm JOBID[.STEP]. They run on when sdm detaches or quits.",
    mixinStandardHelpOptions = true)
final class AttachCommand implements Callable<Integer> {
  @Mixin ConsoleOptions consoleOptions = new ConsoleOptions();

  @Option(
      names = "--slurm",
      paramLabel = "JOBID[.STEP]",
      description = "attach to every process of this Slurm job step (default step: 0)")
  String slurm;

  @Option(
      names = "--pmix",
      paramLabel = "PID[:NAMESPACE]|URI[#NAMESPACE]",
      description =
          "attach through the PMIx tool interface to the job of the launcher (Open MPI 5's"
              + " mpirun, PRRTE's prterun or prte) whose pid is PID, or of the PMIx server at URI"
              + " (a DVM's, as prte --report-uri says it): its first job, or NAMESPACE")
  String pmix;

  @Option(
      names = "--rsh",
      paramLabel = "COMMAND",
      description =
          "how to reach other hosts' processes; the host and a command follow it"
              + " (default: ${DEFAULT-VALUE})")
  String rsh = "ssh";

  @Mixin GdbSharingOptions gdbs = new GdbSharingOptions();

  @Mixin DistributedOptions distributed = new DistributedOptions();

  @Parameters(
      paramLabel = "TARGET",
      arity = "0..*",
      description = "HOST:PID[,PID...], or PID[,PID...] for processes of this host")
  List<String> targets = new ArrayList<>();

  private final PrintStream out;
  private final PrintStream err;

  AttachCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() throws Exception {
    if ((targets.isEmpty() ? 0 : 1) + (slurm == null ? 0 : 1) + (pmix == null ? 0 : 1) != 1) {
      throw new UsageError(
          "sdm attach",
          "give processes (HOST:PID[,PID...] or PID...), --slurm JOBID[.STEP] or"
              + " --pmix PID[:NAMESPACE]");
    }
    consoleOptions.check();
    FabricConfig config = consoleOptions.config();
    StartDisplay start = consoleOptions.startDisplay(out, err);
    SessionFactory.Attached job;
    try {
      job =
          AttachSpecs.attach(
              pmix, targets, slurm, rsh, distributed, gdbs, config, start.around(err), start);
    } catch (IOException | IllegalArgumentException e) {
      start.close();
      // It may quote what other nodes answered (their processes, a remote shell's errors).
      throw new UsageError("sdm", TerminalText.escape(String.valueOf(e.getMessage())));
    }
    MasterSession session = job.session();
    RankSet attached = job.attached();
    return consoleOptions.run(
        session,
        out,
        start,
        new ConsoleOptions.Around() {
          @Override
          public boolean begin(Console console, Renderer renderer) throws Exception {
            return AttachWorkflow.begin(
                session, console, renderer, attached, Rendezvous.NOT_ATTACHED);
          }

          // quit or the end of the input: every rank still attached runs on without sdm.
          @Override
          public void end(Console console) throws Exception {
            AttachWorkflow.leaveRunning(console, attached);
          }
        });
  }
}
