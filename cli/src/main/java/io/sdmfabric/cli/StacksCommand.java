package io.sdmfabric.cli;

import io.sdmfabric.frontend.Durations;
import io.sdmfabric.frontend.RunningJobStacks;
import io.sdmfabric.frontend.StackSnapshot;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.runtime.MasterSession;
import io.sdmfabric.runtime.Programs;
import io.sdmfabric.runtime.SessionFactory;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.SessionClient;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
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

  @Option(
      names = "--format",
      description =
          "text, json, dot, html (a page to open in a browser: zoom, fold subtrees) or svg (a"
              + " picture) (default: ${DEFAULT-VALUE})")
  StackSnapshot.Format format = StackSnapshot.Format.text;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "write the stacks to FILE instead of standard output")
  Path output;

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
      throw new UsageError("sdm", e.getMessage());
    }
    if (samples < 1) {
      throw new UsageError("sdm", "--samples needs at least 1, not " + samples);
    }
    boolean running =
        slurm != null
            || pmix != null
            || (!words.isEmpty() && words.stream().allMatch(w -> TARGET.matcher(w).matches()));
    if ((slurm != null ? 1 : 0) + (pmix != null ? 1 : 0) + (words.isEmpty() ? 0 : 1) > 1) {
      throw new UsageError(
          "sdm stacks", "give a program, processes, --slurm JOBID[.STEP] or --pmix PID, only one");
    }
    if (words.isEmpty() && slurm == null && pmix == null) {
      throw new UsageError(
          "sdm stacks", "give a program (and its arguments), processes, --slurm or --pmix");
    }
    if (format.picture() && output == null && System.console() != null) {
      // A page or a picture dumped on a terminal is of no use to anyone.
      throw new UsageError(
          "sdm stacks",
          "--format " + format + " writes a picture: give -o FILE." + format + ", or redirect");
    }
    if (output != null && output.getParent() != null && !Files.isDirectory(output.getParent())) {
      throw new UsageError(
          "sdm stacks",
          TerminalText.escape("-o " + output + ": no directory " + output.getParent()));
    }
    return running ? sampleRunningJob(apart) : runProgram(wait, apart);
  }

  /**
   * Prints {@code snapshot} as {@code --format} says, on standard output or into {@code -o FILE}
   * (written whole or not at all: into a hidden file beside it, then moved).
   */
  private void print(StackSnapshot snapshot) throws IOException {
    if (output == null) {
      snapshot.print(format, out);
      return;
    }
    Path partial = output.resolveSibling("." + output.getFileName() + ".part");
    try {
      try (PrintStream file =
          new PrintStream(Files.newOutputStream(partial), false, StandardCharsets.UTF_8)) {
        snapshot.print(format, file);
        if (file.checkError()) {
          throw new IOException("could not write " + partial);
        }
      }
      Files.move(partial, output, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(partial);
    }
    err.println(TerminalText.escape("sdm: wrote " + output));
  }

  private int runProgram(Duration wait, Duration apart) throws Exception {
    String program = words.get(0);
    List<String> args = words.subList(1, words.size());
    String resolved;
    SessionClient session;
    try {
      resolved = Programs.resolve(program);
      session =
          SessionFactory.open(launch.request(ranks, resolved, args, FabricConfig.defaults()), err);
    } catch (IOException | IllegalArgumentException e) {
      throw new UsageError("sdm", e.getMessage());
    }
    try (session) {
      print(StackSnapshot.take(session, resolved, args, wait, samples, apart));
      return 0;
    } catch (StackSnapshot.LoadFailed e) {
      // gdb's reason, as the ranks gave it.
      err.println("sdm: [" + e.ranks() + "] " + TerminalText.escape(e.getMessage()));
      return 1;
    }
  }

  /** Attaches to the job's processes, samples them, and detaches: they run on as they were. */
  private int sampleRunningJob(Duration apart) throws Exception {
    SessionFactory.Attached job;
    try {
      job =
          AttachSpecs.attach(
              pmix,
              words,
              slurm,
              rsh,
              launch.distributed,
              launch.gdbs,
              FabricConfig.defaults(),
              err);
    } catch (IOException | IllegalArgumentException e) {
      throw new UsageError("sdm", TerminalText.escape(String.valueOf(e.getMessage())));
    }
    try (MasterSession session = job.session()) {
      print(RunningJobStacks.sampleThenDetach(session, job.attached(), samples, apart));
      return 0;
    }
  }
}
