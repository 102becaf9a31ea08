package io.sdmfabric.frontend.dap;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The attributes of a launch or attach configuration, read from a request's arguments as the DAP
 * library hands them over (JSON values, or plain Java ones); a wrong one is an {@link
 * IllegalArgumentException} that names it.
 */
final class Attributes {
  private Attributes() {}

  private static JsonElement json(Object value) {
    return value instanceof JsonElement e ? e : new com.google.gson.Gson().toJsonTree(value);
  }

  static String text(Object value, String name) {
    JsonElement e = json(value);
    if (!e.isJsonPrimitive()) {
      throw new IllegalArgumentException("\"" + name + "\" must be a string, not " + e);
    }
    return e.getAsString();
  }

  static int number(Object value, String name) {
    JsonElement e = json(value);
    try {
      return e.getAsJsonPrimitive().getAsNumber().intValue();
    } catch (RuntimeException x) {
      throw new IllegalArgumentException("\"" + name + "\" must be a number, not " + e);
    }
  }

  static boolean flag(Object value, String name) {
    JsonElement e = json(value);
    if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isBoolean()) {
      throw new IllegalArgumentException("\"" + name + "\" must be true or false, not " + e);
    }
    return e.getAsBoolean();
  }

  static List<String> texts(Object value, String name) {
    if (value == null) {
      return List.of();
    }
    JsonElement e = json(value);
    if (!e.isJsonArray()) {
      throw new IllegalArgumentException("\"" + name + "\" must be a list of strings, not " + e);
    }
    List<String> texts = new ArrayList<>();
    for (JsonElement item : (JsonArray) e) {
      texts.add(text(item, name));
    }
    return texts;
  }

  static Map<String, String> environment(Object value) {
    if (value == null) {
      return Map.of();
    }
    JsonElement e = json(value);
    if (!e.isJsonObject()) {
      throw new IllegalArgumentException("\"env\" must map names to strings, not " + e);
    }
    Map<String, String> env = new LinkedHashMap<>();
    for (Map.Entry<String, JsonElement> entry : ((JsonObject) e).entrySet()) {
      env.put(entry.getKey(), text(entry.getValue(), "env." + entry.getKey()));
    }
    return env;
  }
}
