package io.sdmfabric.runtime;

import io.sdmfabric.master.Session;
import io.sdmfabric.model.Failures;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StartProgress;
import io.sdmfabric.runtime.agent.EarlyAttachments;
import io.sdmfabric.runtime.agent.LocalAgent;
import io.sdmfabric.runtime.launch.OutputMerger;
import io.sdmfabric.wire.Commands;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * A session whose ranks are served by agent JVMs, one per node, with the master in this JVM: the
 * one lifecycle of launched ({@link LaunchedSession}) and attached ({@link AttachedSession})
 * sessions.
 *
 * <p>Starting: a JVM shutdown hook first (Ctrl-C or SIGTERM to sdm still ends what was started),
 * then the variant's {@link #start}: it starts the master ({@link #startMaster}), the child
 * processes that bring up the agents ({@link #startProcess}), and waits for the tree ({@link
 * #awaitTree}) while its processes live ({@link #checkAlive}). A failure on the way closes what was
 * started and is thrown.
 *
 * <p>Closing: the variant's last word to the ranks ({@link #beforeMasterEnds}: attached ranks are
 * detached), the master (so that the agents' going is no news to anyone), every child process at
 * once as its {@link Ending} says, then the variant's clean-up ({@link #afterProcessesEnd}).
 */
public abstract sealed class DistributedSession extends MasterSession
    permits LaunchedSession, AttachedSession, PmixSession {

  /** How a child process is ended when the session closes. */
  enum Ending {
    /** SIGTERM, then SIGKILL to it and its descendants after the grace: a job sdm started. */
    END,
    /** SIGTERM to the agent, whose gdbs detach, leaving the programs running: an attached job. */
    LEAVE_PROGRAMS
  }

  private record Child(Process process, Ending ending, int graceSeconds, List<Thread> pumps) {}

  /** Where the session says what happens on the way (the launcher's lines, missing ranks). */
  final PrintStream err;

  private final Duration wireUp;
  private final List<Child> children = new ArrayList<>();
  private final List<LocalAgent> localAgents = new CopyOnWriteArrayList<>();
  private volatile DistributedMaster master;
  private volatile RankSet missing = RankSet.empty();
  private volatile Thread shutdownHook;

  DistributedSession(int size, Duration wireUp, PrintStream err) {
    super(size);
    this.wireUp = wireUp;
    this.err = err;
  }

  /**
   * Starts the master, the agents and whatever else the variant needs, and waits for the tree.
   *
   * @throws IOException when something cannot be started or ends before the tree is ready
   */
  abstract void start() throws IOException, InterruptedException;

  /** Fails when the processes the tree waits for have ended; called while waiting. */
  abstract void checkAlive() throws IOException;

  /**
   * What the variant does while the master still serves, as the session closes, before the
   * front-end stops hearing events.
   */
  void beforeMasterEnds(MasterClient master) {}

  /** How long {@link #detach} waits for the ranks to detach before the agents end anyway. */
  private static final Duration DETACH_LIMIT = Duration.ofSeconds(15);

  /**
   * Detaches {@code ranks}, processes that ran before the session and run on after it, a while at
   * most: their gdbs would detach as the agents end, but a rank whose agent is killed first would
   * be left stopped.
   */
  final void detach(MasterClient master, RankSet ranks) {
    // The detach replies and events are no news to the front-end, which has quit.
    master.unsubscribeAll();
    if (!master.treeReady().isDone()) {
      return;
    }
    try {
      master
          .call(Commands.detach(), ranks, Duration.ZERO)
          .get(DETACH_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // The agents' gdbs detach as they end.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The ranks' last output goes out while the front-end still hears it: {@code output} merges what
   * waits, and the master delivers it, {@code limit} at most.
   */
  final void deliverOutput(MasterClient master, OutputMerger output, Duration limit) {
    output.close();
    if (master.treeReady().isDone()) {
      try {
        master.delivered().get(limit.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException | TimeoutException e) {
        // Not delivered in time: the session ends without those lines.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** What the variant cleans up once every child process has ended. */
  void afterProcessesEnd() {}

  /**
   * Runs {@link #start} under a shutdown hook named {@code hookName}; on failure, closes what was
   * started and throws.
   */
  final void open(String hookName, String doing) throws IOException {
    Thread hook = new Thread(this::close, hookName);
    Runtime.getRuntime().addShutdownHook(hook);
    shutdownHook = hook;
    try {
      start();
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new IOException("interrupted while " + doing, e);
    }
  }

  /** Starts the session's master: a cluster of one until the agents join, or this host's alone. */
  final DistributedMaster startMaster(DistributedMaster.Spec spec) throws IOException {
    DistributedMaster m = DistributedMaster.start(spec);
    master = m;
    // Until the first rank registers, the start waits for every expected rank to join.
    Consumer<StartProgress> progress = StartListener.current();
    progress.accept(
        new StartProgress.Joining(spec.expected(), spec.expected().size(), spec.size()));
    m.client().reportJoining(progress);
    return m;
  }

  @Override
  final Optional<MasterClient> master() {
    DistributedMaster m = master;
    return m == null ? Optional.empty() : Optional.of(m.client());
  }

  /** The ranks that were not attached within the wire-up time (known once the tree is ready). */
  public final RankSet missing() {
    return missing;
  }

  /** The master's actor system, whose guardian is the session: what a gateway serves. */
  public final ActorSystem<Session.Command> masterSystem() {
    return master.client().system();
  }

  /** The master's own handle, once started. */
  final DistributedMaster distributedMaster() {
    return master;
  }

  /**
   * Starts a child process (a launcher, an agent, a remote shell) with {@code env} added to its
   * environment, and hands each line it prints, on either stream, to {@code lines}.
   *
   * @param input whether its standard input is a pipe (else it reads nothing)
   */
  final Process startProcess(
      List<String> command,
      Map<String, String> env,
      boolean input,
      String name,
      Ending ending,
      int graceSeconds,
      Consumer<String> lines)
      throws IOException {
    return startProcess(command, env, input, name, ending, graceSeconds, lines, lines);
  }

  /**
   * {@link #startProcess(List, Map, boolean, String, Ending, int, Consumer)} with the lines of its
   * standard output to {@code out} and those of its standard error to {@code errLines}: for a child
   * whose standard output is a protocol that nothing else may write into.
   */
  final Process startProcess(
      List<String> command,
      Map<String, String> env,
      boolean input,
      String name,
      Ending ending,
      int graceSeconds,
      Consumer<String> out,
      Consumer<String> errLines)
      throws IOException {
    Process p = ChildProcesses.start(command, env, input);
    List<Thread> pumps =
        List.of(
            ChildProcesses.pump(p.getInputStream(), out, name + "-out"),
            ChildProcesses.pump(p.getErrorStream(), errLines, name + "-err"));
    synchronized (children) {
      children.add(new Child(p, ending, graceSeconds, pumps));
    }
    return p;
  }

  /**
   * When {@code p} (a child process) has ended, waits until every line it printed has been handed
   * on, at most {@code limit}: a finished launcher's last lines are not lost to a quick close.
   */
  final void drainIfEnded(Process p, Duration limit) {
    if (p == null || p.isAlive()) {
      return;
    }
    long deadline = System.nanoTime() + limit.toNanos();
    List<Thread> pumps;
    synchronized (children) {
      pumps =
          children.stream().filter(c -> c.process() == p).flatMap(c -> c.pumps().stream()).toList();
    }
    try {
      for (Thread t : pumps) {
        t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Serves this host's ranks that {@code attachments} attach from this JVM, with no agent JVM
   * ({@link DistributedMaster#serveHere}); they are the session's to close from now on.
   */
  final void serveHere(EarlyAttachments attachments) {
    localAgents.add(master.serveHere(attachments, err));
  }

  /** Starting a master, which may fail as a process does. */
  @FunctionalInterface
  interface MasterStart {
    void start() throws IOException;
  }

  /**
   * A job of this host alone: {@code master} starts the master (one of {@link
   * DistributedMaster.Reach#HOST}) while {@code attachments} attach the ranks, which this JVM then
   * serves, once {@link #checkAlive} has passed (a rank that could not start says why); then waits
   * for the tree. Should the master not start, or the processes have ended, the attachments are
   * closed.
   */
  final void serveHereAlone(EarlyAttachments attachments, MasterStart master)
      throws IOException, InterruptedException {
    boolean served = false;
    try {
      master.start();
      checkAlive();
      serveHere(attachments);
      served = true;
    } finally {
      if (!served) {
        attachments.close();
      }
    }
    awaitTree();
  }

  /** Whether this JVM serves ranks of its own host. */
  final boolean servesHere() {
    return !localAgents.isEmpty();
  }

  /** Whether any child process still runs. */
  final boolean anyProcessAlive() {
    synchronized (children) {
      return children.stream().anyMatch(c -> c.process().isAlive());
    }
  }

  /**
   * Waits for {@code f} while {@link #checkAlive} passes and the wire-up time (and 15 s) lasts.
   *
   * @throws IOException when it fails, a process ends first, or the time is up
   */
  final <T> T await(CompletableFuture<T> f, String what) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + wireUp.plusSeconds(15).toNanos();
    while (System.nanoTime() < deadline) {
      try {
        return f.get(100, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        checkAlive();
      } catch (ExecutionException e) {
        throw new IOException(Failures.message(e), Failures.cause(e));
      }
    }
    throw new IOException("gave up waiting for " + what + " after " + wireUp.toSeconds() + " s");
  }

  /** Waits until the tree is wired, and says which ranks did not come; returns those. */
  final RankSet awaitTree() throws IOException, InterruptedException {
    RankSet missing = await(master.client().treeReady(), "the ranks to be attached");
    this.missing = missing;
    if (!missing.isEmpty()) {
      err.println(
          "sdm: ranks "
              + missing
              + " were not attached within "
              + wireUp.toSeconds()
              + " s; the session goes on without them"
              + (master.spec().reach() == DistributedMaster.Reach.HOST
                  ? ""
                  : " (their nodes were to reach this host at "
                      + master.spec().address()
                      + "; --address names another)"));
    }
    return missing;
  }

  @Override
  final void end() {
    // From here on agents and links go away on purpose: that is no news to warn about.
    Quiet.loggers();
    DistributedMaster m = master;
    if (m != null) {
      beforeMasterEnds(m.client());
      m.client().unsubscribeAll();
      m.close();
    }
    List<Thread> enders = new ArrayList<>();
    for (LocalAgent local : localAgents) {
      Thread t = new Thread(local::close, "end-local-agent");
      t.start();
      enders.add(t);
    }
    synchronized (children) {
      for (Child c : children) {
        Runnable ender =
            c.ending() == Ending.END
                ? () -> ChildProcesses.end(c.process(), c.graceSeconds())
                : () -> ChildProcesses.endLeavingPrograms(c.process(), c.graceSeconds());
        Thread t = new Thread(ender, "end-child");
        t.start();
        enders.add(t);
      }
    }
    for (Thread t : enders) {
      try {
        t.join(TimeUnit.SECONDS.toMillis(30));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    afterProcessesEnd();
    // Only now: a SIGTERM while the session ends runs the hook, whose close waits for this one, so
    // the JVM does not exit with the session's processes half ended.
    Thread hook = shutdownHook;
    if (hook != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // The JVM is going down (closing from the hook itself, or a signal meanwhile).
      }
    }
  }
}
