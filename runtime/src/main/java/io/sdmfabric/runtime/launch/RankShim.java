package io.sdmfabric.runtime.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The POSIX sh shim each rank starts under (the resource {@code rank-shim.sh}): it records the
 * rank's pid in its node's spool directory, stops itself with SIGSTOP, and execs the program once
 * the node's agent has attached gdb; or, for an MPI program, execs it at once and lets sdm's MPI
 * wait-records library stop it at the end of MPI_Init ({@link Hold}). It travels inline on the
 * launcher's command line ({@code sh -c}), so nothing needs to be installed on the compute nodes;
 * it holds no secret.
 */
public final class RankShim {
  /** The line rank 0 prints under Slurm: {@code sdm-job JOBID NODELIST NODES}. */
  static final String JOB_MARKER = "sdm-job ";

  private static final String SCRIPT = load();

  private RankShim() {}

  /** What the shim's preload argument is when there is nothing to preload. */
  static final String NO_PRELOAD = "-";

  /** The name ({@code $0}) the shim runs under, in its command line and its launcher's. */
  public static final String NAME = "sdm-rank";

  /**
   * Where a rank waits for its node's agent to attach gdb: before its exec (gdb then sees the
   * program from its first instruction), or at the end of MPI_Init, where sdm's MPI wait-records
   * library stops it (only if the library is preloaded; before the exec otherwise).
   */
  public enum Hold {
    AT_EXEC("exec"),
    IN_MPI_INIT("init");

    final String word;

    Hold(String word) {
      this.word = word;
    }
  }

  /** The command that runs {@code program} with {@code args} under the shim. */
  public static List<String> command(String spool, String program, List<String> args) {
    return command(spool, "", Hold.AT_EXEC, program, args);
  }

  /**
   * The command that runs {@code program} with {@code args} under the shim, with the library {@code
   * preload} preloaded where a rank's node has it readable (none when it is empty: it travels as
   * {@value #NO_PRELOAD}, for mpirun drops an empty argument), each rank held for its gdb as {@code
   * hold} says.
   */
  public static List<String> command(
      String spool, String preload, Hold hold, String program, List<String> args) {
    String library = preload.isEmpty() ? NO_PRELOAD : preload;
    List<String> command =
        new ArrayList<>(List.of("sh", "-c", SCRIPT, NAME, spool, library, hold.word, program));
    command.addAll(args);
    return command;
  }

  private static String load() {
    try (InputStream in = RankShim.class.getResourceAsStream("rank-shim.sh")) {
      if (in == null) {
        throw new IllegalStateException("rank-shim.sh is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
