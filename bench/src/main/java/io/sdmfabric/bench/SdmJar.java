package io.sdmfabric.bench;

import io.sdmfabric.runtime.JvmOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** How the runners start sdm's jar: as {@code ./sdm} does, with the master's JVM options. */
final class SdmJar {
  private SdmJar() {}

  /** This JVM's java, then {@link #options()}, {@code -jar jar} and {@code args}. */
  static List<String> command(Path jar, String... args) {
    List<String> command = new ArrayList<>();
    command.add(java());
    command.addAll(options());
    command.add("-jar");
    command.add(jar.toString());
    command.addAll(List.of(args));
    return command;
  }

  /** The master's JVM options ({@link JvmOptions#MASTER}). */
  static List<String> options() {
    return JvmOptions.MASTER;
  }

  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
