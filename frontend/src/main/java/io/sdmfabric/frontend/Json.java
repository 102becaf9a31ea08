package io.sdmfabric.frontend;

import java.util.List;
import java.util.Map;

/** Writes JSON text: objects from ordered maps, lists, strings, numbers, booleans. */
final class Json {
  private Json() {}

  /** The JSON text of a value built from Map, List, String, Number, Boolean. */
  static String write(Object value) {
    StringBuilder b = new StringBuilder();
    write(b, value);
    return b.toString();
  }

  private static void write(StringBuilder b, Object value) {
    if (value instanceof Map<?, ?> map) {
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
          if (c < 0x20) {
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
