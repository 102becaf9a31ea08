package io.sdmfabric.frontend;

import io.sdmfabric.frontend.ConsoleCommand.BreakpointChange.Change;
import io.sdmfabric.frontend.ConsoleCommand.Simple;
import io.sdmfabric.model.Location;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalAction;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the console language: an optional rank-set prefix ({@code [0-3,7] print x}) and a gdb-like
 * command with gdb's usual abbreviations ({@code b}, {@code c}, {@code n}, {@code s}, {@code p},
 * {@code bt}, {@code q}). The same language serves the terminal and scripts.
 */
public final class ConsoleParser {
  /** How long {@code wait} waits when it is given no timeout. */
  public static final Duration DEFAULT_WAIT = Duration.ofSeconds(60);

  private static final Map<String, Simple> SIMPLE =
      Map.ofEntries(
          Map.entry("run", Simple.RUN),
          Map.entry("r", Simple.RUN),
          Map.entry("continue", Simple.CONTINUE),
          Map.entry("cont", Simple.CONTINUE),
          Map.entry("c", Simple.CONTINUE),
          Map.entry("step", Simple.STEP),
          Map.entry("s", Simple.STEP),
          Map.entry("next", Simple.NEXT),
          Map.entry("n", Simple.NEXT),
          Map.entry("finish", Simple.FINISH),
          Map.entry("interrupt", Simple.INTERRUPT),
          Map.entry("kill", Simple.KILL),
          Map.entry("detach", Simple.DETACH),
          Map.entry("locals", Simple.LOCALS),
          Map.entry("args", Simple.ARGS),
          Map.entry("waits", Simple.WAITS),
          Map.entry("help", Simple.HELP),
          Map.entry("quit", Simple.QUIT),
          Map.entry("q", Simple.QUIT),
          Map.entry("exit", Simple.QUIT));

  private ConsoleParser() {}

  /**
   * Parses one line; blank lines and {@code #} comments give nothing.
   *
   * @throws ConsoleSyntaxException with a message for the user
   */
  public static Optional<ParsedLine> parse(String line) {
    String rest = line.strip();
    if (rest.isEmpty() || rest.startsWith("#")) {
      return Optional.empty();
    }
    Optional<RankSet> ranks = Optional.empty();
    if (rest.startsWith("[")) {
      int close = rest.indexOf(']');
      if (close < 0) {
        throw new ConsoleSyntaxException("missing ] after the rank set: " + rest);
      }
      ranks = Optional.of(rankSet(rest.substring(1, close)));
      rest = rest.substring(close + 1).strip();
      if (rest.isEmpty()) {
        throw new ConsoleSyntaxException("a rank set needs a command after it, e.g. [0-3] bt");
      }
    }
    String word = firstWord(rest);
    String args = rest.substring(word.length()).strip();
    return Optional.of(new ParsedLine(ranks, command(word, args)));
  }

