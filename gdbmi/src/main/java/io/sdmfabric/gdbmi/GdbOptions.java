package io.sdmfabric.gdbmi;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How to run gdb.
 *
 * @param executable the gdb command: a path or a name looked up on {@code PATH}
 * @param extraArgs arguments after the fixed {@code --interpreter=mi3 -nx -q}
 * @param transcript receives every line exchanged with gdb, commands prefixed with {@value
 *     #COMMAND_PREFIX} and gdb's output lines as they came; for recording test corpora
 */
public record GdbOptions(String executable, List<String> extraArgs, Consumer<String> transcript) {

  /** The prefix of command lines in a transcript. */
  public static final String COMMAND_PREFIX = "#> ";

  public GdbOptions {
    Objects.requireNonNull(executable, "executable");
    extraArgs = List.copyOf(extraArgs);
    Objects.requireNonNull(transcript, "transcript");
  }

  /** gdb from {@code $SDM_GDB}, or {@code gdb} on the {@code PATH}, without a transcript. */
  public static GdbOptions defaults() {
    String gdb = System.getenv("SDM_GDB");
    return new GdbOptions(gdb == null || gdb.isBlank() ? "gdb" : gdb, List.of(), line -> {});
  }

  /** These options with a transcript sink. */
  public GdbOptions withTranscript(Consumer<String> sink) {
    return new GdbOptions(executable, extraArgs, sink);
  }

  /** These options with another gdb executable. */
  public GdbOptions withExecutable(String gdb) {
    return new GdbOptions(gdb, extraArgs, transcript);
  }
}
