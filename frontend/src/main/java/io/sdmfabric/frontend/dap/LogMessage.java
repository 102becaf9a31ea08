package io.sdmfabric.frontend.dap;

import io.sdmfabric.model.RankSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A logpoint's message: text with expressions in braces ({@code "x is {x}, y is {y}"}), each
 * evaluated on the ranks that hit it. Every rank's message is made, and the ranks with the same
 * message share one line ({@code [0,1,3] x is 42}) rather than each printing its own.
 */
record LogMessage(List<String> texts, List<String> expressions) {
  LogMessage {
    texts = List.copyOf(texts);
    expressions = List.copyOf(expressions);
    if (texts.size() != expressions.size() + 1) {
      throw new IllegalArgumentException("a text before and after every expression");
    }
  }

  /**
   * Reads {@code message}; {@code \{} and {@code \}} are braces of the text.
   *
   * @throws IllegalArgumentException for a brace left open or an empty expression
   */
  static LogMessage parse(String message) {
    List<String> texts = new ArrayList<>();
    List<String> expressions = new ArrayList<>();
    StringBuilder part = new StringBuilder();
    boolean inExpression = false;
    for (int i = 0; i < message.length(); i++) {
      char c = message.charAt(i);
      if (c == '\\' && i + 1 < message.length() && "{}".indexOf(message.charAt(i + 1)) >= 0) {
        part.append(message.charAt(++i));
      } else if (c == '{' && !inExpression) {
        texts.add(part.toString());
        part.setLength(0);
        inExpression = true;
      } else if (c == '}' && inExpression) {
        if (part.toString().isBlank()) {
          throw new IllegalArgumentException("log message has an empty {} at " + i);
        }
        expressions.add(part.toString().strip());
        part.setLength(0);
        inExpression = false;
      } else {
        part.append(c);
      }
    }
    if (inExpression) {
      throw new IllegalArgumentException("log message has a { without its }");
    }
    texts.add(part.toString());
    return new LogMessage(texts, expressions);
  }

  /**
   * The lines of {@code ranks}' messages, one per distinct message with the ranks that made it, in
   * the order of their first rank.
   *
   * @param values for each expression, the text it has on each rank
   */
  List<String> lines(RankSet ranks, Function<String, Function<Integer, String>> values) {
    List<Function<Integer, String>> perExpression = new ArrayList<>();
    for (String e : expressions) {
      perExpression.add(values.apply(e));
    }
    Map<String, RankSet.Builder> byMessage = new LinkedHashMap<>();
    ranks.forEach(
        rank -> {
          StringBuilder m = new StringBuilder(texts.get(0));
          for (int i = 0; i < expressions.size(); i++) {
            m.append(perExpression.get(i).apply(rank)).append(texts.get(i + 1));
          }
          byMessage.computeIfAbsent(m.toString(), k -> RankSet.builder()).add(rank);
        });
    List<String> lines = new ArrayList<>();
    byMessage.forEach((message, which) -> lines.add("[" + which.build() + "] " + message));
    return lines;
  }
}
