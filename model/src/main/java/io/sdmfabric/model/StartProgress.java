package io.sdmfabric.model;

import java.util.Objects;

/**
 * How far the start of a session has come: what a user waits through between {@code sdm debug} (or
 * {@code sdm attach}) and the first prompt. Each phase says how many ranks are held out of how
 * many, and so what the start still waits for; {@link Ready} ends it. Front-ends show it (a line
 * rewritten in place on a terminal, JSON events); it carries no time, which is the front-end's to
 * measure.
 */
public sealed interface StartProgress
    permits StartProgress.Launching,
        StartProgress.GdbsStarting,
        StartProgress.Joining,
        StartProgress.Loading,
        StartProgress.Ready,
        StartProgress.Stopping {

  /** The phase's name, as JSON events give it. */
  String phase();

  /** The ranks of the session. */
  int ranks();

  /** Whether nothing is waited for any more: the wait this progress was part of is over. */
  default boolean ends() {
    return false;
  }

  /**
   * The launcher is starting the job's {@code ranks} ranks, and says which processes they are only
   * once it has started them all (a launch through the PMIx tool interface): nothing of them can be
   * attached before.
   */
  record Launching(int ranks) implements StartProgress {
    public Launching {
      if (ranks < 1) {
        throw new IllegalArgumentException("launching " + ranks + " ranks");
      }
    }

    @Override
    public String phase() {
      return "launching";
    }
  }

  /** The debuggers of an embedded session are starting: {@code ready} of {@code ranks} have one. */
  record GdbsStarting(int ready, int ranks) implements StartProgress {
    public GdbsStarting {
      if (ready < 0 || ranks < 1 || ready > ranks) {
        throw new IllegalArgumentException(ready + " of " + ranks + " ranks ready");
      }
    }

    @Override
    public String phase() {
      return "starting";
    }
  }

  /**
   * The ranks' agents are joining the master: of the {@code expected} ranks (of a session of {@code
   * ranks}), {@code waiting} have not registered yet.
   */
  record Joining(RankSet waiting, int expected, int ranks) implements StartProgress {
    public Joining {
      Objects.requireNonNull(waiting, "waiting");
      if (expected < 1 || waiting.size() > expected || expected > ranks) {
        throw new IllegalArgumentException(
            waiting.size() + " of " + expected + " expected ranks of " + ranks + " waited for");
      }
    }

    /** How many of the expected ranks have registered. */
    public int joined() {
      return expected - waiting.size();
    }

    @Override
    public String phase() {
      return "joining";
    }
  }

  /** The program is being loaded on {@code ranks} ranks (its replies come back all at once). */
  record Loading(int ranks) implements StartProgress {
    public Loading {
      if (ranks < 1) {
        throw new IllegalArgumentException("loading on " + ranks + " ranks");
      }
    }

    @Override
    public String phase() {
      return "loading";
    }
  }

  /** The session of {@code ranks} ranks is ready: the progress ends. */
  record Ready(int ranks) implements StartProgress {
    @Override
    public String phase() {
      return "ready";
    }

    @Override
    public boolean ends() {
      return true;
    }
  }

  /**
   * Ranks set running (the first {@code run}, a {@code continue}) are on their way to their next
   * stop: of the {@code resumed} ranks (of a session of {@code ranks}), {@code stopped} have
   * stopped or exited. It ends when they all have.
   */
  record Stopping(int stopped, int resumed, int ranks) implements StartProgress {
    public Stopping {
      if (stopped < 0 || resumed < stopped || ranks < 1) {
        throw new IllegalArgumentException(
            stopped + " of " + resumed + " resumed ranks of " + ranks + " stopped");
      }
    }

    @Override
    public String phase() {
      return "running";
    }

    @Override
    public boolean ends() {
      return stopped == resumed;
    }
  }
}
