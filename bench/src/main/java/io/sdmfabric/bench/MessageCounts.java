package io.sdmfabric.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The totals that the session's JVMs write to the directory of {@code $SDM_MESSAGE_COUNTS} ({@code
 * runtime.MessageCounter}: one file per JVM, {@code messages bytes}): the session's messages that
 * crossed a node boundary, and their bytes, added over the JVMs.
 *
 * @param jvms how many JVMs have written counts
 */
record MessageCounts(long messages, long bytes, int jvms) {
  /** The directory the JVMs write to, or null when counting is off. */
  static Path directory() {
    String dir = System.getenv("SDM_MESSAGE_COUNTS");
    return dir == null ? null : Path.of(dir);
  }

  /** The totals in {@code dir} now. */
  static MessageCounts read(Path dir) throws IOException {
    long messages = 0;
    long bytes = 0;
    int jvms = 0;
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(f -> !f.getFileName().toString().endsWith(".partial")).toList();
    }
    for (Path f : files) {
      String[] fields;
      try {
        fields = Files.readString(f).strip().split(" ");
      } catch (java.nio.file.NoSuchFileException e) {
        continue; // replaced between the listing and the read: read on the next call
      }
      messages += Long.parseLong(fields[0]);
      bytes += Long.parseLong(fields[1]);
      jvms++;
    }
    return new MessageCounts(messages, bytes, jvms);
  }

  /**
   * The totals once they stop changing: the same in two reads 400 ms apart (the JVMs write theirs
   * every 100 ms).
   */
  static MessageCounts settled(Path dir) throws IOException, InterruptedException {
    MessageCounts last = read(dir);
    while (true) {
      Thread.sleep(400);
      MessageCounts now = read(dir);
      if (now.equals(last)) {
        return now;
      }
      last = now;
    }
  }

  /** What was counted since {@code before}. */
  MessageCounts minus(MessageCounts before) {
    return new MessageCounts(messages - before.messages, bytes - before.bytes, jvms);
  }
}
