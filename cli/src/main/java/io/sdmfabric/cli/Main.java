package io.sdmfabric.cli;

import io.sdmfabric.runtime.LibraryLog;
import io.sdmfabric.runtime.PrivateDirectory;
import io.sdmfabric.runtime.agent.AgentCommand;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

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
      "  sdm stacks -n 16 --after 5s ./app   where is a hanging job stuck?",
      "  sdm debug --launcher mpirun -n 8 --oversubscribe -- ./app",
      "  sdm stacks --launcher srun -n 64 -- ./app     under Slurm, an agent per node",
      "  sdm connect srun -n 4 ./app   in a batch script: ask a front-end to debug it",
      "  sdm listen                    on the desktop: accept requests of sdm connect",
      "  sdm relay --listen 7000 --to desktop:7001   on a login node, for --via",
      "  sdm attach 4711,4712 node2:5120      debug running processes of an MPI job",
      "  sdm attach --slurm 1234              every process of Slurm job step 1234.0",
      "  sdm attach --pmix 4700               the job of Open MPI 5's mpirun 4700, through PMIx",
      "  sdm dap                       the debug adapter VS Code and other DAP clients start",
      "  sdm jobs                      your jobs, each with the sdm attach line for it",
      "  sdm nodes --watch             partitions and their nodes by state, as they change"
    })
public final class Main implements Callable<Integer> {

  /**
   * Runs the command line and exits with its status. The libraries' log lines go to a file of the
   * run under sdm's home ({@link LibraryLog}), unless {@code --verbose}.
   */
  public static void main(String[] args) {
    LibraryLog.toFile(PrivateDirectory.sdmHome(), System.err);
    System.exit(execute(System.out, System.err, args));
  }

  /** Given to sdm and to every subcommand: {@code sdm debug --verbose ...}. */
  @Option(
      names = "--verbose",
      scope = ScopeType.INHERIT,
      description =
          "show the log lines of sdm's libraries (Pekko, Aeron) here, not in a file under"
              + " ~/.sdm/logs")
  void verbose(boolean on) {
    if (on) {
      LibraryLog.toConsole();
    }
  }

  /**
   * Runs the command line: for {@code debug} and {@code stacks}, the unknown options before {@code
   * --} are the launcher's ({@link LauncherArgs}).
   */
  static int execute(java.io.PrintStream out, java.io.PrintStream err, String... args) {
    // Logging set up now, on one thread: otherwise the actor systems' threads race to it and
    // SLF4J warns that it replayed their calls.
    org.slf4j.LoggerFactory.getILoggerFactory();
    CommandLine cl = commandLine(out, err);
    if (args.length > 0 && cl.getSubcommands().get(args[0]) != null) {
      CommandLine sub = cl.getSubcommands().get(args[0]);
      if (sub.getCommand() instanceof DebugCommand d) {
        return launch(cl, sub, d.launch, args);
      } else if (sub.getCommand() instanceof StacksCommand st) {
        return launch(cl, sub, st.launch, args);
      }
    }
    return cl.execute(args);
  }

  private static int launch(CommandLine cl, CommandLine sub, LaunchOptions options, String[] args) {
    LauncherArgs split =
        LauncherArgs.split(sub.getCommandSpec(), java.util.List.of(args).subList(1, args.length));
    options.launcherOptions = new java.util.ArrayList<>(split.launcher());
    java.util.List<String> all = new java.util.ArrayList<>();
    all.add(args[0]);
    all.addAll(split.sdm());
    return cl.execute(all.toArray(String[]::new));
  }

  /** The command line, writing to {@code out} and {@code err}. */
  static CommandLine commandLine(java.io.PrintStream out, java.io.PrintStream err) {
    CommandLine cl = new CommandLine(new Main());
    cl.addSubcommand(new DebugCommand(out, err));
    cl.addSubcommand(new StacksCommand(out, err));
    cl.addSubcommand(new AttachCommand(out, err));
    cl.addSubcommand(new AgentCommand(err));
    cl.addSubcommand(new ConnectCommand(err));
    cl.addSubcommand(new ListenCommand(out, err));
    cl.addSubcommand(new RelayCommand(err));
    cl.addSubcommand(new DapCommand(System.in, out));
    cl.addSubcommand(new JobsCommand(out, err));
    cl.addSubcommand(new NodesCommand(out, err));
    // Everything after the program is the program's: sdm debug -n 4 ./app -v
    cl.getSubcommands().get("debug").setStopAtPositional(true);
    cl.getSubcommands().get("stacks").setStopAtPositional(true);
    // sdm connect srun -n 4 ./app: the launch command's options are its own.
    cl.getSubcommands().get("connect").setStopAtPositional(true);
    // Bad input, from any command: its one line and exit status 2. Anything else as picocli does.
    cl.setExecutionExceptionHandler(
        (e, command, parsed) -> {
          if (e instanceof UsageError u) {
            err.println(u.line());
            return UsageError.STATUS;
          }
          throw e;
        });
    return cl;
  }

  @Override
  public Integer call() {
    CommandLine.usage(this, System.out);
    return 2;
  }
}
