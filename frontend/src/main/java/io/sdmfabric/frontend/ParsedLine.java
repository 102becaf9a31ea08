package io.sdmfabric.frontend;

import io.sdmfabric.model.RankSet;
import java.util.Objects;
import java.util.Optional;

/**
 * A console line: its command and the ranks it names with a {@code [SET]} prefix, if it names any
 * (otherwise it goes to the focus).
 */
public record ParsedLine(Optional<RankSet> ranks, ConsoleCommand command) {
  public ParsedLine {
    Objects.requireNonNull(ranks, "ranks");
    Objects.requireNonNull(command, "command");
  }

  /** The ranks the line names, or {@code focus} when it names none. */
  public RankSet ranksOr(RankSet focus) {
    return ranks.orElse(focus);
  }
}
