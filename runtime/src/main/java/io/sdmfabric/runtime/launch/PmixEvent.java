package io.sdmfabric.runtime.launch;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * What sdm's PMIx tool helper ({@code sdm_pmix.c}, {@link PmixTool}) says on its standard output,
 * one line each: a word, fields by spaces, free text last and percent-escaped.
 */
public sealed interface PmixEvent {
  /** The launcher is up, paused for the tool, and the helper is its client. */
  record Launcher(String nspace) implements PmixEvent {}

  /** The job is spawned, its {@code size} ranks held for the debugger. */
  record Job(String nspace, int size) implements PmixEvent {}

  /** A rank of the proc table: where it runs and its process id. */
  record Proc(int rank, String host, long pid) implements PmixEvent {}

  /** The proc table is complete: {@code count} ranks. */
  record Procs(int count) implements PmixEvent {}

  /**
   * A piece of a rank's output, as PMIx forwarded it (it may hold several lines, or part of one).
   */
  record Output(int rank, boolean stderr, String text) implements PmixEvent {}

  /** The daemons asked for are spawned, one per node of the job. */
  record Daemons(String nspace) implements PmixEvent {}

  /** A piece of a daemon's output (an agent's lines). */
  record DaemonOutput(int rank, String text) implements PmixEvent {}

  /** The held ranks are released. */
  record Released() implements PmixEvent {}

  /** The job ended; status 0 when normally. The helper ends after it. */
  record Ended(int status, String text) implements PmixEvent {}

  /** Something failed; the helper ends after it when it was the launch. */
  record Failed(String text) implements PmixEvent {}

  /**
   * The event of one line.
   *
   * @throws IllegalArgumentException when the line is none of the helper's events
   */
  static PmixEvent parse(String line) {
    String[] w = line.split(" ", -1);
    try {
      return switch (w[0]) {
        case "launcher" -> new Launcher(w[1]);
        case "job" -> new Job(w[1], Integer.parseInt(w[2]));
        case "proc" -> new Proc(Integer.parseInt(w[1]), w[2], Long.parseLong(w[3]));
        case "procs" -> new Procs(Integer.parseInt(w[1]));
        case "out" -> new Output(Integer.parseInt(w[1]), w[2].equals("stderr"), unescape(w[3]));
        case "daemons" -> new Daemons(w[1]);
        case "daemon" -> new DaemonOutput(Integer.parseInt(w[1]), unescape(w[2]));
        case "released" -> new Released();
        case "ended" -> new Ended(Integer.parseInt(w[1]), unescape(w[2]));
        case "error" -> new Failed(unescape(w[1]));
        default -> throw new IllegalArgumentException("not an event of sdm_pmix: " + line);
      };
    } catch (ArrayIndexOutOfBoundsException | NumberFormatException e) {
      throw new IllegalArgumentException("not an event of sdm_pmix: " + line, e);
    }
  }

  /** {@code %XX} for bytes below 0x21, '%' and above 0x7e, as the helper reads and writes them. */
  static String escape(String text) {
    StringBuilder b = new StringBuilder();
    for (byte c : text.getBytes(StandardCharsets.UTF_8)) {
      int u = c & 0xff;
      if (u <= 0x20 || u == '%' || u >= 0x7f) {
        b.append(String.format("%%%02X", u));
      } else {
        b.append((char) u);
      }
    }
    return b.toString();
  }

  /** The text of {@link #escape}, its bytes read as UTF-8. */
  static String unescape(String text) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '%' && isHex(text, i + 1)) {
        bytes.write(Integer.parseInt(text.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        bytes.write(c);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static boolean isHex(String text, int at) {
    return at + 2 <= text.length()
        && Character.digit(text.charAt(at), 16) >= 0
        && Character.digit(text.charAt(at + 1), 16) >= 0;
  }
}
