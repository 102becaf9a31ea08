package io.sdmfabric.gdbmi;

import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.Shell;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.model.WatchKind;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Every MI command line the module sends to gdb, by what it does, as Eclipse CDT's CommandFactory
 * has them: the rest of the module names a command and its scope ({@link MiScope}), never its text.
 * Parameters are quoted as C strings by {@link MiCommand#param}, the one place that quotes; the CLI
 * commands sent through {@code -interpreter-exec console} are one such parameter each.
 */
final class MiCommands {
  private MiCommands() {}

  // gdb itself

  /**
   * What every gdb is set to at start: non-stop and asynchronous execution (gdb takes commands
   * while the programs run, and each thread stops on its own), pagination, confirmation and line
   * wrapping off, pending breakpoints on (for breakpoints in shared libraries such as MPI's), and
   * the first program's terminal.
   */
  static List<MiCommand> startup(String terminal) {
    return List.of(
        set("non-stop", "on"),
        set("mi-async", "on"),
        set("pagination", "off"),
        set("confirm", "off"),
        set("width", "0"),
        set("height", "0"),
        MiCommand.of("-gdb-set").param("breakpoint").param("pending").param("on"),
        terminal(MiScope.GDB, terminal));
  }

  /**
   * Keeps the symbol indexes gdb builds in {@code directory} and reuses them (gdb 13's {@code set
   * index-cache}): each gdb of a session otherwise indexes the same libraries' debug info anew. See
   * "Index Files" in the GDB manual, https://sourceware.org/gdb/onlinedocs/gdb/Index-Files.html.
   */
  static List<MiCommand> indexCache(String directory) {
    return List.of(
        console(MiScope.GDB, "set index-cache directory " + directory),
        console(MiScope.GDB, "set index-cache enabled on"));
  }

  private static MiCommand set(String setting, String value) {
    return MiCommand.of("-gdb-set").param(setting).param(value);
  }

  /** Runs {@code command} in gdb's CLI; what it prints comes in the reply's console text. */
  static MiCommand console(MiScope scope, String command) {
    return scope.command("-interpreter-exec").param("console").param(command);
  }

  /** Loads Python code given as base64 (sdm's gdb commands, {@code sdm_values.py}). */
  static MiCommand python(String base64) {
    return console(
        MiScope.GDB, "python exec(__import__('base64').b64decode('" + base64 + "').decode())");
  }

  /**
   * A command that changes nothing: for its answer, which comes after whatever gdb had to say
   * before it; with a program-less thread group, it leaves gdb with no thread selected.
   */
  static MiCommand nothing(MiScope scope) {
    return scope.command("-gdb-show").param("confirm");
  }

  static MiCommand exit() {
    return MiCommand.of("-gdb-exit");
  }

  /** A new, empty inferior; the reply names its thread group ({@code inferior}). */
  static MiCommand addInferior() {
    return MiCommand.of("-add-inferior");
  }

  static MiCommand listThreadGroups() {
    return MiCommand.of("-list-thread-groups");
  }

  /** Whether gdb stops the programs at their shared-library events (for all of them). */
  static MiCommand stopOnLibraryEvents(boolean stop) {
    return console(MiScope.GDB, "set stop-on-solib-events " + (stop ? "1" : "0"));
  }

  /** Whether gdb reads libraries' symbols as they load (for all its programs). */
  static MiCommand readLibrarySymbols(boolean asTheyLoad) {
    return console(MiScope.GDB, "set auto-solib-add " + (asTheyLoad ? "on" : "off"));
  }

  /** Reads the symbols of the libraries the program of {@code scope} has loaded. */
  static MiCommand loadLibrarySymbols(MiScope scope) {
    return console(scope, "sharedlibrary");
  }

  // A program and its process

  static MiCommand terminal(MiScope scope, String terminal) {
    return scope.command("-inferior-tty-set").param(terminal);
  }

  static MiCommand fileExecAndSymbols(MiScope scope, String program) {
    return scope.command("-file-exec-and-symbols").param(program);
  }

  /**
   * The program's arguments. gdb starts the program through a shell, which splits them again: each
   * is quoted for the shell, and passed as it is ({@code -exec-arguments} is {@code set args},
   * where MI quoting would reach the shell unchanged).
   *
   * @throws IllegalArgumentException for an argument no shell word can hold
   */
  static MiCommand arguments(MiScope scope, List<String> arguments) {
    MiCommand c = scope.command("-exec-arguments");
    arguments.forEach(a -> c.raw(Shell.quote(a)));
    return c;
  }

  static MiCommand workingDirectory(MiScope scope, String directory) {
    return scope.command("-gdb-set").param("cwd").param(directory);
  }

  static MiCommand environment(MiScope scope, String name, String value) {
    return console(scope, "set environment " + name + "=" + value);
  }

  /** The current source file; an error when the program has no debug info. */
  static MiCommand sourceFile(MiScope scope) {
    return scope.command("-file-list-exec-source-file");
  }

  /** The source files by objfile, the program's first (then its shared libraries'). */
  static MiCommand sourceFilesByObjfile(MiScope scope) {
    return scope.command("-file-list-exec-source-files").option("--group-by-objfile");
  }

  /**
   * The objfiles with how much of their debug info gdb has read ({@code none} when they have none),
   * the program's first, each with no source file: a regular expression that no file name matches
   * keeps out the lists of sources, which for a program whose C library has its debug info
   * installed come to 800 KB per process.
   */
  static MiCommand objfilesDebugInfo(MiScope scope) {
    return scope
        .command("-file-list-exec-source-files")
        .option("--group-by-objfile")
        .option("--")
        .param("^$");
  }

  static MiCommand attach(MiScope scope, long pid) {
    return scope.command("-target-attach").param(Long.toString(pid));
  }

  static MiCommand detach(MiScope scope) {
    return scope.command("-target-detach");
  }

  static MiCommand kill(MiScope scope) {
    return console(scope, "kill");
  }

  /** A catchpoint at the program's next exec; its number comes from {@code $bpnum}. */
  static MiCommand catchExec(MiScope scope) {
    return console(scope, "catch exec");
  }

  // Execution

  static MiCommand run(MiScope scope) {
    return scope.command("-exec-run");
  }

  static MiCommand resume(MiScope scope) {
    return scope.command("-exec-continue");
  }

  /** A step of {@code kind}: into a call ({@code -exec-step}), over it, or out of the frame. */
  static MiCommand step(MiScope scope, StepKind kind) {
    return scope.command(
        switch (kind) {
          case INTO -> "-exec-step";
          case OVER -> "-exec-next";
          case RETURN -> "-exec-finish";
        });
  }

  static MiCommand interrupt(MiScope scope) {
    return scope.command("-exec-interrupt");
  }

  /** gdb's signal table, as {@code info signals} prints it. */
  static MiCommand signals(MiScope scope) {
    return console(scope, "info signals");
  }

  /** How gdb handles {@code signal}: {@code words} such as {@code nostop}, {@code pass}. */
  static MiCommand handle(MiScope scope, String signal, List<String> words) {
    StringBuilder command = new StringBuilder("handle ").append(signal);
    words.forEach(w -> command.append(' ').append(w));
    return console(scope, command.toString());
  }

  // Breakpoints

  /**
   * {@code -break-insert} for {@code spec}, with gdb's {@code condition} (the user's and the
   * programs'), pending if its location is not found yet ({@code -f}).
   */
  static MiCommand insertBreakpoint(MiScope scope, BreakpointSpec spec, String condition) {
    MiCommand c = scope.command("-break-insert").option("-f");
    if (spec.temporary()) {
      c.option("-t");
    }
    if (!spec.enabled()) {
      c.option("-d");
    }
    c.option("-c").param(condition);
    if (spec.ignoreCount() > 0) {
      c.option("-i").param(spec.ignoreCount());
    }
    return c.param(spec.location().toString());
  }

  static MiCommand insertWatchpoint(MiScope scope, String expression, WatchKind kind) {
    MiCommand c = scope.command("-break-watch");
    switch (kind) {
      case READ -> c.option("-r");
      case ACCESS -> c.option("-a");
      case WRITE -> {}
    }
    return c.param(expression);
  }

  static MiCommand breakpointCondition(int number, String condition) {
    return MiCommand.of("-break-condition").param(number).param(condition);
  }

  /** Enables or disables breakpoint {@code number}, or location {@code N.M} of one. */
  static MiCommand enableBreakpoint(String number, boolean enabled) {
    return MiCommand.of(enabled ? "-break-enable" : "-break-disable").param(number);
  }

  static MiCommand enableBreakpoint(int number, boolean enabled) {
    return enableBreakpoint(Integer.toString(number), enabled);
  }

  static MiCommand deleteBreakpoint(int number) {
    return MiCommand.of("-break-delete").param(number);
  }

  static MiCommand breakpointInfo(int number) {
    return MiCommand.of("-break-info").param(number);
  }

  static MiCommand breakpoints() {
    return MiCommand.of("-break-list");
  }

  // Stack and threads

  static MiCommand threads() {
    return MiCommand.of("-thread-info");
  }

  static MiCommand thread(int global) {
    return MiCommand.of("-thread-info").param(global);
  }

  static MiCommand frames(MiScope scope) {
    return scope.command("-stack-list-frames");
  }

  static MiCommand depth(MiScope scope) {
    return scope.command("-stack-info-depth");
  }

  /** The stack's depth, counting {@code max} frames at most. */
  static MiCommand depth(MiScope scope, int max) {
    return depth(scope).param(max);
  }

  static MiCommand frame(MiScope scope) {
    return scope.command("-stack-info-frame");
  }

  /** The frame's arguments and locals, with the values of the simple ones. */
  static MiCommand variables(MiScope scope) {
    return scope.command("-stack-list-variables").option("--simple-values");
  }

  // Data

  static MiCommand evaluate(MiScope scope, String expression) {
    return scope.command("-data-evaluate-expression").param(expression);
  }

  static MiCommand symbolVariables(MiScope scope) {
    return scope.command("-symbol-info-variables");
  }

  static MiCommand readMemory(MiScope scope, String address, int count) {
    return scope.command("-data-read-memory-bytes").param(address).param(count);
  }

  static MiCommand writeMemory(MiScope scope, String address, String hex) {
    return scope.command("-data-write-memory-bytes").param(address).param(hex);
  }

  /** A variable object for {@code expression}, named by gdb ({@code -}), in the current frame. */
  static MiCommand createVariable(MiScope scope, String expression) {
    return scope.command("-var-create").param("-").param("*").param(expression);
  }

  static MiCommand deleteVariable(String name) {
    return MiCommand.of("-var-delete").param(name);
  }

  /** The first {@code max} children of variable object {@code name}, with their values. */
  static MiCommand variableChildren(String name, int max) {
    return MiCommand.of("-var-list-children")
        .option("--all-values")
        .param(name)
        .param(0)
        .param(max);
  }

  /** sdm's gdb command for a value ({@code sdm_values.py}), {@code depth} levels of children. */
  static MiCommand sdmValue(MiScope scope, int depth, int maxChildren, String expression) {
    return console(scope, "sdm-value " + depth + " " + maxChildren + " " + expression);
  }

  /**
   * sdm's gdb command for the frames of several of gdb's threads at once, each distinct stack once
   * ({@code sdm_values.py}); its answer, marked {@code id}, is {@link #jointAnswer}'s.
   */
  static MiCommand sdmFrames(long id, List<Integer> threads) {
    return console(
        MiScope.GDB,
        "sdm-frames "
            + id
            + " "
            + threads.stream().map(String::valueOf).collect(Collectors.joining(",")));
  }

  /**
   * sdm's gdb command for a value in several frames at once ({@code where}: a global thread and a
   * frame level each), each distinct value once ({@code sdm_values.py}); its answer, marked {@code
   * id}, is {@link #jointAnswer}'s.
   */
  static MiCommand sdmValues(
      long id, List<MiScope.AtFrame> where, int depth, int maxChildren, String expression) {
    String frames =
        where.stream().map(f -> f.global() + "." + f.level()).collect(Collectors.joining(","));
    return console(
        MiScope.GDB,
        "sdm-values " + id + " " + depth + " " + maxChildren + " " + frames + " " + expression);
  }

  /**
   * The answer of the last {@code sdm-frames} or {@code sdm-values}, which MI writes in one piece
   * (what a command prints, gdb 13 writes a byte at a time).
   */
  static MiCommand jointAnswer() {
    return MiCommand.of("-gdb-show").param("sdm-answer");
  }

  /** sdm's gdb command for an expression's type, as {@code whatis} names it. */
  static MiCommand sdmType(MiScope scope, String expression) {
    return console(scope, "sdm-type " + expression);
  }

  static MiCommand whatis(MiScope scope, String expression) {
    return console(scope, "whatis " + expression);
  }
}
