package io.sdmfabric.cli;

import io.sdmfabric.runtime.EmbeddedSession;
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
    if (opensEmbeddedSession(args)) {
      // Pekko's start, on a thread of its own while the command line is read and gdb starts.
      EmbeddedSession.startMasterEarly();
    }
    System.exit(execute(System.out, System.err, args));
  }

  /** The options after which {@code sdm debug} opens no embedded session. */
  private static final java.util.Set<String> NOT_EMBEDDED =
      java.util.Set.of("--launcher", "--dvm", "-h", "--help", "-V", "--version");

  /**
   * Whether {@code args} are those of an {@code sdm debug} that opens an embedded session: none of
   * {@link #NOT_EMBEDDED} before a {@code --}. A guess from the words alone, before they are
   * parsed: a wrong guess costs only time (an actor system started for nothing, or not early).
   */
  static boolean opensEmbeddedSession(String[] args) {
    if (args.length < 2 || !args[0].equals("debug")) {
      return false;
    }
    for (String a : java.util.List.of(args).subList(1, args.length)) {
      if (a.equals("--")) {
        break;
      }
      if (NOT_EMBEDDED.contains(a.split("=", 2)[0])) {
        return false;
      }
    }
    return true;
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
    CommandLine cl = commandLine(out, err, args.length > 0 ? args[0] : "");
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
    return commandLine(out, err, "");
  }

  /**
   * {@link #commandLine(java.io.PrintStream, java.io.PrintStream)} for a run whose first word is
   * {@code first}: when it names a subcommand, that one alone, so that the run does not read the
   * options of the others (picocli reads a command's annotations as it is added, about 10 ms each
   * at a JVM's start; issue #30, item 2).
   */
  static CommandLine commandLine(java.io.PrintStream out, java.io.PrintStream err, String first) {
    java.util.Map<String, java.util.function.Supplier<Object>> subcommands =
        new java.util.LinkedHashMap<>();
    subcommands.put("debug", () -> new DebugCommand(out, err));
    subcommands.put("stacks", () -> new StacksCommand(out, err));
    subcommands.put("attach", () -> new AttachCommand(out, err));
    subcommands.put("agent", () -> new AgentCommand(err));
    subcommands.put("connect", () -> new ConnectCommand(err));
    subcommands.put("listen", () -> new ListenCommand(out, err));
    subcommands.put("relay", () -> new RelayCommand(err));
    subcommands.put("dap", () -> new DapCommand(System.in, out));
    subcommands.put("jobs", () -> new JobsCommand(out, err));
    subcommands.put("nodes", () -> new NodesCommand(out, err));
    boolean one = subcommands.containsKey(first);
    CommandLine cl = new CommandLine(new Main());
    subcommands.forEach(
        (name, command) -> {
          if (!one || name.equals(first)) {
            cl.addSubcommand(name, command.get());
          }
        });
    for (String name : java.util.List.of("debug", "stacks", "connect")) {
      // Everything after the program is the program's: sdm debug -n 4 ./app -v; and sdm connect
      // srun -n 4 ./app: the launch command's options are its own.
      if (cl.getSubcommands().containsKey(name)) {
        cl.getSubcommands().get(name).setStopAtPositional(true);
      }
    }
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
