package io.sdmfabric.cli;

import io.sdmfabric.frontend.dap.LaunchConfig;
import io.sdmfabric.frontend.dap.SdmDebugAdapter;
import io.sdmfabric.runtime.Programs;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.SessionClient;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.concurrent.Callable;
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
    SdmDebugAdapter.serve(in, out, DapCommand::open);
    return 0;
  }

  private static SessionClient open(LaunchConfig config, PrintStream log) throws Exception {
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
}
