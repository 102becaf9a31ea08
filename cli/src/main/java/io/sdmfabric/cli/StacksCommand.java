package io.sdmfabric.cli;

import io.sdmfabric.frontend.Durations;
import io.sdmfabric.frontend.ProcessTable;
import io.sdmfabric.frontend.StackSnapshot;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.runtime.AttachedSession;
import io.sdmfabric.runtime.MasterSession;
import io.sdmfabric.runtime.PmixSession;
import io.sdmfabric.runtime.Programs;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.SessionClient;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sdm stacks}: STAT's view of a hang. Runs the program on N ranks, lets it run for a while
 * or until every rank has stopped or ended, interrupts the rest, prints the merged call-prefix tree
 * of every thread, and ends every process. Or attaches to the running processes of a job that sdm
 * did not start (the targets of {@code sdm attach}), samples them, and detaches, leaving them
 * running as they were. {@code --samples K} takes K snapshots {@code --interval} apart and says of
 * each place whether its ranks stood there in every one (stuck) or moved (progressing).
 */
@Command(
    name = "stacks",
    description =
        "Run PROGRAM on N ranks, or attach to a running job (HOST:PID[,PID...], PID..., --slurm"
            + " JOBID[.STEP]), then print the merged stacks of every thread of every rank.",
    mixinStandardHelpOptions = true)
final class StacksCommand implements Callable<Integer> {
  /** Processes as {@code sdm attach} takes them: {@code [HOST:]PID[,PID...]}. */
  private static final Pattern TARGET = Pattern.compile("([^\\s:/]+:)?\\d+(,\\d+)*");

  @Option(names = "-n", description = "number of ranks (default: ${DEFAULT-VALUE})")
  int ranks = 4;

  @Option(
      names = "--after",
      paramLabel = "DURATION",
      description =
          "how long the program runs before it is interrupted, e.g. 3s, 500ms"
              + " (default: ${DEFAULT-VALUE})")
  String after = "3s";

  @Option(
      names = "--samples",
      paramLabel = "K",
      description =
          "take K snapshots, the ranks running on between them; each place says whether its"
              + " ranks were stuck there or progressing (default: ${DEFAULT-VALUE})")
  int samples = 1;

  @Option(
      names = "--interval",
      paramLabel = "DURATION",
      description = "how long the ranks run between samples (default: ${DEFAULT-VALUE})")
  String interval = "1s";

  @Option(names = "--format", description = "text, json or dot (default: ${DEFAULT-VALUE})")
  StackSnapshot.Format format = StackSnapshot.Format.text;

  @Option(
      names = "--slurm",
      paramLabel = "JOBID[.STEP]",
      description = "sample every process of this running Slurm job step (default step: 0)")
  String slurm;

  @Option(
      names = "--pmix",
      paramLabel = "PID[:NAMESPACE]|URI[#NAMESPACE]",
      description =
          "sample the running job of the launcher (Open MPI 5's mpirun, PRRTE's) whose pid is PID,"
              + " through the PMIx tool interface")
  String pmix;

  @Option(
      names = "--rsh",
      paramLabel = "COMMAND",
      description =
          "how to reach other hosts' processes of a running job (default: ${DEFAULT-VALUE})")
  String rsh = "ssh";

  /** How ranks start, and (its gdb sharing and transport) how a running job's are reached. */
  @Mixin LaunchOptions launch = new LaunchOptions();

  @Parameters(
      paramLabel = "PROGRAM [ARGS] | TARGET...",
      description =
          "the program and its arguments; or the processes of a running job: HOST:PID[,PID...],"
              + " or PID[,PID...] for processes of this host")
  List<String> words = new ArrayList<>();

  private final PrintStream out;
  private final PrintStream err;

  StacksCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() throws Exception {
    Duration wait;
    Duration apart;
    try {
      wait = Durations.parse(after);
      apart = Durations.parse(interval);
    } catch (IllegalArgumentException e) {
      err.println("sdm: " + e.getMessage());
      return 2;
    }
    if (samples < 1) {
      err.println("sdm: --samples needs at least 1, not " + samples);
      return 2;
    }
    boolean running =
        slurm != null
            || pmix != null
            || (!words.isEmpty() && words.stream().allMatch(w -> TARGET.matcher(w).matches()));
    if ((slurm != null ? 1 : 0) + (pmix != null ? 1 : 0) + (words.isEmpty() ? 0 : 1) > 1) {
      err.println(
          "sdm stacks: give a program, processes, --slurm JOBID[.STEP] or --pmix PID, only one");
      return 2;
    }
    if (words.isEmpty() && slurm == null && pmix == null) {
      err.println("sdm stacks: give a program (and its arguments), processes, --slurm or --pmix");
      return 2;
    }
    return running ? sampleRunningJob(apart) : runProgram(wait, apart);
  }

  private int runProgram(Duration wait, Duration apart) throws Exception {
    String program = words.get(0);
    List<String> args = words.subList(1, words.size());
    String resolved;
    SessionClient session;
    try {
      resolved = Programs.resolve(program);
      session = launch.open(ranks, resolved, args, FabricConfig.defaults(), err);
    } catch (IOException | IllegalArgumentException e) {
      err.println("sdm: " + e.getMessage());
      return 2;
    }
    try (session) {
      StackSnapshot.take(session, resolved, args, wait, samples, apart).print(format, out);
      return 0;
    } catch (StackSnapshot.LoadFailed e) {
      // gdb's reason, as the ranks gave it.
      err.println("sdm: [" + e.ranks() + "] " + TerminalText.escape(e.getMessage()));
      return 1;
    }
  }

  /** Attaches to the job's processes, samples them, and detaches: they run on as they were. */
  private int sampleRunningJob(Duration apart) throws Exception {
    MasterSession session;
    RankSet attached;
    try {
      if (pmix != null) {
        PmixSession s =
            PmixSession.attach(
                AttachSpecs.pmix(
                    pmix, launch.distributed, launch.gdbs, FabricConfig.defaults(), err),
                err);
        session = s;
        attached = s.attached();
      } else {
        AttachedSession s =
            AttachedSession.start(
                AttachSpecs.of(
                    words,
                    slurm,
                    rsh,
                    launch.distributed,
                    launch.gdbs,
                    FabricConfig.defaults(),
                    err),
                err);
        session = s;
        attached = s.attached();
      }
    } catch (IOException | IllegalArgumentException e) {
      err.println("sdm: " + TerminalText.escape(String.valueOf(e.getMessage())));
      return 2;
    }
    try (session) {
      ProcessTable table = new ProcessTable(session.size());
      session.subscribe(table::apply);
      table.put(attached, ProcessTable.State.STOPPED, "attached");
      StackSnapshot snapshot;
      try {
        snapshot = StackSnapshot.sample(session, table, attached, samples, apart);
      } finally {
        // Whatever happened, the job runs on without sdm.
        session.call(Commands.detach(), attached, Duration.ZERO).get(60, TimeUnit.SECONDS);
      }
      snapshot.print(format, out);
      return 0;
    }
  }
}
