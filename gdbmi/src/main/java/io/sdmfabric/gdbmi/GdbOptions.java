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
 */
public record GdbOptions(
    String executable, List<String> extraArgs, Consumer<String> transcript, Path directory) {

  /** The prefix of command lines in a transcript. */
  public static final String COMMAND_PREFIX = "#> ";

  public GdbOptions {
    Objects.requireNonNull(executable, "executable");
    extraArgs = List.copyOf(extraArgs);
    Objects.requireNonNull(transcript, "transcript");
    directory = directory.toAbsolutePath();
  }

  /**
   * gdb from {@code $SDM_GDB}, or {@code gdb} on the {@code PATH}, without a transcript, in the
   * JVM's working directory.
   */
  public static GdbOptions defaults() {
    String gdb = System.getenv("SDM_GDB");
    return new GdbOptions(
        gdb == null || gdb.isBlank() ? "gdb" : gdb, List.of(), line -> {}, Path.of(""));
  }

  /** These options with a transcript sink. */
  public GdbOptions withTranscript(Consumer<String> sink) {
    return new GdbOptions(executable, extraArgs, sink, directory);
  }

  /** These options with another gdb executable. */
  public GdbOptions withExecutable(String gdb) {
    return new GdbOptions(gdb, extraArgs, transcript, directory);
  }

  /** These options with another working directory for gdb. */
  public GdbOptions withDirectory(Path dir) {
    return new GdbOptions(executable, extraArgs, transcript, dir);
  }
}
