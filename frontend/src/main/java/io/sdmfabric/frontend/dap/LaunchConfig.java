package io.sdmfabric.frontend.dap;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a DAP {@code launch} request asks for, read from its arguments (the attributes of an {@code
 * sdm} launch configuration): the program and its arguments, working directory and environment, the
 * number of ranks, the launcher ({@code none}: every rank on this machine; {@code mpirun} or {@code
 * srun}) with its own arguments, and whether to stop at {@code main}.
 */
public record LaunchConfig(
    String program,
    List<String> args,
    String cwd,
    Map<String, String> env,
    int ranks,
    String launcher,
    List<String> launcherArgs,
    boolean stopOnEntry,
    int threadPerRankUpTo) {

  /** Up to how many ranks each is a thread of its own, unless the configuration says. */
  static final int THREAD_PER_RANK_UP_TO = 2;

  /** The launchers a configuration may name. */
  static final List<String> LAUNCHERS = List.of("none", "mpirun", "srun");

  public LaunchConfig {
    Objects.requireNonNull(program, "program");
    args = List.copyOf(args);
    env = Map.copyOf(env);
    launcherArgs = List.copyOf(launcherArgs);
  }

  /**
   * Reads a launch request's arguments, as the DAP library hands them over (JSON values, or plain
   * Java ones).
   *
   * @throws IllegalArgumentException saying which attribute is missing or wrong
   */
  static LaunchConfig from(Map<String, Object> arguments) {
    Object program = arguments.get("program");
    if (program == null || text(program, "program").isBlank()) {
      throw new IllegalArgumentException("the launch configuration names no \"program\"");
    }
    String launcher =
        arguments.containsKey("launcher") ? text(arguments.get("launcher"), "launcher") : "none";
    if (!LAUNCHERS.contains(launcher)) {
      throw new IllegalArgumentException(
          "\"launcher\" is " + launcher + ": use one of " + String.join(", ", LAUNCHERS));
    }
    int ranks = arguments.containsKey("ranks") ? number(arguments.get("ranks"), "ranks") : 4;
    if (ranks < 1) {
      throw new IllegalArgumentException("\"ranks\" needs at least one rank, not " + ranks);
    }
    return new LaunchConfig(
        text(program, "program"),
        texts(arguments.get("args"), "args"),
        arguments.containsKey("cwd") ? text(arguments.get("cwd"), "cwd") : "",
        environment(arguments.get("env")),
        ranks,
        launcher,
        texts(arguments.get("launcherArgs"), "launcherArgs"),
        arguments.containsKey("stopOnEntry") && flag(arguments.get("stopOnEntry"), "stopOnEntry"),
        arguments.containsKey("threadPerRankUpTo")
            ? number(arguments.get("threadPerRankUpTo"), "threadPerRankUpTo")
            : THREAD_PER_RANK_UP_TO);
  }

  private static JsonElement json(Object value) {
    return value instanceof JsonElement e ? e : new com.google.gson.Gson().toJsonTree(value);
  }

  private static String text(Object value, String name) {
    JsonElement e = json(value);
    if (!e.isJsonPrimitive()) {
      throw new IllegalArgumentException("\"" + name + "\" must be a string, not " + e);
    }
    return e.getAsString();
  }

  private static int number(Object value, String name) {
    JsonElement e = json(value);
    try {
      return e.getAsJsonPrimitive().getAsNumber().intValue();
    } catch (RuntimeException x) {
      throw new IllegalArgumentException("\"" + name + "\" must be a number, not " + e);
    }
  }

  private static boolean flag(Object value, String name) {
    JsonElement e = json(value);
    if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isBoolean()) {
      throw new IllegalArgumentException("\"" + name + "\" must be true or false, not " + e);
    }
    return e.getAsBoolean();
  }

  private static List<String> texts(Object value, String name) {
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

  private static Map<String, String> environment(Object value) {
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
