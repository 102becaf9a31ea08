package io.sdmfabric.runtime;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One run of sdm's log file of library lines (Pekko's, Aeron's): {@code logs/} in sdm's home, made
 * with the first line and not before, so that a run in which no library said anything leaves no
 * file. The directory is checked as sdm's home is ({@link PrivateDirectory}: the user's, 0700, not
 * a link); the file is made there exclusively (never opened through a link or over a file that is
 * there already) with mode 0600. When it is made, its path is told once; when it cannot be, why is
 * told once and {@link #write} answers false from then on, so that the caller shows the lines
 * itself.
 */
final class LogFile {
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  private final Path home;
  private final String name;
  private final Consumer<String> tell;
  private OutputStream out;
  private boolean failed;

  /**
   * @param home sdm's home, in whose {@code logs/} the file goes
   * @param name the file's name
   * @param tell where the one line about the file goes (the console)
   */
  LogFile(Path home, String name, Consumer<String> tell) {
    this.home = home;
    this.name = name;
    this.tell = tell;
  }

  /**
   * This run's file name: when it started and which process, for the reader, and a random part,
   * since the home can be shared by hosts whose processes have the same numbers.
   */
  static String nameForThisRun() {
    byte[] random = new byte[3];
    new SecureRandom().nextBytes(random);
    return "sdm-"
        + LocalDateTime.now().format(STAMP)
        + "-"
        + ProcessHandle.current().pid()
        + "-"
        + HexFormat.of().formatHex(random)
        + ".log";
  }

  /** Where the file is, or is to be. */
  Path path() {
    return home.resolve("logs").resolve(name);
  }

  /**
   * Appends {@code text} (whole lines), making the file first if this is the first text.
   *
   * @return false when the file cannot be made or written: the text went nowhere
   */
  synchronized boolean write(String text) {
    if (failed) {
      return false;
    }
    try {
      if (out == null) {
        out = open();
        tell.accept(
            "sdm: library logs of this run (Pekko, Aeron) are in "
                + path()
                + " (--verbose shows them here)");
      }
      out.write(text.getBytes(StandardCharsets.UTF_8));
      out.flush();
      return true;
    } catch (IOException e) {
      failed = true;
      tell.accept("sdm: library logs go to the console: " + e.getMessage());
      return false;
    }
  }

  private OutputStream open() throws IOException {
    Path dir = PrivateDirectory.ensure(PrivateDirectory.ensure(home).resolve("logs"));
    return Channels.newOutputStream(
        Files.newByteChannel(
            dir.resolve(name),
            Set.of(
                StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE,
                StandardOpenOption.APPEND,
                LinkOption.NOFOLLOW_LINKS),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))));
  }
}
