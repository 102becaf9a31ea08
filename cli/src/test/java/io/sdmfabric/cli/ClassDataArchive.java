package io.sdmfabric.cli;

import io.sdmfabric.gdbmi.TestPrograms;
import io.sdmfabric.runtime.JvmOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The class-data archive the tests' sdm JVMs map, as a user's do: {@code ./sdm} records one on its
 * first run and starts every later run with it, and the agents it starts get it too. The tests run
 * the jar with {@code java -jar}, so they record their own once per jar, by one embedded session
 * with real gdb under a lock that the test JVMs side by side share; when that cannot run (no gdb or
 * gcc here), they run without one.
 */
final class ClassDataArchive {
  /** JVM options that keep the JVM from printing why it does not map an archive. */
  private static final List<String> QUIET = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");

  /** What the recording session does: what every debugging session does first. */
  private static final String SESSION = "break main\nrun\nwait 30\nbacktrace\nprint rank\nquit\n";

  /** A recording smaller than this stopped early: the JVM archived little of sdm. */
  private static final long WORTH_KEEPING = 20_000_000;

  private ClassDataArchive() {}

  /**
   * The JVM options that map the archive of {@code jar}, recorded first when there is none; nothing
   * when it cannot be recorded.
   */
  static List<String> options(Path jar) {
    try (AutoCloseable lock = Sdm.exclusive("cds")) {
      Path archive = archiveOf(jar);
      if (!Files.isRegularFile(archive) && !record(jar, archive)) {
        return List.of();
      }
      List<String> options = new ArrayList<>(List.of("-XX:SharedArchiveFile=" + archive));
      options.addAll(QUIET);
      return options;
    } catch (Exception e) {
      System.err.println("[tests] sdm runs without a class-data archive: " + e.getMessage());
      return List.of();
    }
  }

  /** The archive's name says which build of the jar it is for: its time and size. */
  private static Path archiveOf(Path jar) throws IOException {
    return Path.of("target", "cds")
        .toAbsolutePath()
        .resolve(
            "sdm-" + Files.getLastModifiedTime(jar).toMillis() + "-" + Files.size(jar) + ".jsa");
  }

  /** Records {@code archive} with one embedded session; whether it is there now. */
  private static boolean record(Path jar, Path archive) throws Exception {
    if (!TestPrograms.onPath("gdb") || !TestPrograms.onPath("gcc")) {
      System.err.println("[tests] sdm runs without a class-data archive: no gdb or gcc here");
      return false;
    }
    Files.createDirectories(archive.getParent());
    Path recording = archive.resolveSibling(archive.getFileName() + ".tmp");
    List<String> cmd = new ArrayList<>(List.of(Sdm.java()));
    cmd.addAll(JvmOptions.MASTER);
    cmd.add("-XX:ArchiveClassesAtExit=" + recording);
    cmd.addAll(QUIET);
    cmd.addAll(
        List.of("-jar", jar.toString(), "debug", "-n", "2", Sdm.example("ranks", true).toString()));
    // Its output is not read: a session that hangs must not hold the tests past the bound.
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    p.getOutputStream().write(SESSION.getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      Sdm.end(p); // SIGTERM, so that it ends its gdbs, then SIGKILL
      p.waitFor();
    }
    if (p.exitValue() != 0
        || !Files.isRegularFile(recording)
        || Files.size(recording) < WORTH_KEEPING) {
      System.err.println(
          "[tests] sdm runs without a class-data archive: the recording session ended with "
              + p.exitValue());
      Files.deleteIfExists(recording);
      return false;
    }
    Files.move(recording, archive, StandardCopyOption.ATOMIC_MOVE);
    return true;
  }
}
