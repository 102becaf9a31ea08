package io.sdmfabric.frontend;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * What the front-end knows of each rank's state: not started, running, stopped (and where), exited,
 * detached (its process runs on without a debugger), lost (its server is gone), or in error (its
 * debugger ended on its own, and why). Detached, lost and error are final, but a rank that is
 * detached or in error can still be lost. Fed with the session's events; answers {@code procs} and
 * {@code wait}. Thread-safe: events arrive on the session's thread, questions on the console's.
 */
public final class ProcessTable {

  /** A rank's state. */
  public enum State {
    NOT_STARTED,
    RUNNING,
    STOPPED,
    EXITED,
    DETACHED,
    LOST,
    ERROR
  }

  /**
   * Ranks in the same state at the same place ({@code location}: why, for {@code ERROR}), with the
   * number of their threads when it was asked ({@code procs} asks the stopped ranks), else 0.
   */
  public record Row(State state, String location, RankSet ranks, long threads) {
    public Row {
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(location, "location");
      Objects.requireNonNull(ranks, "ranks");
    }

    /** A row whose threads were not counted. */
    public Row(State state, String location, RankSet ranks) {
      this(state, location, ranks, 0);
    }

    /** This row with {@code count} threads. */
    public Row withThreads(long count) {
      return new Row(state, location, ranks, count);
    }
  }

  private final State[] states;
  private final String[] locations;

  /** A table of {@code size} ranks, none started. */
  public ProcessTable(int size) {
    states = new State[size];
    locations = new String[size];
    java.util.Arrays.fill(states, State.NOT_STARTED);
    java.util.Arrays.fill(locations, "");
  }

  /**
   * Marks ranks running, before the command that resumes them goes out: their stop can then only
   * come later. (The session's own "running" events are not used: merged with other ranks' events
   * they may arrive after a quick rank's stop.)
   */
  public synchronized void markRunning(RankSet ranks) {
    ranks.forEach(
        r -> {
          if (r < states.length && (states[r] == State.STOPPED || states[r] == State.NOT_STARTED)) {
            states[r] = State.RUNNING;
            locations[r] = "";
          }
        });
    notifyAll();
  }

  /** Puts ranks whose resume failed back to stopped, where they were. */
  public synchronized void resumeFailed(RankSet ranks, ProcessTable before) {
    ranks.forEach(
        r -> {
          if (r < states.length && states[r] == State.RUNNING) {
            states[r] = before.states[r];
            locations[r] = before.locations[r];
          }
        });
    notifyAll();
  }

  /** A copy of the table as it is now. */
  public synchronized ProcessTable snapshot() {
    ProcessTable copy = new ProcessTable(states.length);
    System.arraycopy(states, 0, copy.states, 0, states.length);
    System.arraycopy(locations, 0, copy.locations, 0, locations.length);
    return copy;
  }

  /**
   * Records an unsolicited stop, exit, end of a debugger, or loss of ranks ({@link Reply.Lost});
   * other events change nothing.
   */
  public synchronized void apply(RankReply event) {
    Reply r = event.reply();
    if (r instanceof Reply.Stopped s) {
      set(event.ranks(), State.STOPPED, s.frame().describe());
    } else if (r instanceof Reply.Exited x) {
      String how =
          x.statusLost()
              ? "exit status unknown"
              : x.signal().isEmpty() ? "exit code " + x.code() : "signal " + x.signal();
      set(event.ranks(), State.EXITED, how);
    } else if (r instanceof Reply.DebuggerEnded d) {
      set(event.ranks(), State.ERROR, d.reason());
    } else if (r instanceof Reply.Lost) {
      lose(event.ranks());
    }
    notifyAll();
  }

  /**
   * Records ranks' state as the front-end learned it outside the session's events: stopped where an
   * attach left them, detached, or in error. Lost ranks stay lost.
   */
  public synchronized void put(RankSet ranks, State state, String location) {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(location, "location");
    ranks.forEach(
        r -> {
          if (r < states.length && states[r] != State.LOST) {
            states[r] = state;
            locations[r] = location;
          }
        });
    notifyAll();
  }

  /** Marks ranks lost (their server is gone). */
  public synchronized void lose(RankSet ranks) {
    ranks.forEach(
        r -> {
          if (r < states.length) {
            states[r] = State.LOST;
            locations[r] = "";
          }
        });
    notifyAll();
  }

  /** The ranks of {@code among} that are in {@code state}. */
  public synchronized RankSet ranksIn(State state, RankSet among) {
    RankSet.Builder b = RankSet.builder();
    among.forEach(
        r -> {
          if (r < states.length && states[r] == state) {
            b.add(r);
          }
        });
    return b.build();
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
      RankSet running = ranksIn(State.RUNNING, ranks);
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
    Map<String, RankSet.Builder> groups = new LinkedHashMap<>();
    Map<String, Row> keys = new LinkedHashMap<>();
    among.forEach(
        r -> {
          if (r < states.length) {
            String key = states[r] + "\u0000" + locations[r];
            groups.computeIfAbsent(key, k -> RankSet.builder()).add(r);
            keys.putIfAbsent(key, new Row(states[r], locations[r], RankSet.empty()));
          }
        });
    List<Row> rows = new ArrayList<>();
    groups.forEach(
        (k, b) -> rows.add(new Row(keys.get(k).state(), keys.get(k).location(), b.build())));
    rows.sort(Comparator.comparingInt(row -> row.ranks().first()));
    return rows;
  }

  private void set(RankSet ranks, State state, String location) {
    ranks.forEach(
        r -> {
          if (r < states.length
              && states[r] != State.LOST
              && states[r] != State.ERROR
              && states[r] != State.DETACHED) {
            states[r] = state;
            locations[r] = location;
          }
        });
  }
}
