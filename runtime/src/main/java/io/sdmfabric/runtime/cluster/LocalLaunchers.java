package io.sdmfabric.runtime.cluster;

import io.sdmfabric.model.LauncherJob;
import io.sdmfabric.runtime.agent.AgentCommand;
import io.sdmfabric.runtime.attach.RankEnvironment;
import io.sdmfabric.runtime.launch.RankShim;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The jobs on this host that an MPI launcher started without a resource manager: the user's own
 * processes of {@code /proc} that run {@code mpirun}, {@code mpiexec} or {@code prterun} (Open
 * MPI's and PRRTE's, MPICH's hydra, and the names Debian gives them), each with the ranks found
 * among its descendants on this host (its own children, or its daemons' and proxies'): the
 * processes whose environment gives a rank ({@link RankEnvironment}, as {@code sdm attach} reads
 * them). A launcher that sdm started for a session of its own is marked so: its ranks are sdm's
 * already.
 */
public final class LocalLaunchers {
  /** The launchers' program names, as {@code argv[0]} or {@code /proc/PID/exe} name them. */
  static final Set<String> NAMES =
      Set.of(
          "mpirun",
          "mpiexec",
          "prterun",
          "orterun",
          "mpiexec.hydra",
          "mpirun.openmpi",
          "mpiexec.openmpi",
          "mpirun.mpich",
          "mpiexec.mpich");

  private LocalLaunchers() {}

  /**
   * The user's launcher jobs on this host, by launcher pid; a launcher under another is not one.
   */
  public static List<LauncherJob> find() throws IOException {
    long self = uid(Path.of("/proc/self"));
    List<Long> launchers = new ArrayList<>();
    List<List<String>> commands = new ArrayList<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path p : procs.sorted(Comparator.comparingLong(LocalLaunchers::pid)).toList()) {
        if (pid(p) <= 0 || uid(p) != self) {
          continue;
        }
        List<String> command = commandLine(p);
        if (!command.isEmpty() && isLauncher(command.get(0), executable(p))) {
          launchers.add(pid(p));
          commands.add(command);
        }
      }
    }
    List<LauncherJob> jobs = new ArrayList<>();
    for (int i = 0; i < launchers.size(); i++) {
      long pid = launchers.get(i);
      boolean under =
          ProcessHandle.of(pid).stream()
              .flatMap(LocalLaunchers::ancestors)
              .anyMatch(a -> launchers.contains(a.pid()));
      if (!under) {
        jobs.add(job(pid, commands.get(i)));
      }
    }
    return jobs;
  }

  /** Whether a process whose {@code argv[0]} and executable are these runs a launcher. */
  static boolean isLauncher(String argv0, String executable) {
    return NAMES.contains(base(argv0)) || NAMES.contains(base(executable));
  }

  private static LauncherJob job(long pid, List<String> command) {
    Map<Integer, List<ProcessHandle>> byRank = new TreeMap<>();
    int size = 0;
    List<ProcessHandle> descendants =
        ProcessHandle.of(pid).map(p -> p.descendants().toList()).orElse(List.of());
    for (ProcessHandle d : descendants) {
      try {
        RankEnvironment env = RankEnvironment.ofProcess(d.pid());
        byRank.computeIfAbsent(env.rank(), r -> new ArrayList<>()).add(d);
        size = Math.max(size, env.size());
      } catch (IOException e) {
        // Not a rank: a daemon, a proxy, a remote shell; or gone since.
      }
    }
    List<LauncherJob.Rank> ranks = new ArrayList<>();
    byRank.forEach(
        (rank, processes) ->
            leaf(processes).ifPresent(p -> ranks.add(new LauncherJob.Rank(rank, p, tracer(p)))));
    return new LauncherJob(pid, base(command.get(0)), command, size, ranks, startedBySdm(command));
  }

  /** Whether a launcher's command line starts sdm's agents or its rank shim. */
  static boolean startedBySdm(List<String> command) {
    return command.contains(AgentCommand.class.getName()) || command.contains(RankShim.NAME);
  }

  /** The pid that traces process {@code pid} ({@code TracerPid} of its status), 0 for none. */
  static long tracer(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("TracerPid:")) {
          return Long.parseLong(line.substring("TracerPid:".length()).strip());
        }
      }
    } catch (IOException | NumberFormatException e) {
      // Gone, or not readable: as untraced; attaching will say what is wrong.
    }
    return 0;
  }

  /**
   * The process of a rank: a rank may be a shell and the program it started, both with the rank in
   * their environment; the program is the one that is no other's parent (the lowest pid of such).
   */
  private static Optional<Long> leaf(List<ProcessHandle> processes) {
    List<Long> pids = processes.stream().map(ProcessHandle::pid).toList();
    return processes.stream()
        .filter(
            p ->
                processes.stream()
                    .noneMatch(q -> q.parent().map(ProcessHandle::pid).orElse(-1L) == p.pid()))
        .map(ProcessHandle::pid)
        .sorted()
        .findFirst()
        .or(() -> pids.stream().sorted().findFirst());
  }

  private static Stream<ProcessHandle> ancestors(ProcessHandle p) {
    return Stream.iterate(p.parent(), Optional::isPresent, o -> o.flatMap(ProcessHandle::parent))
        .map(Optional::get);
  }

  private static long pid(Path proc) {
    String name = proc.getFileName().toString();
    return name.matches("\\d{1,18}") ? Long.parseLong(name) : -1;
  }

  private static long uid(Path proc) {
    try {
      return ((Number) Files.getAttribute(proc, "unix:uid")).longValue();
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return -1;
    }
  }

  /** {@code /proc/PID/cmdline}: its arguments, each ending in NUL; none for a kernel thread. */
  private static List<String> commandLine(Path proc) {
    try {
      byte[] bytes = Files.readAllBytes(proc.resolve("cmdline"));
      List<String> args = new ArrayList<>();
      int start = 0;
      for (int i = 0; i < bytes.length; i++) {
        if (bytes[i] == 0) {
          args.add(new String(bytes, start, i - start, StandardCharsets.UTF_8));
          start = i + 1;
        }
      }
      if (start < bytes.length) {
        args.add(new String(bytes, start, bytes.length - start, StandardCharsets.UTF_8));
      }
      return args;
    } catch (IOException e) {
      return List.of();
    }
  }

  private static String executable(Path proc) {
    try {
      return Files.readSymbolicLink(proc.resolve("exe")).toString();
    } catch (IOException | UnsupportedOperationException e) {
      return "";
    }
  }

  private static String base(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
