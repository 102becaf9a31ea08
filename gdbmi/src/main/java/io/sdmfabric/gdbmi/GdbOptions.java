package io.sdmfabric.gdbmi;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How to run gdb.
 *
 * @param executable the gdb command: a path or a name looked up on {@code PATH}
 * @param extraArgs arguments after the fixed {@code --interpreter=mi3 -nx -q} and the driver's own
 *     early settings
 * @param transcript receives every line exchanged with gdb, commands prefixed with {@value
 *     #COMMAND_PREFIX} and gdb's output lines as they came; for recording test corpora
 * @param directory gdb's working directory, which the programs gdb starts inherit and where the
 *     kernel writes a core of gdb when {@code /proc/sys/kernel/core_pattern} is a relative name;
 *     the JVM's working directory by default
 * @param debugFileDirectory where gdb looks for the separate debug files of system libraries (its
 *     {@code debug-file-directory}, such as {@code /usr/lib/debug}, where Debian's {@code
 *     libc6-dbg} puts the C library's); empty: nowhere, the default ({@link
 *     #DEBUG_FILE_DIRECTORY_VARIABLE})
 */
public record GdbOptions(
    String executable,
    List<String> extraArgs,
    Consumer<String> transcript,
    Path directory,
    String debugFileDirectory) {

  /** The prefix of command lines in a transcript. */
  public static final String COMMAND_PREFIX = "#> ";

  /**
   * The environment variable that names gdb's {@code debug-file-directory} for every gdb of sdm's
   * ({@link #debugFileDirectory}); unset, gdb reads no separate debug file of a system library.
   * Such a file costs gdb for every program it holds, not once: the dynamic linker's is read as
   * each program starts, the C library's as each stops. At 32 programs in one gdb run to a
   * breakpoint, with Debian's {@code libc6-dbg} installed: 410 ms of gdb's CPU and 72.7 MB with
   * them, 230 ms and 44.6 MB without (bench/scripts/gdb_inferiors.py, issue #30). Without them a
   * frame in the C library has its name from the library ({@code puts () from libc.so.6}) instead
   * of its source and arguments ({@code __GI__IO_puts (str=...) at ./libio/ioputs.c:35}, a source
   * the machine rarely has). A program's own debug info is read either way: in the program, or in a
   * file its debug link names beside it or in its {@code .debug} directory.
   */
  public static final String DEBUG_FILE_DIRECTORY_VARIABLE = "SDM_DEBUG_FILE_DIRECTORY";

  public GdbOptions {
    Objects.requireNonNull(executable, "executable");
    extraArgs = List.copyOf(extraArgs);
    Objects.requireNonNull(transcript, "transcript");
    directory = directory.toAbsolutePath();
    Objects.requireNonNull(debugFileDirectory, "debugFileDirectory");
    if (debugFileDirectory.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException(
          "a debug-file directory cannot hold control characters: "
              + debugFileDirectory.replaceAll("\\p{Cntrl}", "?"));
    }
  }

  /**
   * gdb from {@code $SDM_GDB}, or {@code gdb} on the {@code PATH}, without a transcript, in the
   * JVM's working directory, reading separate debug files from {@code $SDM_DEBUG_FILE_DIRECTORY}
   * only.
   *
   * @throws IllegalArgumentException when {@code $SDM_DEBUG_FILE_DIRECTORY} holds a control
   *     character
   */
  public static GdbOptions defaults() {
    String gdb = System.getenv("SDM_GDB");
    String debugFiles = System.getenv(DEBUG_FILE_DIRECTORY_VARIABLE);
    return new GdbOptions(
        gdb == null || gdb.isBlank() ? "gdb" : gdb,
        List.of(),
        line -> {},
        Path.of(""),
        debugFiles == null ? "" : debugFiles.strip());
  }

  /** These options with a transcript sink. */
  public GdbOptions withTranscript(Consumer<String> sink) {
    return new GdbOptions(executable, extraArgs, sink, directory, debugFileDirectory);
  }

  /** These options with another gdb executable. */
  public GdbOptions withExecutable(String gdb) {
    return new GdbOptions(gdb, extraArgs, transcript, directory, debugFileDirectory);
  }

  /** These options with another working directory for gdb. */
  public GdbOptions withDirectory(Path dir) {
    return new GdbOptions(executable, extraArgs, transcript, dir, debugFileDirectory);
  }

  /** These options with another directory of separate debug files ({@link #debugFileDirectory}). */
  public GdbOptions withDebugFileDirectory(String dir) {
    return new GdbOptions(executable, extraArgs, transcript, directory, dir);
  }

  /**
   * The gdb commands that set {@link #debugFileDirectory}, given before gdb reads any file. gdb's
   * auto-load safe path is {@code $debugdir:$datadir/auto-load}, and an empty {@code $debugdir}
   * makes an empty entry of it, which matches every file: gdb 13 then runs the Python script beside
   * any program or library it loads ({@code prog-gdb.py}), whoever put it there (seen: the second
   * program of a gdb ran a script planted beside it). So with no directory, the safe path and the
   * scripts' directory keep only gdb's own {@code $datadir/auto-load}.
   */
  List<String> debugFileDirectorySettings() {
    if (!debugFileDirectory.isEmpty()) {
      return List.of("set debug-file-directory " + debugFileDirectory);
    }
    return List.of(
        "set auto-load safe-path $datadir/auto-load",
        "set auto-load scripts-directory $datadir/auto-load",
        "set debug-file-directory");
  }
}
