package io.sdmfabric.launch;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code sdm} command. */
@Command(
    name = "sdm",
    mixinStandardHelpOptions = true,
    version = "sdm 0.1.0",
    description = "SDM Fabric: a scalable parallel debugger.",
    subcommands = {},
    footer = {
      "",
      "Examples:",
      "  sdm debug -n 4 ./app arg     debug 4 ranks of ./app, one gdb per rank",
      "  sdm debug -n 8 -x cmds.sdm --batch ./app",
      "  sdm stacks -n 16 --after 5s ./app   where is a hanging job stuck?"
    })
public final class Main implements Callable<Integer> {

  /** Runs the command line and exits with its status. */
  public static void main(String[] args) {
    System.exit(commandLine(System.out, System.err).execute(args));
  }

  /** The command line, writing to {@code out} and {@code err}. */
  static CommandLine commandLine(java.io.PrintStream out, java.io.PrintStream err) {
    CommandLine cl = new CommandLine(new Main());
    cl.addSubcommand(new DebugCommand(out, err));
    cl.addSubcommand(new StacksCommand(out, err));
    cl.addSubcommand(new AgentCommand(err));
    // Everything after the program is the program's: sdm debug -n 4 ./app -v
    cl.getSubcommands().get("debug").setStopAtPositional(true);
    cl.getSubcommands().get("stacks").setStopAtPositional(true);
    return cl;
  }

  @Override
  public Integer call() {
    CommandLine.usage(this, System.out);
    return 2;
  }
}
