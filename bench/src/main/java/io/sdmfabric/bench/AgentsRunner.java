package io.sdmfabric.bench;

import io.sdmfabric.master.Session;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.runtime.ClusterSettings;
import io.sdmfabric.runtime.DistributedMaster;
import io.sdmfabric.runtime.SessionKeystore;
import io.sdmfabric.server.BinomialTree;
import io.sdmfabric.server.FabricConfig;
import io.sdmfabric.wire.SessionSecret;
import io.sdmfabric.wire.StackTree;
import io.sdmfabric.wire.proto.CommandBody;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * Distributed sessions across JVMs on loopback: a master in this JVM ({@link Session#distributed}),
 * J agent JVMs ({@code AgentCommand}, from this class path) of R simulated ranks each, over each
 * transport in turn: tls-tcp (the default), insecure-tcp and aeron-udp (sealed messages). For every
 * (J, R) they run back to back, each going first in turn, so that all see the same load; over
 * tls-tcp the session's keystore is made before the agents start, as sdm does. One line per
 * session:
 *
 * <pre>
 * agents=J ranks_per_agent=R transport=T ranks=N depth=D cross_jvm_links=L last_up_ms=..
 *     tree_ready_ms=.. agent_rss_mb=.. identical_p50_ms=.. identical_p99_ms=.. stacks_p50_ms=..
 *     stacks_p99_ms=.. cpu_ms_per_command=.. idle_cpu_pct=..
 * </pre>
 *
 * and two tables at the end with the transports side by side. tree_ready = from spawning the J
 * agent JVMs (all at once) until the master's session reports its tree ready, every rank
 * registered; last_up = until the master saw the last agent Up in the cluster (the rest is the
 * agent creating its servers and registering them); agent_rss = each agent JVM's RSS right after
 * the tree is ready, the mean over the agents. identical = {@code print x} (42 on every rank: one
 * reply group) and stacks = every rank's stack (4 call paths) merged into a call-prefix tree, each
 * from submitting to the master until it completes, the two alternating after a warm-up (at least 2
 * s and 30 of each), with every rank stopped at a breakpoint. cross_jvm_links = the tree's edges
 * whose two ends live in different JVMs (the tree is laid out by rank, not by agent).
 *
 * <p>Agents run with the JVM flags that {@code sdm debug --launcher} gives its agents (serial
 * collector, client compiler only), on loopback; their output goes to a temporary directory that is
 * kept if a session fails. Every agent is stopped after its session, and killed with its Aeron
 * directory removed when this JVM exits, however it exits. Run with {@code bench/run agents
 * [--agents 1,2,4] [--ranks 8,64,256] [--reps 100]} (this JVM needs {@code --add-opens
 * java.base/sun.nio.ch=ALL-UNNAMED} for Aeron; bench/run passes it).
 */
public final class AgentsRunner {
  private static final Duration WIRE_UP = Duration.ofSeconds(90);

  /** Warm-up before timing: at least this many of each command, for at least {@link #WARM_UP}. */
  private static final int WARM_UP_REPS = 30;

  private static final Duration WARM_UP = Duration.ofSeconds(2);

  /** The default (tls-tcp) first in the tables, then what it is compared with. */
  private static final List<ClusterSettings.Transport> TRANSPORTS =
      List.of(
          ClusterSettings.Transport.TLS_TCP,
          ClusterSettings.Transport.INSECURE_TCP,
          ClusterSettings.Transport.AERON_UDP);

  /** Set when a session's master did not stop: the runs after it would be meaningless. */
  private static volatile boolean masterStuck;

  /** Agent JVMs alive now: what the shutdown hook kills. */
  private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

  private AgentsRunner() {}

  /** What a session is made of: J agents of R ranks, over one transport. */
  private record Shape(int agents, int ranksPerAgent, ClusterSettings.Transport transport) {
    int ranks() {
      return agents * ranksPerAgent;
    }

    String label() {
      return "J" + agents + "-R" + ranksPerAgent + "-" + transport.option();
    }
  }

  /** One session's numbers. */
  private record Result(
      Shape shape,
      double lastUpMs,
      double treeReadyMs,
      long rssMb,
      double cpuMsPerCommand,
      double idleCpuPct,
      double[] identical,
      double[] stacks) {
    int agents() {
      return shape.agents();
    }

    int ranksPerAgent() {
      return shape.ranksPerAgent();
    }

    ClusterSettings.Transport transport() {
      return shape.transport();
    }

    int ranks() {
      return shape.ranks();
    }

    String line() {
      return String.format(
          Locale.ROOT,
          "agents=%d ranks_per_agent=%d transport=%s ranks=%d depth=%d cross_jvm_links=%d"
              + " last_up_ms=%.0f tree_ready_ms=%.0f agent_rss_mb=%d identical_p50_ms=%.2f"
              + " identical_p99_ms=%.2f stacks_p50_ms=%.2f stacks_p99_ms=%.2f cpu_ms_per_command=%.2f"
              + " idle_cpu_pct=%.0f",
          agents(),
          ranksPerAgent(),
          transport().option(),
          ranks(),
          // One server node per agent: every edge of the tree joins two JVMs.
          BinomialTree.depth(agents() + 1),
          agents(),
          lastUpMs,
          treeReadyMs,
          rssMb,
          RunnerOptions.percentile(identical, 50),
          RunnerOptions.percentile(identical, 99),
          RunnerOptions.percentile(stacks, 50),
          RunnerOptions.percentile(stacks, 99),
          cpuMsPerCommand,
          idleCpuPct);
    }
  }

  public static void main(String[] args) throws Exception {
    RunnerOptions options = RunnerOptions.parse(args, List.of(8, 64, 256), List.of(1, 2, 4), 100);
    Path logs = Files.createTempDirectory("sdm-agents-bench");
    System.err.println("[agents] agent logs in " + logs);
    Runtime.getRuntime().addShutdownHook(new Thread(AgentsRunner::killAll, "kill-agents"));
    long start = System.nanoTime();
    List<Result> results = new ArrayList<>();
    boolean failed = false;
    int session = 0;
    sessions:
    for (int agents : options.agents()) {
      for (int ranksPerAgent : options.sizes()) {
        // Each transport goes first in turn, so that none always meets the same load.
        List<ClusterSettings.Transport> order = new ArrayList<>(TRANSPORTS);
        java.util.Collections.rotate(order, -(session++ % TRANSPORTS.size()));
        for (ClusterSettings.Transport transport : order) {
          Shape shape = new Shape(agents, ranksPerAgent, transport);
          try {
            Result r = session(logs, shape, options.reps());
            System.out.println(r.line());
            results.add(r);
          } catch (Exception e) {
            failed = true;
            System.out.printf(
                Locale.ROOT,
                "agents=%d ranks_per_agent=%d transport=%s FAILED: %s%n",
                agents,
                ranksPerAgent,
                transport.option(),
                e);
            e.printStackTrace();
          }
          if (masterStuck) {
            System.out.println("a master did not stop: the run ends here");
            break sessions;
          }
        }
      }
    }
    printTables(results);
    System.out.printf(Locale.ROOT, "%ntotal %.0f s%n", (System.nanoTime() - start) / 1e9);
    if (failed) {
      System.err.println("[agents] agent logs kept in " + logs);
    } else {
      deleteRecursively(logs);
    }
    // Pekko's and Aeron's threads would keep the JVM alive.
    System.exit(failed ? 1 : 0);
  }

  /**
   * One session: its master in this JVM, its agents, the measurements, and then its end (also when
   * the measurements fail; a failure to end is attached to theirs).
   */
  private static Result session(Path logs, Shape shape, int reps) throws Exception {
    SessionSecret secret = SessionSecret.random();
    // Over tls-tcp the session's keystore is made before the agents start, as sdm does.
    SessionKeystore keystore =
        shape.transport() == ClusterSettings.Transport.TLS_TCP
            ? SessionKeystore.generate(secret)
            : null;
    ActorSystem<Session.Command> master =
        ActorSystem.create(
            Session.distributed(shape.ranks(), FabricConfig.defaults(), WIRE_UP, secret),
            ClusterSettings.SYSTEM,
            keystore != null
                ? ClusterSettings.at("127.0.0.1", 0, keystore)
                : ClusterSettings.at("127.0.0.1", 0, shape.transport(), secret));
    List<Process> started = new ArrayList<>();
    Result result;
    try {
      String tls = keystore == null ? "" : keystore.base64();
      result = measure(master, secret, tls, started, logs, shape, reps);
    } catch (Exception e) {
      try {
        stop(master, started, shape);
      } catch (Exception t) {
        e.addSuppressed(t);
      }
      throw e;
    } finally {
      if (keystore != null) {
        keystore.close();
      }
    }
    stop(master, started, shape);
    return result;
  }

  /**
   * Starts the agents of a session whose master is up (adding them to {@code started}), measures.
   */
  private static Result measure(
      ActorSystem<Session.Command> master,
      SessionSecret secret,
      String keystoreBase64,
      List<Process> started,
      Path logs,
      Shape shape,
      int reps)
      throws Exception {
    int n = shape.ranks();
    Cluster cluster = Cluster.get(master);
    Address self = cluster.selfMember().address();
    cluster.manager().tell(Join.create(self));
    SessionDriver session = new SessionDriver(master);
    AtomicLong lastUp = new AtomicLong();
    ActorRef<ClusterEvent.MemberUp> ups =
        master.systemActorOf(upRecorder(self, lastUp), "bench-ups", Props.empty());
    cluster.subscriptions().tell(Subscribe.create(ups, ClusterEvent.MemberUp.class));
    int port = (Integer) self.port().get();

    long spawn = System.nanoTime();
    for (int j = 0; j < shape.agents(); j++) {
      int first = j * shape.ranksPerAgent();
      String ranks = first + "-" + (first + shape.ranksPerAgent() - 1);
      Path log = logs.resolve("agent-" + shape.label() + "-" + j + ".log");
      started.add(startAgent(port, ranks, n, shape.transport(), secret, keystoreBase64, log));
    }
    RankSet missing = session.awaitTreeReady(WIRE_UP.plusSeconds(10));
    double treeReadyMs = (System.nanoTime() - spawn) / 1e6;
    if (!missing.isEmpty()) {
      throw new IllegalStateException("ranks " + missing + " never registered");
    }
    long rss = 0;
    for (Process p : started) {
      rss += rss(p.pid());
    }
    double lastUpMs = (lastUp.get() - spawn) / 1e6;

    RankSet all = RankSet.all(n);
    session.loadAndStop(all);
    CommandBody x = SessionDriver.evaluate("x");
    int paths = Math.min(4, n);
    SessionDriver.Step identical = () -> SessionDriver.check(session.call(x, all), 1);
    SessionDriver.Step stacks =
        () -> {
          StackTree t = session.stackTree(all);
          if (t.pathCount() != paths || !t.ranks().equals(all)) {
            throw new IllegalStateException(
                "a stack tree of " + t.pathCount() + " paths over ranks " + t.ranks());
          }
        };
    long warmEnd = System.nanoTime() + WARM_UP.toNanos();
    for (int i = 0; i < WARM_UP_REPS || System.nanoTime() < warmEnd; i++) {
      identical.run();
      stacks.run();
    }
    double[] identicalMs = new double[reps];
    double[] stacksMs = new double[reps];
    long cpuStart = cpuNanos(started);
    for (int i = 0; i < reps; i++) {
      long t = System.nanoTime();
      identical.run();
      long u = System.nanoTime();
      stacks.run();
      identicalMs[i] = (u - t) / 1e6;
      stacksMs[i] = (System.nanoTime() - u) / 1e6;
    }
    double cpuMsPerCommand = (cpuNanos(started) - cpuStart) / 1e6 / (2 * reps);
    // An idle second, after one for the JIT's and the collector's aftermath of the commands:
    // what the session's JVMs burn while nothing happens (Aeron's threads poll).
    Thread.sleep(1000);
    long idleCpuStart = cpuNanos(started);
    long idleStart = System.nanoTime();
    Thread.sleep(1000);
    double idleCpuPct =
        100.0 * (cpuNanos(started) - idleCpuStart) / (System.nanoTime() - idleStart);
    Arrays.sort(identicalMs);
    Arrays.sort(stacksMs);
    return new Result(
        shape,
        lastUpMs,
        treeReadyMs,
        rss / shape.agents() / (1024 * 1024),
        cpuMsPerCommand,
        idleCpuPct,
        identicalMs,
        stacksMs);
  }

  /**
   * Ends a session as {@code LaunchedSession} does: the master first, so that the agents' going is
   * no news to it (a master that outlives its agents repairs its tree around them and may wait on
   * links to JVMs that are gone), then the agents. A master that does not stop in a minute is still
   * in this JVM, with its Aeron media driver, which would refuse the next master's: the run ends
   * there.
   */
  private static void stop(ActorSystem<Session.Command> master, List<Process> started, Shape shape)
      throws Exception {
    long stop = System.nanoTime();
    master.terminate();
    try {
      master.getWhenTerminated().toCompletableFuture().get(1, TimeUnit.MINUTES);
    } catch (TimeoutException e) {
      masterStuck = true;
      printThreads();
      stopAgents(started);
      throw new IllegalStateException("the master did not stop within a minute", e);
    }
    ClusterSettings.removeAeronDirectoriesOf(ProcessHandle.current().pid());
    double masterStopped = (System.nanoTime() - stop) / 1e9;
    stopAgents(started);
    System.err.printf(
        Locale.ROOT,
        "[agents] %s: master stopped in %.1f s, the agents %.1f s later%n",
        shape.label(),
        masterStopped,
        (System.nanoTime() - stop) / 1e9 - masterStopped);
  }

  /** Where this JVM's threads are: why a master does not stop. */
  private static void printThreads() {
    System.err.println("[agents] the master's JVM, its threads:");
    Thread.getAllStackTraces()
        .forEach(
            (thread, stack) -> {
              System.err.println("\"" + thread.getName() + "\" " + thread.getState());
              for (StackTraceElement frame : stack) {
                System.err.println("    at " + frame);
              }
            });
  }

  /** Records when the master sees a member other than itself Up. */
  private static Behavior<ClusterEvent.MemberUp> upRecorder(Address self, AtomicLong lastUp) {
    return Behaviors.receive(ClusterEvent.MemberUp.class)
        .onMessage(ClusterEvent.MemberUp.class, up -> recordUp(up, self, lastUp))
        .build();
  }

  private static Behavior<ClusterEvent.MemberUp> recordUp(
      ClusterEvent.MemberUp up, Address self, AtomicLong lastUp) {
    if (!up.member().address().equals(self)) {
      lastUp.accumulateAndGet(System.nanoTime(), Math::max);
    }
    return Behaviors.same();
  }

  private static Process startAgent(
      int port,
      String ranks,
      int size,
      ClusterSettings.Transport transport,
      SessionSecret secret,
      String keystoreBase64,
      Path log)
      throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(
            // The JVM flags of the agents a session starts.
            DistributedMaster.agentCommand(
                List.of(),
                "127.0.0.1:" + port,
                size,
                transport,
                List.of("--host", "127.0.0.1", "--simulated", ranks)));
    builder.environment().put(SessionSecret.ENV, secret.hex());
    if (!keystoreBase64.isEmpty()) {
      builder.environment().put(SessionKeystore.ENV, keystoreBase64);
    }
    Process p =
        builder
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    LIVE.add(p);
    return p;
  }

  /**
   * SIGTERM to every agent at once (their actor systems shut down, Aeron removes its directory),
   * SIGKILL to those still there after 20 s; then whatever Aeron left in /dev/shm is removed.
   */
  private static void stopAgents(List<Process> agents) throws Exception {
    for (Process p : agents) {
      p.destroy();
    }
    for (Process p : agents) {
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
      }
      ClusterSettings.removeAeronDirectoriesOf(p.pid());
      LIVE.remove(p);
    }
  }

  /** The shutdown hook: kills the agents still alive and removes their Aeron directories. */
  private static void killAll() {
    for (Process p : LIVE) {
      p.destroyForcibly();
    }
    for (Process p : LIVE) {
      try {
        p.waitFor(30, TimeUnit.SECONDS);
        ClusterSettings.removeAeronDirectoriesOf(p.pid());
      } catch (IOException | InterruptedException e) {
        System.err.println("[agents] cleaning up after agent " + p.pid() + ": " + e);
      }
    }
    try {
      ClusterSettings.removeAeronDirectoriesOf(ProcessHandle.current().pid());
    } catch (IOException e) {
      System.err.println("[agents] removing this JVM's Aeron directory: " + e);
    }
  }

  private static void printTables(List<Result> results) {
    table(
        results,
        List.of(
            column("identical p50 ms", r -> ms(r, Result::identical, 50)),
            column("identical p99 ms", r -> ms(r, Result::identical, 99)),
            column("stacks p50 ms", r -> ms(r, Result::stacks, 50)),
            column("stacks p99 ms", r -> ms(r, Result::stacks, 99))));
    table(
        results,
        List.of(
            column("last agent Up ms", r -> whole(r, Result::lastUpMs)),
            column("tree ready ms", r -> whole(r, Result::treeReadyMs)),
            column("agent RSS MB", r -> whole(r, x -> x.rssMb())),
            column("CPU ms/command", r -> ms(r, Result::cpuMsPerCommand)),
            column("idle CPU %", r -> whole(r, Result::idleCpuPct))));
  }

  /** A measure shown for each transport side by side. */
  private record Column(String name, Function<Result, String> cell) {}

  private static Column column(String name, Function<Result, String> cell) {
    return new Column(name, cell);
  }

  /** One row per (agents, ranks per agent); each column once per transport, side by side. */
  private static void table(List<Result> results, List<Column> columns) {
    StringBuilder head = new StringBuilder("| agents | ranks/agent |");
    StringBuilder rule = new StringBuilder("|---|---|");
    for (Column c : columns) {
      for (ClusterSettings.Transport t : TRANSPORTS) {
        head.append(' ').append(c.name()).append(' ').append(t.option()).append(" |");
        rule.append("---|");
      }
    }
    System.out.println();
    System.out.println(head);
    System.out.println(rule);
    for (List<Integer> key : keys(results)) {
      StringBuilder row = new StringBuilder("| " + key.get(0) + " | " + key.get(1) + " |");
      for (Column c : columns) {
        for (ClusterSettings.Transport t : TRANSPORTS) {
          row.append(' ').append(c.cell().apply(find(results, key, t))).append(" |");
        }
      }
      System.out.println(row);
    }
  }

  /** The (agents, ranks per agent) pairs measured, in the order they ran. */
  private static List<List<Integer>> keys(List<Result> results) {
    return results.stream().map(r -> List.of(r.agents(), r.ranksPerAgent())).distinct().toList();
  }

  /** The result of one pair over one transport; null if that session failed. */
  private static Result find(
      List<Result> results, List<Integer> key, ClusterSettings.Transport transport) {
    return results.stream()
        .filter(r -> r.transport() == transport)
        .filter(r -> r.agents() == key.get(0) && r.ranksPerAgent() == key.get(1))
        .findFirst()
        .orElse(null);
  }

  private static String ms(Result r, Function<Result, double[]> samples, int p) {
    return r == null
        ? "-"
        : String.format(Locale.ROOT, "%.2f", RunnerOptions.percentile(samples.apply(r), p));
  }

  private static String ms(Result r, ToDoubleFunction<Result> value) {
    return r == null ? "-" : String.format(Locale.ROOT, "%.2f", value.applyAsDouble(r));
  }

  private static String whole(Result r, ToDoubleFunction<Result> value) {
    return r == null ? "-" : String.format(Locale.ROOT, "%.0f", value.applyAsDouble(r));
  }

  /** CPU time used so far by the agents and this JVM (the master), all threads. */
  private static long cpuNanos(List<Process> agents) {
    long sum = cpu(ProcessHandle.current());
    for (Process p : agents) {
      sum += cpu(p.toHandle());
    }
    return sum;
  }

  private static long cpu(ProcessHandle p) {
    return p.info()
        .totalCpuDuration()
        .orElseThrow(() -> new IllegalStateException("no CPU time for process " + p.pid()))
        .toNanos();
  }

  private static long rss(long pid) throws IOException {
    for (String l : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (l.startsWith("VmRSS:")) {
        return Long.parseLong(l.replaceAll("\\D", "")) * 1024;
      }
    }
    throw new IllegalStateException("no VmRSS for process " + pid);
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (var paths = Files.walk(dir)) {
        for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }
}
