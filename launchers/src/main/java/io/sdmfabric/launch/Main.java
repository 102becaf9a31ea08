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
    subcommands = {Main.Demo.class})
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

  /** {@code sdm demo}: the demo of the GDB/MI layer on one process. */
  @Command(name = "demo", description = "Run a bundled C program under gdb and print its stops.")
  static final class Demo implements Callable<Integer> {
    @Override
    public Integer call() throws Exception {
      return new GdbDemo(System.out).run();
    }
  }
}
