package io.sdmfabric.frontend;

import io.sdmfabric.model.Location;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalAction;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/** One command of the console language, as {@link ConsoleParser} reads it. */
public sealed interface ConsoleCommand {

  /** {@code focus SET} or {@code focus all}: the ranks commands go to without a prefix. */
  record Focus(RankSet ranks, boolean all) implements ConsoleCommand {
    public Focus {
      Objects.requireNonNull(ranks, "ranks");
    }
  }

  /** {@code break LOCATION [if COND]} and {@code tbreak ...}. */
  record Break(Location location, String condition, boolean temporary) implements ConsoleCommand {
    public Break {
      Objects.requireNonNull(location, "location");
      Objects.requireNonNull(condition, "condition");
    }
  }

  /** {@code delete ID}, {@code enable ID}, {@code disable ID}. */
  record BreakpointChange(Change change, int id) implements ConsoleCommand {
    /** What to do to the breakpoint. */
    public enum Change {
      DELETE,
      ENABLE,
      DISABLE
    }

    public BreakpointChange {
      Objects.requireNonNull(change, "change");
    }
  }

  /** {@code watch EXPR}. */
  record Watch(String expression) implements ConsoleCommand {}

  /**
   * {@code print [--all | --classes N] EXPR}: {@code valueClasses} is how many classes of values
   * each node of the tree passes up before it sums up the rest (0: the session's default; {@code
   * --all}: {@link Integer#MAX_VALUE}, every one).
   */
  record Print(String expression, int valueClasses) implements ConsoleCommand {
    public Print {
      Objects.requireNonNull(expression, "expression");
      if (valueClasses < 0) {
        throw new IllegalArgumentException("valueClasses must be >= 0: " + valueClasses);
      }
    }

    /** {@code print EXPR}, with the session's default cap on classes of values. */
    public Print(String expression) {
      this(expression, 0);
    }
  }

  /** {@code ptype EXPR}. */
  record Ptype(String expression) implements ConsoleCommand {}

  /** {@code whatis EXPR}: the type's name, read through MI. */
  record Whatis(String expression) implements ConsoleCommand {}

  /** {@code x/N ADDR}: N bytes of memory. */
  record Examine(int count, String address) implements ConsoleCommand {}

  /** {@code frame N}. */
  record SelectFrame(int level) implements ConsoleCommand {}

  /** {@code up [N]} and {@code down [N]}: relative frame moves. */
  record MoveFrame(int delta) implements ConsoleCommand {}

  /** {@code thread N}. */
  record SelectThread(int id) implements ConsoleCommand {}

  /** {@code handle SIGNAL ACTIONS}. */
  record Handle(String signal, Set<SignalAction> actions) implements ConsoleCommand {
    public Handle {
      actions = Set.copyOf(actions);
    }
  }

  /** {@code gdb RAW}: a command for the debugger's own language. */
  record Raw(String command) implements ConsoleCommand {}

  /** {@code input [SET] TEXT}: a line to the programs' standard input. */
  record Input(String text) implements ConsoleCommand {}

  /** {@code wait [TIMEOUT]}: until every rank in the set is stopped or exited. */
  record Wait(Duration timeout) implements ConsoleCommand {}

  /** Commands without arguments. */
  enum Simple implements ConsoleCommand {
    RUN,
    CONTINUE,
    STEP,
    NEXT,
    FINISH,
    INTERRUPT,
    KILL,
    DETACH,
    BACKTRACE,
    BACKTRACE_ALL,
    WAITS,
    LOCALS,
    ARGS,
    INFO_BREAKPOINTS,
    INFO_THREADS,
    INFO_SIGNALS,
    PROCS,
    /** {@code procs -l}: every rank on its own line, with its host and pid. */
    PROCS_EACH,
    HELP,
    QUIT
  }
}
