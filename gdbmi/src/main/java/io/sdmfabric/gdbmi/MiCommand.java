package io.sdmfabric.gdbmi;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds the text of a GDB/MI input command: an operation and its options and parameters, each
 * parameter written as a C string when it holds anything gdb's MI tokenizer would split or misread.
 * See "GDB/MI Input Syntax" in the GDB manual.
 */
public final class MiCommand {
  private final String operation;
  private final List<String> words = new ArrayList<>();

  private MiCommand(String operation) {
    if (!operation.startsWith("-") || operation.contains(" ")) {
      throw new IllegalArgumentException("not an MI operation: " + operation);
    }
    this.operation = operation;
  }

  /** A command for an operation such as {@code -break-insert}. */
  public static MiCommand of(String operation) {
    return new MiCommand(operation);
  }

  /** Appends an option word such as {@code -t} or {@code --thread}, unquoted. */
  public MiCommand option(String option) {
    if (!option.startsWith("-")) {
      throw new IllegalArgumentException("not an option: " + option);
    }
    words.add(option);
    return this;
  }

  /** Appends a parameter, quoted when needed. */
  public MiCommand param(String value) {
    words.add(quote(value));
    return this;
  }

  /**
   * Appends text verbatim. For the commands that gdb hands to its CLI with the rest of the line as
   * it is ({@code -exec-arguments} is {@code set args}), where MI quoting would reach the CLI
   * unchanged.
   *
   * @throws IllegalArgumentException for a line break, which would end the command
   */
  public MiCommand raw(String text) {
    if (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
      throw new IllegalArgumentException("a line break cannot be passed to gdb: " + text);
    }
    words.add(text);
    return this;
  }

  /** Appends a number. */
  public MiCommand param(long value) {
    words.add(Long.toString(value));
    return this;
  }

  /** Whether the command has the option word {@code option} (a parameter is never one). */
  public boolean hasOption(String option) {
    return option.startsWith("-") && words.contains(option);
  }

  /** The command line without a token. */
  public String text() {
    StringBuilder b = new StringBuilder(operation);
    for (String w : words) {
      b.append(' ').append(w);
    }
    return b.toString();
  }

  @Override
  public String toString() {
    return text();
  }

  /**
   * A parameter as MI reads it: bare when it is a plain word, otherwise a C string with {@code \\},
   * {@code "}, and control characters escaped. A parameter starting with {@code -} is quoted so
   * that it is not taken for an option.
   */
  public static String quote(String value) {
    if (!value.isEmpty() && isPlain(value)) {
      return value;
    }
    StringBuilder b = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char ch = value.charAt(i);
      switch (ch) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (ch < 0x20 || ch == 0x7f) {
            b.append(String.format("\\%03o", (int) ch));
          } else {
            b.append(ch);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  private static boolean isPlain(String value) {
    if (value.charAt(0) == '-') {
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      char ch = value.charAt(i);
      if (ch <= ' ' || ch == '"' || ch == '\\' || ch == '\'' || ch >= 0x7f) {
        return false;
      }
    }
    return true;
  }
}
