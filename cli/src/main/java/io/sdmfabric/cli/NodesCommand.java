package io.sdmfabric.cli;

import io.sdmfabric.runtime.cluster.Slurm;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code sdm nodes}: the cluster's Slurm partitions, each with its nodes grouped by state. */
@Command(
    name = "nodes",
    description = "List the Slurm partitions, each with its nodes grouped by state.",
    mixinStandardHelpOptions = true)
final class NodesCommand implements Callable<Integer> {
  @Mixin ViewOptions view = new ViewOptions();

  private final PrintStream out;
  private final PrintStream err;

  NodesCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() throws Exception {
    return view.print(
        "sdm nodes",
        command -> {
          NodesReport report = new NodesReport(new Slurm(command).machine());
          return new ViewOptions.View(report.text(), report.json(), report.json());
        },
        out,
        err);
  }
}
