package io.sdmfabric.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code sdm debug --json} in a subprocess, driven through its standard input as a tool drives it:
 * console lines written, its JSON events read back a line at a time by a thread of their own (see
 * docs/PROTOCOL.md for the events). Closing it ends the process if it is still there: SIGTERM, then
 * SIGKILL after 30 s.
 */
final class JsonConsole implements AutoCloseable {
  /** How long sdm may stay silent while a line is awaited. */
  private static final long SILENCE_SECONDS = 120;

  private final Process process;
  private final OutputStream in;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

  private JsonConsole(Process process) {
    this.process = process;
    this.in = process.getOutputStream();
    Thread reader = new Thread(this::read, "sdm-json-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts {@code command} (java, -jar, sdm.jar, debug, --json, ...), its standard error dropped.
   */
  static JsonConsole start(List<String> command) throws IOException {
    return start(command, Map.of());
  }

  /** {@link #start(List)} with {@code env} added to this process's environment. */
  static JsonConsole start(List<String> command, Map<String, String> env) throws IOException {
    ProcessBuilder b = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
    b.environment().putAll(env);
    return new JsonConsole(b.start());
  }

  /** The sdm process. */
  Process process() {
    return process;
  }

  /** Writes {@code text} (one or more lines, each ending in a newline) to sdm's input. */
  void send(String text) throws IOException {
    in.write(text.getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /** The next line of output, waiting for it. */
  String next() throws InterruptedException {
    String l = lines.poll(SILENCE_SECONDS, TimeUnit.SECONDS);
    if (l == null) {
      throw new IllegalStateException("no output from sdm for " + SILENCE_SECONDS + " s");
    }
    return l;
  }

  /** The lines up to the {@code complete} event of the command typed as {@code word}, not it. */
  List<String> untilComplete(String word) throws InterruptedException {
    String done = completion(word);
    List<String> before = new ArrayList<>();
    for (String l = next(); !l.equals(done); l = next()) {
      before.add(l);
    }
    return before;
  }

  /** The event that ends the replies of the command typed as {@code word}. */
  static String completion(String word) {
    return "{\"event\":\"complete\",\"ranks\":\"\",\"command\":\"" + word + "\"}";
  }

  /** Whether {@code line} is a stop event (of the ranks it names). */
  static boolean isStop(String line) {
    return line.startsWith("{\"event\":\"stopped\"");
  }

  /** Whether {@code line} is an error event. */
  static boolean isError(String line) {
    return line.startsWith("{\"event\":\"error\"");
  }

  /** The number of ranks in an event line's "ranks" field ("0-3,7" is 5). */
  static int count(String line) {
    int i = line.indexOf("\"ranks\":\"") + 9;
    String set = line.substring(i, line.indexOf('"', i));
    int total = 0;
    for (String item : set.split(",")) {
      String[] ends = item.split("-");
      total += ends.length == 1 ? 1 : Integer.parseInt(ends[1]) - Integer.parseInt(ends[0]) + 1;
    }
    return total;
  }

  private void read() {
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String l = r.readLine(); l != null; l = r.readLine()) {
        lines.add(l);
      }
    } catch (IOException e) {
      // The process ended.
    }
  }

  @Override
  public void close() {
    // SIGTERM first, as a user would: sdm then ends its job (a launcher, its ranks, a PMIx helper),
    // which a SIGKILL would leave running.
    process.destroy();
    try {
      if (process.waitFor(30, TimeUnit.SECONDS)) {
        return;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process.destroyForcibly();
  }
}
