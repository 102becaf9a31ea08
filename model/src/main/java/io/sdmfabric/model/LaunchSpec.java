package io.sdmfabric.model;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What to start under a debugger: the program, its arguments, the environment variables to add to
 * (or override in) the debugger's own, and the working directory.
 *
 * @param program path of the executable, as the user gave it
 * @param args the program's arguments, passed verbatim (no shell word splitting)
 * @param environment variables set for the program on top of the inherited environment
 * @param workingDirectory the program's working directory
 */
public record LaunchSpec(
    String program, List<String> args, Map<String, String> environment, Path workingDirectory) {

  public LaunchSpec {
    Objects.requireNonNull(program, "program");
    if (program.isBlank()) {
      throw new IllegalArgumentException("program must not be blank");
    }
    args = List.copyOf(args);
    environment = Map.copyOf(environment);
    Objects.requireNonNull(workingDirectory, "workingDirectory");
  }

  /** A program with arguments, the inherited environment and the current working directory. */
  public static LaunchSpec of(String program, String... args) {
    return new LaunchSpec(program, List.of(args), Map.of(), Path.of("").toAbsolutePath());
  }

  /** This spec with one more environment variable. */
  public LaunchSpec withEnv(String name, String value) {
    var env = new java.util.HashMap<>(environment);
    env.put(name, value);
    return new LaunchSpec(program, args, env, workingDirectory);
  }

  /** This spec with another working directory. */
  public LaunchSpec withWorkingDirectory(Path directory) {
    return new LaunchSpec(program, args, environment, directory);
  }
}
