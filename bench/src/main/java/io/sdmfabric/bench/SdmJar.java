package io.sdmfabric.bench;

import io.sdmfabric.runtime.JvmOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** How the runners start sdm's jar: as {@code ./sdm} does, with the master's JVM options. */
final class SdmJar {
  private SdmJar() {}

  /** What {@code ./sdm} adds beside the archive, so that the JVM says nothing of it. */
  static final List<String> QUIET_CDS = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");

  /** The JVM options that record a class-data archive at {@code archive} as the JVM exits. */
  static List<String> recordingArchive(Path archive) {
    List<String> options = new ArrayList<>(List.of("-XX:ArchiveClassesAtExit=" + archive));
    options.addAll(QUIET_CDS);
    return options;
  }

  /** The JVM options that start with the class-data archive at {@code archive}. */
  static List<String> withArchive(Path archive) {
    List<String> options = new ArrayList<>(List.of("-XX:SharedArchiveFile=" + archive));
    options.addAll(QUIET_CDS);
    return options;
  }

  /** This JVM's java, then {@link #options()}, {@code -jar jar} and {@code args}. */
  static List<String> command(Path jar, String... args) {
    return command(jar, List.of(), args);
  }

  /**
   * This JVM's java, then {@link #options()} and {@code jvmOptions} (a class-data archive, as
   * {@code ./sdm} gives), {@code -jar jar} and {@code args}.
   */
  static List<String> command(Path jar, List<String> jvmOptions, String... args) {
    List<String> command = new ArrayList<>();
    command.add(java());
    command.addAll(options());
    command.addAll(jvmOptions);
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
