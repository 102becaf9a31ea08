package io.sdmfabric.cli;

import io.sdmfabric.model.LauncherJob;
import io.sdmfabric.model.QueuedJob;
import io.sdmfabric.runtime.cluster.LocalLaunchers;
import io.sdmfabric.runtime.cluster.Slurm;
import io.sdmfabric.runtime.cluster.SlurmCommand;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code sdm jobs}: your Slurm jobs with their steps, and your jobs of mpirun, mpiexec and prterun
 * on this host with their ranks; beside each, the {@code sdm attach} and {@code sdm stacks} lines
 * that attach to it or sample its stacks. Without Slurm on this host, or when it does not answer,
 * the launchers' jobs, and why there are no Slurm jobs.
 */
@Command(
    name = "jobs",
    description =
        "List your Slurm jobs and steps and your mpirun/mpiexec/prterun jobs on this host, each with"
            + " the sdm attach and sdm stacks lines for it.",
    mixinStandardHelpOptions = true)
final class JobsCommand implements Callable<Integer> {
  @Mixin ViewOptions view = new ViewOptions();

  private final PrintStream out;
  private final PrintStream err;

  JobsCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() throws Exception {
    String user = System.getProperty("user.name");
    return view.print("sdm jobs", command -> take(user, command), out, err);
  }

  private static ViewOptions.View take(String user, SlurmCommand command) throws IOException {
    List<QueuedJob> jobs = List.of();
    String problem = "";
    try {
      jobs = new Slurm(command).jobs(user);
    } catch (IOException e) {
      // Not installed, or not answering: said in Slurm's part; the launchers' jobs are still here.
      problem = e.getMessage();
    }
    List<LauncherJob> local = LocalLaunchers.find();
    JobsReport report = new JobsReport(user, jobs, problem, local);
    return new ViewOptions.View(report.text(), report.json(true), report.json(false));
  }
}
