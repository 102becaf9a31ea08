package io.sdmfabric.frontend;

import io.sdmfabric.model.Attributes;
import io.sdmfabric.model.DebugJob;
import io.sdmfabric.model.ModelListener;
import io.sdmfabric.model.NodeState;
import io.sdmfabric.model.ProcessState;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The front-end's model of its session's job: each rank's state ({@link ProcessState}) and place in
 * the model's {@link DebugJob}, fed with the session's events, and the views of it that {@code
 * procs}, {@code wait}, the JSON stream and the debug adapter's threads show. A rank moves only as
 * {@link ProcessState} allows, so that an event that comes late (the exit of a rank already lost)
 * changes nothing. Thread-safe: events arrive on the session's thread, questions on the console's;
 * the job's listeners are told of each change on the thread that made it, under this table's lock.
 */
public final class ProcessTable {

  /**
   * Ranks in the same state at the same place ({@code location}: why, for {@code ERROR}), with the
   * number of their threads when it was asked ({@code procs} asks the stopped ranks), else 0.
   */
  public record Row(ProcessState state, String location, RankSet ranks, long threads) {
    public Row {
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(location, "location");
      Objects.requireNonNull(ranks, "ranks");
    }

    /** A row whose threads were not counted. */
    public Row(ProcessState state, String location, RankSet ranks) {
      this(state, location, ranks, 0);
    }

    /** This row with {@code count} threads. */
    public Row withThreads(long count) {
      return new Row(state, location, ranks, count);
    }
  }

  /**
   * A node of the job: its host name, whether its server is there ({@link NodeState#UP}) or gone
   * ({@link NodeState#DOWN}: all its ranks lost), the pid of that server (an agent JVM, or the
   * master's own), and the ranks it serves.
   */
  public record Node(String host, NodeState state, int serverPid, RankSet ranks) {
    public Node {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(ranks, "ranks");
    }
  }

  /**
   * One rank as the model knows it: its state and place, its node's host (empty until asked), its
   * process id (0 until known) and how many threads it had when they were last counted.
   */
  public record Process(
      int rank, ProcessState state, String place, String host, int pid, int threads) {
    public Process {
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(place, "place");
      Objects.requireNonNull(host, "host");
    }
  }

  /**
   * What {@code procs} shows: the rows, the nodes that serve the ranks of the rows, and (for {@code
   * procs -l}) every rank on its own, else none.
   */
  public record Listing(List<Row> rows, List<Node> nodes, List<Process> processes) {
    public Listing {
      rows = List.copyOf(rows);
      nodes = List.copyOf(nodes);
      processes = List.copyOf(processes);
    }
  }

  /** A stop's place that names the signal that stopped the rank: {@code SIGSEGV in f at a.c:3}. */
  private static final Pattern SIGNAL_PLACE = Pattern.compile("(SIG[A-Z0-9+]+) in (.*)");

  private final int size;
  private final DebugJob job = new DebugJob("job");

  /** A table of {@code size} ranks, none started. */
  public ProcessTable(int size) {
    this.size = size;
    job.addProcesses(RankSet.all(size));
  }

  /**
   * Tells {@code listener} of every change to the job's ranks from now on ({@link
   * DebugJob#addChildListener}), under this table's lock.
   */
  public synchronized void listen(ModelListener listener) {
    job.addChildListener(listener);
  }

  /**
   * Marks ranks running, before the command that resumes them goes out: their stop can then only
   * come later. (The session's own "running" events are not used: merged with other ranks' events
   * they may arrive after a quick rank's stop.) Only stopped and not started ranks can run.
   */
  public synchronized void markRunning(RankSet ranks) {
    job.move(ranks, ProcessState.RUNNING, "");
    notifyAll();
  }

  /** Puts ranks whose resume failed back where they were in {@code before}. */
  public synchronized void resumeFailed(RankSet ranks, ProcessTable before) {
    RankSet running = ranksIn(ProcessState.RUNNING, ranks);
    for (Row row : before.rows(running)) {
      job.move(row.ranks(), row.state(), row.location());
    }
    notifyAll();
  }

  /**
   * The place of a rank stopped at {@code where} by {@code signal} (empty: by none), as rows,
   * thread names and the Ranks view show it: {@code SIGSEGV in load at segv.c:5}.
   */
  static String stopPlace(String signal, String where) {
    return signal.isEmpty() ? where : signal + " in " + where;
  }

