package io.sdmfabric.model;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Quoting for POSIX shells ({@code sh}, and the shell gdb starts a program with), for command lines
 * that a shell will split again: a remote shell's command, a program's arguments in gdb.
 *
 * <p>A word of only safe ASCII characters (letters, digits and {@code -_./=:,+@%}) stays bare;
 * every other word, the empty one included, is put in single quotes, inside which a POSIX shell
 * gives no character a meaning, and each {@code '} becomes {@code '\''} (close the quotes, an
 * escaped quote, open them again). Letters outside ASCII are quoted too: whether a shell takes them
 * as plain characters depends on its locale. See POSIX, Shell Command Language, 2.2 "Quoting".
 */
public final class Shell {
  private static final String SAFE_PUNCTUATION = "-_./=:,+@%";

  private Shell() {}

  /**
   * {@code word} as one argument of a POSIX shell command line. (A bare word with {@code =} in
   * command position would be an assignment; {@link #join} quotes the command name.)
   */
  public static String quote(String word) {
    Objects.requireNonNull(word, "word");
    return isSafe(word) ? word : singleQuoted(word);
  }

  /**
   * The words as one command line, each quoted; the first, the command's name, is quoted also when
   * it holds {@code =}, so that the shell does not take it for an assignment.
   */
  public static String join(List<String> words) {
    Objects.requireNonNull(words, "words");
    if (!words.isEmpty() && words.get(0).indexOf('=') >= 0) {
      return singleQuoted(words.get(0))
          + words.subList(1, words.size()).stream()
              .map(w -> " " + quote(w))
              .collect(Collectors.joining());
    }
    return words.stream().map(Shell::quote).collect(Collectors.joining(" "));
  }

  private static boolean isSafe(String word) {
    if (word.isEmpty()) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      char c = word.charAt(i);
      boolean alphanumeric =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      if (!alphanumeric && SAFE_PUNCTUATION.indexOf(c) < 0) {
        return false;
      }
    }
    return true;
  }

  private static String singleQuoted(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }
}
