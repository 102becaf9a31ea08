package io.sdmfabric.runtime.cluster;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fields of Slurm's answers, read strictly: an object of {@code --json} output (read by Gson),
 * whose field must be there with the right type, and a line of {@code scontrol show -o}, {@code
 * KEY=VALUE} words. A field that is not as Slurm 22.05 writes it is an {@link
 * IllegalArgumentException} that names it.
 */
final class SlurmFields {
  /** Where a {@code KEY=VALUE} word begins: a space, a key of letters, an equals sign. */
  private static final Pattern KEY = Pattern.compile("(?:^| )([A-Za-z][A-Za-z_:/]*)=");

  private final JsonObject object;
  private final String what;

  private SlurmFields(JsonObject object, String what) {
    this.object = object;
    this.what = what;
  }

  /**
   * The fields of the JSON object {@code json}, the whole of Slurm's answer, which {@code what}
   * names in errors; read strictly (RFC 8259), so that what is not JSON is refused.
   */
  static SlurmFields parse(String json, String what) {
    JsonElement value;
    try {
      JsonReader reader = new JsonReader(new StringReader(json));
      reader.setStrictness(Strictness.STRICT);
      value = JsonParser.parseReader(reader);
      if (reader.peek() != JsonToken.END_DOCUMENT) {
        throw new IllegalArgumentException(what + " has more after its JSON");
      }
    } catch (JsonParseException | IOException | IllegalStateException e) {
      throw new IllegalArgumentException(what + " is not JSON: " + e.getMessage(), e);
    }
    return of(value, what);
  }

  private static SlurmFields of(JsonElement value, String what) {
    if (!value.isJsonObject()) {
      throw new IllegalArgumentException(what + " is not an object");
    }
    return new SlurmFields(value.getAsJsonObject(), what);
  }

  /** The objects of the list {@code key}, each as fields. */
  List<SlurmFields> list(String key) {
    JsonElement v = field(key);
    if (!v.isJsonArray()) {
      throw bad(key, "a list");
    }
    List<SlurmFields> list = new ArrayList<>();
    for (JsonElement e : v.getAsJsonArray()) {
      list.add(of(e, what + "'s " + key));
    }
    return list;
  }

  /** The strings of the list {@code key}. */
  List<String> strings(String key) {
    JsonElement v = field(key);
    if (!v.isJsonArray()) {
      throw bad(key, "a list of strings");
    }
    List<String> strings = new ArrayList<>();
    for (JsonElement e : v.getAsJsonArray()) {
      if (!isString(e)) {
        throw bad(key, "a list of strings");
      }
      strings.add(e.getAsString());
    }
    return strings;
  }

  String string(String key) {
    JsonElement v = field(key);
    if (!isString(v)) {
      throw bad(key, "a string");
    }
    return v.getAsString();
  }

  /**
   * The whole number {@code key}; {@code orElse} when it is null (Slurm's "not set"); {@link
   * Long#MAX_VALUE} for one beyond a long (Slurm's "infinite").
   */
  long number(String key, long orElse) {
    JsonElement v = field(key);
    if (v.isJsonNull()) {
      return orElse;
    }
    if (!v.isJsonPrimitive() || !v.getAsJsonPrimitive().isNumber()) {
      throw bad(key, "a whole number");
    }
    BigDecimal n = v.getAsBigDecimal();
    try {
      return n.longValueExact();
    } catch (ArithmeticException e) {
      if (n.signum() > 0 && n.stripTrailingZeros().scale() <= 0) {
        return Long.MAX_VALUE;
      }
      throw bad(key, "a whole number");
    }
  }

  /** Whether the number {@code key} is set (not null). */
  boolean isSet(String key) {
    return !field(key).isJsonNull();
  }

  private static boolean isString(JsonElement e) {
    return e.isJsonPrimitive() && e.getAsJsonPrimitive().isString();
  }

  private JsonElement field(String key) {
    JsonElement v = object.get(key);
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
