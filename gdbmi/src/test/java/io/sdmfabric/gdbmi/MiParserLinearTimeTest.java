package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Parse time grows linearly with the line: a quadratic step (re-scanning, string concatenation,
 * copying a growing buffer per escape) would make gdb's largest answers, such as a deep {@code
 * -stack-list-frames} or a big {@code -data-read-memory}, stall the reader thread.
 *
 * <p>This is the one timing assertion the house style allows; it compares the parser's CPU time
 * against itself at two sizes, with a 3x bound where linear predicts 2x, so that it holds on a
 * loaded two-core machine.
 */
class MiParserLinearTimeTest {

  private static final String FRAME =
      "frame={level=\"%d\",addr=\"0x0000555555555164\",func=\"depth\","
          + "args=[{name=\"n\",value=\"3\"}],file=\"t.c\",fullname=\"/tmp/miparse/t.c\","
          + "line=\"4\",arch=\"i386:x86-64\"}";

  /** An escape-heavy piece of a c-string: every kind of escape plus raw text. */
  private static final String ESCAPED =
      "0x555555556015 \\\"tab\\\\there \\303\\251\\n\\t\\x41\\e\\?\\'\\a\\b\\f\\v\\r ";

  /** One {@code ^done} line with {@code units} frames and a string of {@code units} pieces. */
  private static byte[] hugeLine(int units) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(units * 300);
    out.writeBytes("7^done,stack=[".getBytes(StandardCharsets.US_ASCII));
    for (int i = 0; i < units; i++) {
      if (i > 0) {
        out.write(',');
      }
      out.writeBytes(String.format(FRAME, i).getBytes(StandardCharsets.US_ASCII));
    }
    out.writeBytes("],text=\"".getBytes(StandardCharsets.US_ASCII));
    byte[] piece = ESCAPED.getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < units; i++) {
      out.writeBytes(piece);
    }
    out.write('"');
    return out.toByteArray();
  }

  /**
   * The least CPU time of this thread over {@code runs} parses of {@code line}. CPU time, not the
   * clock's: a parse that waits for a core on a loaded machine, or a collection on the collector's
   * threads, is not the parser's cost (with the clock's time this test failed under load).
   */
  private static long minNanos(byte[] line, int runs) throws MiParseException {
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    long best = Long.MAX_VALUE;
    for (int i = 0; i < runs; i++) {
      // A collection left over from the previous run would make this one wait at a safepoint.
      System.gc();
      long start = threads.getCurrentThreadCpuTime();
      MiParser.parse(line);
      best = Math.min(best, threads.getCurrentThreadCpuTime() - start);
    }
    return best;
  }

  @Test
  void parseTimeIsLinearInLineLength() throws MiParseException {
    int units = 20_000;
    byte[] small = hugeLine(units);
    byte[] large = hugeLine(2 * units);
    assertTrue(small.length > 4_000_000, "small input is " + small.length + " bytes");

    MiResultRecord parsed = (MiResultRecord) MiParser.parse(large);
    assertEquals(2 * units, parsed.results().list("stack").size());
    String piece = ((MiStreamRecord) MiParser.parse("~\"" + ESCAPED + "\"")).text();
    assertEquals(piece.repeat(2 * units), parsed.results().string("text"));

    // Warm up so that both sizes run compiled code.
    minNanos(small, 5);
    minNanos(large, 3);

    // Interleaved, so that a burst of load on the machine hits both sizes alike.
    long smallNanos = Long.MAX_VALUE;
    long largeNanos = Long.MAX_VALUE;
    for (int round = 0; round < 4; round++) {
      smallNanos = Math.min(smallNanos, minNanos(small, 2));
      largeNanos = Math.min(largeNanos, minNanos(large, 2));
    }
    assertTrue(
        largeNanos <= 3 * smallNanos,
        "parsing "
            + large.length
            + " bytes took "
            + largeNanos / 1_000_000
            + " ms, more than 3x the "
            + smallNanos / 1_000_000
            + " ms for "
            + small.length
            + " bytes");
  }
}