  /** The signal that stopped the ranks at {@code place}, if one did ({@link #stopPlace}). */
  public static Optional<String> signalOf(String place) {
    Matcher m = SIGNAL_PLACE.matcher(place);
    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /** Where the ranks at {@code place} stopped, without the signal that stopped them. */
  public static String whereStopped(String place) {
    Matcher m = SIGNAL_PLACE.matcher(place);
    return m.matches() ? m.group(2) : place;
  }

  /** A copy of the table as it is now. */
  public synchronized ProcessTable snapshot() {
    ProcessTable copy = new ProcessTable(size);
    for (Row row : rows(RankSet.all(size))) {
      copy.job.move(row.ranks(), row.state(), row.location());
    }
    return copy;
  }

  /**
   * Records an unsolicited stop, exit, end of a debugger, or loss of ranks ({@link Reply.Lost});
   * other events change nothing.
   */
  public synchronized void apply(RankReply event) {
    Reply r = event.reply();
    if (r instanceof Reply.Stopped s) {
      job.move(event.ranks(), ProcessState.STOPPED, stopPlace(s.signal(), s.frame().describe()));
    } else if (r instanceof Reply.Exited x) {
      String how =
          x.statusLost()
              ? "exit status unknown"
              : x.signal().isEmpty() ? "exit code " + x.code() : "signal " + x.signal();
      job.move(event.ranks(), ProcessState.EXITED, how);
    } else if (r instanceof Reply.DebuggerEnded d) {
      // The first reason stands: a rank's debugger ends once.
      job.move(
          event.ranks().minus(job.ranksIn(ProcessState.ERROR)), ProcessState.ERROR, d.reason());
    } else if (r instanceof Reply.Lost) {
      lose(event.ranks());
    }
    notifyAll();
  }

  /**
   * Records ranks' state as the front-end learned it outside the session's events: stopped where an
   * attach left them, detached, or in error.
   */
  public synchronized void put(RankSet ranks, ProcessState state, String location) {
    job.move(ranks, Objects.requireNonNull(state, "state"), location);
    notifyAll();
  }

  /** Marks ranks lost (their server is gone); an exited rank stays exited. */
  public synchronized void lose(RankSet ranks) {
    job.move(ranks, ProcessState.LOST, "");
    job.markNodesDown();
    notifyAll();
  }

  /**
   * Records where ranks run, from the replies to {@code process_info} ({@link Reply.ProcessInfo});
   * other replies change nothing.
   */
  public synchronized void locate(List<RankReply> replies) {
    for (RankReply r : replies) {
      if (r.reply() instanceof Reply.ProcessInfo p && !p.host().isBlank()) {
        job.locate(r.ranks(), p.host(), p.pid(), p.serverPid());
      }
    }
  }

  /** Records the number of threads of ranks, from the replies to {@code list_threads}. */
  public synchronized void countThreads(List<RankReply> replies) {
    for (RankReply r : replies) {
      if (r.reply() instanceof Reply.Threads t) {
        job.countThreads(r.ranks(), t.threads().size());
      }
    }
  }

  /** The job's nodes that serve ranks, in the order of their first rank. */
  public synchronized List<Node> nodes() {
    return job.nodes().stream()
        .map(
            n ->
                new Node(
                    n.name(), n.state(), n.attribute(Attributes.SERVER_PID), job.ranksOn(n.name())))
        .filter(n -> !n.ranks().isEmpty())
        .sorted(Comparator.comparingInt(n -> n.ranks().first()))
        .toList();
  }

  /** The ranks of {@code among}, one by one. */
  public synchronized List<Process> processes(RankSet among) {
    List<Process> list = new ArrayList<>();
    among.forEach(
        rank ->
            job.process(rank)
                .ifPresent(
                    p ->
                        list.add(
                            new Process(
                                rank,
                                p.state(),
                                p.place(),
                                p.nodeName(),
                                p.pid().orElse(0),
                                p.threads()))));
    return list;
  }

  /** The ranks of {@code among} that are in {@code state}. */
  public synchronized RankSet ranksIn(ProcessState state, RankSet among) {
    return job.ranksIn(state).intersect(among);
  }

  /**
   * Waits until no rank of {@code ranks} runs, at most {@code timeoutMs}.
   *
   * @return the ranks still running (empty when all stopped or ended)
   */
  public synchronized RankSet awaitNotRunning(RankSet ranks, long timeoutMs)
      throws InterruptedException {
    long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    long start = System.nanoTime();
    while (true) {
      RankSet running = ranksIn(ProcessState.RUNNING, ranks);
      // Elapsed rather than a deadline: a timeout near Long.MAX_VALUE cannot overflow.
      long leftNanos = timeoutNanos - (System.nanoTime() - start);
      if (running.isEmpty() || leftNanos <= 0) {
        return running;
      }
      TimeUnit.NANOSECONDS.timedWait(this, leftNanos);
    }
  }

  /** The rows of {@code procs}: ranks grouped by state and place, in order of their first rank. */
  public synchronized List<Row> rows(RankSet among) {
    List<Row> rows = new ArrayList<>();
    for (ProcessState state : ProcessState.values()) {
      Map<String, RankSet.Builder> places = new LinkedHashMap<>();
      ranksIn(state, among)
          .forEach(r -> places.computeIfAbsent(job.place(r), p -> RankSet.builder()).add(r));
      places.forEach((place, ranks) -> rows.add(new Row(state, place, ranks.build())));
    }
    rows.sort(Comparator.comparingInt(row -> row.ranks().first()));
    return rows;
  }

  /**
   * What {@code procs} shows of {@code among}: its rows, with the threads of the stopped ones as
   * last counted ({@link #countThreads}), the nodes that serve them, and, when {@code each}, every
   * rank on its own.
   */
  public synchronized Listing listing(RankSet among, boolean each) {
    List<Row> rows =
        rows(among).stream()
            .map(r -> r.state() == ProcessState.STOPPED ? r.withThreads(threads(r.ranks())) : r)
            .toList();
    List<Node> nodes = nodes().stream().filter(n -> n.ranks().intersects(among)).toList();
    return new Listing(rows, nodes, each ? processes(among) : List.of());
  }

  private long threads(RankSet ranks) {
    long[] sum = {0};
    ranks.forEach(rank -> job.process(rank).ifPresent(p -> sum[0] += p.threads()));
    return sum[0];
  }
}