  private static ConsoleCommand command(String word, String args) {
    String w = word.toLowerCase(Locale.ROOT);
    if (w.startsWith("x/") || w.equals("x")) {
      return examine(w, args);
    }
    switch (w) {
      case "focus":
        return focus(args);
      case "break":
      case "b":
        return breakpoint(args, false);
      case "tbreak":
        return breakpoint(args, true);
      case "delete":
      case "d":
        return new ConsoleCommand.BreakpointChange(Change.DELETE, number(w, args));
      case "enable":
        return new ConsoleCommand.BreakpointChange(Change.ENABLE, number(w, args));
      case "disable":
        return new ConsoleCommand.BreakpointChange(Change.DISABLE, number(w, args));
      case "watch":
        return new ConsoleCommand.Watch(required(w, args, "an expression"));
      case "print":
      case "p":
        return print(w, args);
      case "ptype":
        return new ConsoleCommand.Ptype(required(w, args, "an expression"));
      case "whatis":
        return new ConsoleCommand.Whatis(required(w, args, "an expression"));
      case "frame":
      case "f":
        return new ConsoleCommand.SelectFrame(number(w, args));
      case "up":
        return new ConsoleCommand.MoveFrame(args.isEmpty() ? 1 : number(w, args));
      case "down":
        return new ConsoleCommand.MoveFrame(-(args.isEmpty() ? 1 : number(w, args)));
      case "thread":
        return new ConsoleCommand.SelectThread(number(w, args));
      case "handle":
        return handle(args);
      case "gdb":
        return new ConsoleCommand.Raw(required(w, args, "a gdb command"));
      case "input":
        return new ConsoleCommand.Input(args);
      case "wait":
        return new ConsoleCommand.Wait(args.isEmpty() ? DEFAULT_WAIT : duration(args));
      case "info":
        return info(args);
      case "procs":
        if (args.equals("-l")) {
          return Simple.PROCS_EACH;
        } else if (!args.isEmpty()) {
          throw new ConsoleSyntaxException(
              "\"" + word + "\" takes \"-l\" (every rank with its host and pid) or nothing");
        }
        return Simple.PROCS;
      case "bt":
      case "backtrace":
      case "where":
        if (args.equalsIgnoreCase("all")) {
          return Simple.BACKTRACE_ALL;
        } else if (!args.isEmpty()) {
          throw new ConsoleSyntaxException(
              "\"" + word + "\" takes \"all\" (every thread) or nothing");
        }
        return Simple.BACKTRACE;
      default:
        Simple simple = SIMPLE.get(w);
        if (simple == null) {
          throw new ConsoleSyntaxException("unknown command \"" + word + "\": try \"help\"");
        }
        if (!args.isEmpty()) {
          throw new ConsoleSyntaxException("\"" + word + "\" takes no arguments: " + args);
        }
        return simple;
    }
  }

  /** The text of {@code help}. */
  public static String help() {
    return String.join(
        "\n",
        "Commands (an optional [SET] prefix picks the ranks, e.g. [0-3,7] print x):",
        "  focus SET | focus all        ranks for commands without a prefix",
        "  break LOC [if COND]          LOC is FILE:LINE or FUNCTION; tbreak: once",
        "  delete|enable|disable ID     change a breakpoint; info breakpoints lists them",
        "  watch EXPR                   stop when EXPR changes",
        "  run | continue | step | next | finish | interrupt | kill",
        "  wait [TIMEOUT]               until the ranks are stopped or exited (e.g. 10s)",
        "  detach                       leave attached processes running without sdm",
        "  bt                           merged stacks, a tree with the ranks at each frame",
        "  bt all                       the same of every thread, with the threads at each frame",
        "  frame N | up | down          select a frame",
        "  print EXPR | ptype EXPR      values compared across ranks; whatis EXPR: type name",
        "  print --all EXPR             every distinct value: print shows the first 64 and sums",
        "                               up the rest (how many, min, max); --classes N: N of them",
        "  locals | args | x/N ADDR     variables; N bytes of memory",
        "  info threads | thread N      threads",
        "  info signals | handle SIG ACTIONS",
        "  gdb RAW                      a gdb command, as typed at gdb's prompt",
        "  procs [-l]                   ranks by state and location, and their hosts",
        "                               (-l: every rank with its host, pid and threads)",
        "  waits                        who waits for whom in MPI; deadlocks named",
        "  input [SET] TEXT             a line to the programs' standard input",
        "  help | quit");
  }

  private static RankSet rankSet(String text) {
    try {
      return RankSet.parse(text);
    } catch (IllegalArgumentException e) {
      throw new ConsoleSyntaxException(e.getMessage());
    }
  }

  private static ConsoleCommand focus(String args) {
    if (args.equals("all")) {
      return new ConsoleCommand.Focus(RankSet.empty(), true);
    }
    String set =
        args.startsWith("[") && args.endsWith("]") ? args.substring(1, args.length() - 1) : args;
    if (set.isBlank()) {
      throw new ConsoleSyntaxException("focus needs a rank set (e.g. focus 0-3) or \"all\"");
    }
    return new ConsoleCommand.Focus(rankSet(set), false);
  }

