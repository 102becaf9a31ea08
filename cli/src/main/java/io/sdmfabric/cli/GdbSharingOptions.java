package io.sdmfabric.cli;

import io.sdmfabric.runtime.GdbFleet;
import picocli.CommandLine.Option;

/**
 * How many ranks one gdb debugs, for the commands that start gdbs ({@code sdm debug}, {@code sdm
 * stacks}, {@code sdm attach}).
 */
final class GdbSharingOptions {
  @Option(
      names = "--ranks-per-gdb",
      paramLabel = "N",
      description =
          "how many ranks one gdb debugs (1: a gdb per rank); a gdb that dies loses exactly its"
              + " ranks (default: ${DEFAULT-VALUE})")
  int ranksPerGdb = GdbFleet.DEFAULT_RANKS_PER_GDB;

  /**
   * The number given.
   *
   * @throws IllegalArgumentException when it is less than 1
   */
  int ranksPerGdb() {
    if (ranksPerGdb < 1) {
      throw new IllegalArgumentException("--ranks-per-gdb needs 1 or more, not " + ranksPerGdb);
    }
    return ranksPerGdb;
  }
}
