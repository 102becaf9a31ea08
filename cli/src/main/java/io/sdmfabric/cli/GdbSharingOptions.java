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
              + " ranks (default: a gdb per core, at most 16 ranks each, and 32 each from 1,024"
              + " ranks up)")
  Integer ranksPerGdb;

  /**
   * The number given, else the default for a job of unknown size.
   *
   * @throws IllegalArgumentException when it is less than 1
   */
  int ranksPerGdb() {
    return ranksPerGdb(0);
  }

  /**
   * The number given, else the default for {@code size} ranks ({@link GdbFleet#ranksPerGdb}).
   *
   * @throws IllegalArgumentException when it is less than 1
   */
  int ranksPerGdb(int size) {
    if (ranksPerGdb == null) {
      return GdbFleet.ranksPerGdb(size);
    }
    if (ranksPerGdb < 1) {
      throw new IllegalArgumentException("--ranks-per-gdb needs 1 or more, not " + ranksPerGdb);
    }
    return ranksPerGdb;
  }
}
