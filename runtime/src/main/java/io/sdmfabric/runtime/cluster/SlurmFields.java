package io.sdmfabric.runtime.cluster;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fields of Slurm's answers, read strictly: an object of {@code --json} output, whose field
 * must be there with the right type, and a line of {@code scontrol show -o}, {@code KEY=VALUE}
 * words. A field that is not as Slurm 22.05 writes it is an {@link IllegalArgumentException} that
 * names it.
 */
final class SlurmFields {
  /** Where a {@code KEY=VALUE} word begins: a space, a key of letters, an equals sign. */
  private static final Pattern KEY = Pattern.compile("(?:^| )([A-Za-z][A-Za-z_:/]*)=");

  private final Map<?, ?> object;
  private final String what;

  private SlurmFields(Map<?, ?> object, String what) {
    this.object = object;
    this.what = what;
  }

  /** The fields of {@code value}, a JSON object that {@code what} names in errors. */
  static SlurmFields of(Object value, String what) {
    if (!(value instanceof Map<?, ?> map)) {
      throw new IllegalArgumentException(what + " is not an object");
    }
    return new SlurmFields(map, what);
  }

  /** The objects of the list {@code key}, each as fields. */
  List<SlurmFields> list(String key) {
    if (!(field(key) instanceof List<?> list)) {
      throw bad(key, "a list");
    }
    return list.stream().map(o -> of(o, what + "'s " + key)).toList();
  }

  /** The strings of the list {@code key}. */
  List<String> strings(String key) {
    if (!(field(key) instanceof List<?> list)
        || !list.stream().allMatch(String.class::isInstance)) {
      throw bad(key, "a list of strings");
    }
    return list.stream().map(String.class::cast).toList();
  }

  String string(String key) {
    if (!(field(key) instanceof String s)) {
      throw bad(key, "a string");
    }
    return s;
  }

  /** The number {@code key}; {@code orElse} when it is null (Slurm's "not set"). */
  long number(String key, long orElse) {
    Object v = field(key);
    if (v == Json.NULL) {
      return orElse;
    }
    if (v instanceof Long n) {
      return n;
    }
    if (v instanceof BigInteger) {
      return Long.MAX_VALUE;
    }
    throw bad(key, "a whole number");
  }

  /** Whether the number {@code key} is set (not null). */
  boolean isSet(String key) {
    return field(key) != Json.NULL;
  }

  private Object field(String key) {
    Object v = object.get(key);
    if (v == null) {
      throw new IllegalArgumentException(what + " has no \"" + key + "\"");
    }
    return v;
  }

  private IllegalArgumentException bad(String key, String type) {
    return new IllegalArgumentException(what + "'s \"" + key + "\" is not " + type);
  }

  /**
   * The {@code KEY=VALUE} words of one line of {@code scontrol show ... -o}, in their order. A
   * value runs to the next word that starts a key, so a value with spaces in it (a job's name) is
   * kept whole unless it holds such a word itself.
   */
  static Map<String, String> words(String line) {
    Map<String, String> words = new LinkedHashMap<>();
    Matcher m = KEY.matcher(line);
    String key = null;
    int valueStart = 0;
    while (m.find()) {
      if (key != null) {
        words.putIfAbsent(key, line.substring(valueStart, m.start()));
      }
      key = m.group(1);
      valueStart = m.end();
    }
    if (key != null) {
      words.putIfAbsent(key, line.substring(valueStart).strip());
    }
    return words;
  }
}