  private static ConsoleCommand breakpoint(String args, boolean temporary) {
    String location = args;
    String condition = "";
    Matcher m = Pattern.compile("\\s+if\\s+").matcher(args);
    if (m.find()) {
      location = args.substring(0, m.start());
      condition = args.substring(m.end()).strip();
      if (condition.isEmpty()) {
        throw new ConsoleSyntaxException("\"if\" needs a condition");
      }
    }
    if (location.isBlank()) {
      throw new ConsoleSyntaxException("break needs a location: FILE:LINE or FUNCTION");
    }
    try {
      return new ConsoleCommand.Break(Location.parse(location), condition, temporary);
    } catch (IllegalArgumentException e) {
      throw new ConsoleSyntaxException(e.getMessage());
    }
  }

  /**
   * {@code print [--all | --classes N] EXPR}. An option is followed by more words, so that {@code
   * print --all} alone stays C's pre-decrement of {@code all}; {@code --all x} is no C.
   */
  private static ConsoleCommand print(String word, String args) {
    Matcher all = Pattern.compile("--all\\s+(.*)", Pattern.DOTALL).matcher(args);
    if (all.matches()) {
      return new ConsoleCommand.Print(all.group(1), Integer.MAX_VALUE);
    }
    Matcher some =
        Pattern.compile("--classes\\s+(\\S+)(?:\\s+(.*))?", Pattern.DOTALL).matcher(args);
    if (some.matches()) {
      String n = some.group(1);
      if (!n.matches("[1-9]\\d{0,8}")) {
        throw new ConsoleSyntaxException(
            "--classes needs a number of values from 1, e.g. print --classes 1000 x");
      }
      return new ConsoleCommand.Print(
          required(word, some.group(2) == null ? "" : some.group(2), "an expression"),
          Integer.parseInt(n));
    }
    return new ConsoleCommand.Print(required(word, args, "an expression"));
  }

  private static ConsoleCommand examine(String word, String args) {
    int count = 1;
    if (word.startsWith("x/")) {
      String n = word.substring(2);
      if (!n.matches("\\d{1,7}")) {
        throw new ConsoleSyntaxException("x/N needs a byte count, e.g. x/16 &buffer");
      }
      count = Integer.parseInt(n);
    }
    return new ConsoleCommand.Examine(count, required("x", args, "an address"));
  }

  private static ConsoleCommand handle(String args) {
    String[] words = args.split("\\s+");
    if (args.isEmpty() || words.length < 2) {
      throw new ConsoleSyntaxException(
          "handle needs a signal and actions, e.g. handle SIGUSR1 nostop");
    }
    Set<SignalAction> actions = EnumSet.noneOf(SignalAction.class);
    for (int i = 1; i < words.length; i++) {
      try {
        actions.add(SignalAction.valueOf(words[i].toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        throw new ConsoleSyntaxException(
            "unknown signal action \""
                + words[i]
                + "\": use stop, nostop, print, noprint, pass or nopass");
      }
    }
    return new ConsoleCommand.Handle(words[0], actions);
  }

  private static ConsoleCommand info(String args) {
    switch (args.toLowerCase(Locale.ROOT)) {
      case "breakpoints":
      case "break":
      case "b":
        return Simple.INFO_BREAKPOINTS;
      case "threads":
        return Simple.INFO_THREADS;
      case "signals":
        return Simple.INFO_SIGNALS;
      default:
        throw new ConsoleSyntaxException(
            "info what? info breakpoints, info threads or info signals (gdb RAW for the rest)");
    }
  }

  private static Duration duration(String text) {
    try {
      return Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw new ConsoleSyntaxException("bad timeout \"" + text + "\": use e.g. 500ms, 10s, 2m");
    }
  }

  private static int number(String word, String args) {
    if (!args.matches("\\d{1,9}")) {
      throw new ConsoleSyntaxException(
          word + " needs a number" + (args.isEmpty() ? "" : ", not \"" + args + "\""));
    }
    return Integer.parseInt(args);
  }

  private static String required(String word, String args, String what) {
    if (args.isEmpty()) {
      throw new ConsoleSyntaxException(word + " needs " + what);
    }
    return args;
  }

  private static String firstWord(String text) {
    int end = 0;
    while (end < text.length() && !Character.isWhitespace(text.charAt(end))) {
      end++;
    }
    return text.substring(0, end);
  }
}
