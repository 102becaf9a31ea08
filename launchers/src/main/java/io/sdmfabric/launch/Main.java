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
    System.exit(new CommandLine(new Main()).execute(args));
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
