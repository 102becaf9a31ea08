package io.sdmfabric.model;

import java.util.List;
import java.util.stream.Collectors;

/** Quoting for POSIX shells, for command lines that a remote shell runs. */
public final class Shell {
  private Shell() {}

  /** {@code word} as one word of a POSIX shell command line. */
  public static String quote(String word) {
    if (!word.isEmpty()
        && word.chars()
            .allMatch(
                ch -> ch < 128 && Character.isLetterOrDigit(ch) || "-_./=:,+@%".indexOf(ch) >= 0)) {
      return word;
    }
    return "'" + word.replace("'", "'\\''") + "'";
  }

  /** The words as one command line. */
  public static String join(List<String> words) {
    return words.stream().map(Shell::quote).collect(Collectors.joining(" "));
  }
}
