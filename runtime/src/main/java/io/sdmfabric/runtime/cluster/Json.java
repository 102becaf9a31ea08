package io.sdmfabric.runtime.cluster;

import io.sdmfabric.model.TerminalText;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * JSON text, read and written: what Slurm's {@code --json} prints, and what {@code sdm jobs --json}
 * prints. The runtime has no JSON library, and this is all it needs: a strict reader (RFC 8259) to
 * a tree of {@link Map} (keys in the text's order), {@link List}, {@link String}, {@link Long} (or
 * {@link BigInteger}, {@link BigDecimal}), {@link Boolean} and {@link #NULL}, whose errors say
 * where the text went wrong; and a writer of such trees.
 */
public final class Json {
  /** JSON's {@code null}, so that no value of the tree is Java's null. */
  public enum Null {
    NULL
  }

  /** JSON's {@code null}. */
  public static final Null NULL = Null.NULL;

  private final String text;
  private int at;

  private Json(String text) {
    this.text = text;
  }

  /**
   * The value {@code text} holds.
   *
   * @throws IllegalArgumentException for text that is not one JSON value, saying at which character
   */
  public static Object parse(String text) {
    Json p = new Json(text);
    p.space();
    Object value = p.value();
    p.space();
    if (p.at != text.length()) {
      throw p.error("text after the value");
    }
    return value;
  }

  private Object value() {
    if (at >= text.length()) {
      throw error("a value expected, not the end");
    }
    char c = text.charAt(at);
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> word("true", Boolean.TRUE);
      case 'f' -> word("false", Boolean.FALSE);
      case 'n' -> word("null", NULL);
      default -> {
        if (c == '-' || (c >= '0' && c <= '9')) {
          yield number();
        }
        throw error("a value expected, not '" + c + "'");
      }
    };
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    at++;
    space();
    if (peek() == '}') {
      at++;
      return map;
    }
    while (true) {
      space();
      if (peek() != '"') {
        throw error("a key expected");
      }
      String key = string();
      space();
      expect(':');
      space();
      map.put(key, value());
      space();
      if (peek() == ',') {
        at++;
      } else {
        expect('}');
        return map;
      }
    }
  }

  private List<Object> array() {
    List<Object> list = new ArrayList<>();
    at++;
    space();
    if (peek() == ']') {
      at++;
      return list;
    }
    while (true) {
      space();
      list.add(value());
      space();
      if (peek() == ',') {
        at++;
      } else {
        expect(']');
        return list;
      }
    }
  }

  private String string() {
    StringBuilder b = new StringBuilder();
    at++;
    while (true) {
      if (at >= text.length()) {
        throw error("an unterminated string");
      }
      char c = text.charAt(at++);
      if (c == '"') {
        return b.toString();
      } else if (c < 0x20) {
        throw error("a control character in a string");
      } else if (c != '\\') {
        b.append(c);
        continue;
      }
      char e = at < text.length() ? text.charAt(at++) : '?';
      switch (e) {
        case '"', '\\', '/' -> b.append(e);
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 't' -> b.append('\t');
        case 'u' -> {
          if (at + 4 > text.length() || !text.substring(at, at + 4).matches("[0-9a-fA-F]{4}")) {
            throw error("a bad \\u escape");
          }
          b.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          at += 4;
        }
        default -> throw error("a bad escape \\" + e);
      }
    }
  }

  private Object number() {
    int start = at;
    if (peek() == '-') {
      at++;
    }
    if (peek() == '0') {
      at++;
    } else if (!digits()) {
      throw error("a number expected");
    }
    boolean integral = true;
    if (peek() == '.') {
      at++;
      integral = false;
      if (!digits()) {
        throw error("digits expected after the point");
      }
    }
    if (peek() == 'e' || peek() == 'E') {
      at++;
      integral = false;
      if (peek() == '+' || peek() == '-') {
        at++;
      }
      if (!digits()) {
        throw error("digits expected in the exponent");
      }
    }
    String n = text.substring(start, at);
    if (!integral) {
      return new BigDecimal(n);
    }
    BigInteger big = new BigInteger(n);
    return big.bitLength() < 64 ? (Object) big.longValue() : big;
  }

  private boolean digits() {
    int start = at;
    while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
      at++;
    }
    return at > start;
  }

  private Object word(String word, Object value) {
    if (!text.startsWith(word, at)) {
      throw error("a value expected");
    }
    at += word.length();
    return value;
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("'" + c + "' expected");
    }
    at++;
  }

  private char peek() {
    return at < text.length() ? text.charAt(at) : '\0';
  }

  private void space() {
    while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("not JSON: " + what + " at character " + at);
  }

  /**
   * The JSON text of a tree of Map, List, String, Number, Boolean and {@link #NULL}, on one line.
   * Characters a terminal acts on are written as {@code \\u} escapes ({@link
   * TerminalText#actsOnTerminal}), so that the text is harmless on a terminal and reads back the
   * same.
   *
   * @throws IllegalArgumentException for a map of two or more keys with no order of its own (its
   *     keys would come in another order from one run to the next), or a value of another type
   */
  public static String write(Object value) {
    StringBuilder b = new StringBuilder();
    write(b, value);
    return b.toString();
  }

  private static void write(StringBuilder b, Object value) {
    if (value instanceof Map<?, ?> map) {
      if (map.size() > 1 && !(map instanceof LinkedHashMap || map instanceof SortedMap)) {
        throw new IllegalArgumentException("a JSON object needs a map with an order of its keys");
      }
      b.append('{');
      String comma = "";
      for (Map.Entry<?, ?> e : map.entrySet()) {
        b.append(comma);
        string(b, e.getKey().toString());
        b.append(':');
        write(b, e.getValue());
        comma = ",";
      }
      b.append('}');
    } else if (value instanceof List<?> list) {
      b.append('[');
      String comma = "";
      for (Object o : list) {
        b.append(comma);
        write(b, o);
        comma = ",";
      }
      b.append(']');
    } else if (value instanceof String s) {
      string(b, s);
    } else if (value instanceof Number || value instanceof Boolean) {
      b.append(value);
    } else if (value == NULL) {
      b.append("null");
    } else {
      throw new IllegalArgumentException("no JSON for " + value);
    }
  }

  private static void string(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20 || TerminalText.actsOnTerminal(c)) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    b.append('"');
  }
}
