package io.sdmfabric.frontend;

import io.sdmfabric.model.TerminalText;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * Writes JSON text: objects from ordered maps, lists, strings, numbers, booleans. An object's keys
 * come in its map's order, so that equal output is equal text from one run to the next: build
 * objects with {@link #object}; {@link #write} refuses a map of two or more keys without an order
 * of its own (a {@code HashMap}, {@code Map.of}), whose order changes between JVM runs.
 */
final class Json {
  private Json() {}

  /**
   * A JSON object with the keys in the order given: {@code object("event", "stopped", "ranks",
   * "0-3")}. The map is a new {@link LinkedHashMap}, so fields may be added after these.
   *
   * @throws IllegalArgumentException for an odd number of arguments, a key that is not a String, a
   *     key given twice, or a null value
   */
  static Map<String, Object> object(Object... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException(
          "keys and values must pair up: " + keysAndValues.length + " arguments");
    }
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      if (!(keysAndValues[i] instanceof String key)) {
        throw new IllegalArgumentException("a JSON key must be a String: " + keysAndValues[i]);
      }
      Object value = keysAndValues[i + 1];
      if (value == null) {
        throw new IllegalArgumentException("key \"" + key + "\" has a null value");
      }
      if (m.putIfAbsent(key, value) != null) {
        throw new IllegalArgumentException("key \"" + key + "\" given twice");
      }
    }
    return m;
  }

  /**
   * The JSON text of a value built from Map, List, String, Number, Boolean.
   *
   * @throws IllegalArgumentException for a map of two or more keys that is neither a {@link
   *     LinkedHashMap} nor a {@link SortedMap}: its keys would come in no fixed order
   */
  static String write(Object value) {
    StringBuilder b = new StringBuilder();
    write(b, value);
    return b.toString();
  }

  private static void write(StringBuilder b, Object value) {
    if (value instanceof Map<?, ?> map) {
      if (map.size() > 1 && !(map instanceof LinkedHashMap || map instanceof SortedMap)) {
        throw new IllegalArgumentException(
            "a JSON object from a map without a fixed key order ("
                + map.getClass().getName()
                + "): build it with Json.object");
      }
      b.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!first) {
          b.append(',');
        }
        first = false;
        string(b, e.getKey().toString());
        b.append(':');
        write(b, e.getValue());
      }
      b.append('}');
    } else if (value instanceof List<?> list) {
      b.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          b.append(',');
        }
        write(b, list.get(i));
      }
      b.append(']');
    } else if (value instanceof Number || value instanceof Boolean) {
      b.append(value);
    } else {
      string(b, String.valueOf(value));
    }
  }

  private static void string(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          // JSON needs only C0 escaped; the other characters a terminal acts on are escaped too,
          // so that a stream of events read on a terminal cannot act on it. Parsed, it is the same.
          if (TerminalText.actsOnTerminal(c)) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }
}
