package io.sdmfabric.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code sdm ARGS} driven line by line, as a user at its console: a test types a command, waits for
 * what it prints, does something to the job meanwhile (cuts a node's link, kills a process), and
 * types the next. Closing it ends sdm and everything it started.
 */
final class SdmConsole implements AutoCloseable {
  private final Process process;
  private final OutputStream in;
  private final StringBuffer out = new StringBuffer();
  private final StringBuffer err = new StringBuffer();

  private SdmConsole(Process process) {
    this.process = process;
    this.in = process.getOutputStream();
    pump(process.getInputStream(), out);
    pump(process.getErrorStream(), err);
  }

  /** Starts {@code sdm ARGS} with {@code env} added to this environment. */
  static SdmConsole start(Map<String, String> env, List<String> args) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(Sdm.command(args.toArray(String[]::new)));
    builder.environment().putAll(env);
    return new SdmConsole(builder.start());
  }

  private static void pump(InputStream from, StringBuffer to) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[8192];
              try {
                for (int n; (n = from.read(buf)) > 0; ) {
                  to.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                }
              } catch (IOException e) {
                // sdm ended.
              }
            },
            "sdm-console-reader");
    t.setDaemon(true);
    t.start();
  }

  /** Types {@code line} at the console. */
  void type(String line) throws IOException {
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /**
   * Waits until the output has {@code text} after position {@code from} (a length of {@link #out()}
   * taken before); returns the output's length past it.
   *
   * @throws AssertionError with everything printed when it does not come within {@code limit}
   */
  int await(String text, int from, Duration limit) throws InterruptedException {
    long end = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < end) {
      int at = out.indexOf(text, from);
      if (at >= 0) {
        return at + text.length();
      }
      if (!process.isAlive()) {
        break;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no \"" + text + "\" within " + limit + " in\n" + this);
  }

  /** Everything sdm printed on its standard output so far. */
  String out() {
    return out.toString();
  }

  /**
   * Ends the console (end of input) and waits for sdm to exit.
   *
   * @return its exit status
   * @throws AssertionError when it does not end within {@code limit}
   */
  int finish(Duration limit) throws IOException, InterruptedException {
    in.close();
    if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("sdm did not end within " + limit + " of its input's end\n" + this);
    }
    return process.exitValue();
  }

  /**
   * Ends sdm as an interrupted user would (SIGTERM: sdm ends its session, its agents and their
   * ranks), and kills what is left after 30 s.
   */
  @Override
  public void close() throws InterruptedException {
    Sdm.end(process);
  }

  @Override
  public String toString() {
    return "--- stdout\n" + out + "--- stderr\n" + err;
  }
}
