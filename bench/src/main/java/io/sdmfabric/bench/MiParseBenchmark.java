package io.sdmfabric.bench;

import io.sdmfabric.gdbmi.MiParseException;
import io.sdmfabric.gdbmi.MiParser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Throughput of {@link MiParser} on a realistic gdb transcript, in MB/s.
 *
 * <p>The transcript, about 1 MB, is generated once per trial from line templates recorded from gdb
 * 13 ({@code -i=mi3}) with varying numbers: {@code *stopped} records with frames, {@code
 * -stack-list-frames} answers, {@code -break-list} tables, {@code =breakpoint-modified} and thread
 * notifications, console stream lines with escapes, {@code -var-create} answers with octal-escaped
 * UTF-8, {@code ^running} and prompts. A fixed seed makes every run parse the same bytes.
 *
 * <p>One operation parses the whole transcript. Two ways to read MB/s from the report:
 *
 * <ul>
 *   <li>the secondary result {@code megabytes} (an {@link AuxCounters} counter, reported as a rate
 *       per second) is MB/s directly, with MB = 10^6 bytes;
 *   <li>or MB/s = (primary score in ops/s) &times; transcript bytes / 10^6, where the transcript
 *       size is printed at setup ("transcript: N bytes in L lines").
 * </ul>
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar MiParse -f 1 -wi 2 -i 3}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class MiParseBenchmark {

  /** The transcript grows until it reaches this many bytes. */
  static final int TARGET_BYTES = 1_000_000;

  private byte[][] lines;
  private double transcriptMegabytes;

  /** Counts megabytes parsed; JMH reports the count per second, i.e. MB/s. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Throughput {
    /** Megabytes (10^6 bytes) parsed in the current iteration. */
    public double megabytes;

    /** Starts each iteration from zero so that the rate is per iteration. */
    @Setup(Level.Iteration)
    public void reset() {
      megabytes = 0;
    }
  }

  /** Builds the transcript from templates. */
  @Setup(Level.Trial)
  public void generate() throws MiParseException {
    Random random = new Random(42);
    List<byte[]> out = new ArrayList<>();
    long bytes = 0;
    while (bytes < TARGET_BYTES) {
      for (String line : batch(random)) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        // Fail at setup, not in the measured loop, if a template is not valid MI.
        MiParser.parse(b);
        out.add(b);
        bytes += b.length + 1;
      }
    }
    lines = out.toArray(new byte[0][]);
    transcriptMegabytes = bytes / 1e6;
    System.out.println("transcript: " + bytes + " bytes in " + lines.length + " lines");
  }

  /** Parses every line of the transcript once. */
  @Benchmark
  public void parseTranscript(Throughput counter, Blackhole blackhole) throws MiParseException {
    for (byte[] line : lines) {
      blackhole.consume(MiParser.parse(line));
    }
    counter.megabytes += transcriptMegabytes;
  }

  /** One stop-and-inspect cycle, the shape of output a debugger front end sees most. */
  private static List<String> batch(Random random) {
    List<String> batch = new ArrayList<>();
    int token = random.nextInt(100_000);
    int thread = 1 + random.nextInt(64);
    int line = 1 + random.nextInt(2_000);
    int depth = 3 + random.nextInt(18);
    batch.add(token + "^running");
    batch.add("*running,thread-id=\"all\"");
    batch.add("(gdb) ");
    batch.add(
        "=breakpoint-modified,bkpt={number=\"1\",type=\"breakpoint\",disp=\"keep\","
            + "enabled=\"y\",addr=\"0x0000555555555164\",func=\"depth\",file=\"t.c\","
            + "fullname=\"/home/user/src/solver/t.c\",line=\""
            + line
            + "\",thread-groups=[\"i1\"],times=\""
            + random.nextInt(1_000)
            + "\",original-location=\"depth\"}");
    batch.add("~\"\\n\"");
    batch.add(
        "~\"Thread "
            + thread
            + " \\\"solver\\\" hit Breakpoint 1, depth (n="
            + random.nextInt(100)
            + ") at t.c:"
            + line
            + "\\n\"");
    batch.add(
        "~\""
            + line
            + "\\tstatic int depth(int n) { if (n == 0) { return 42; } return depth(n - 1) + 1;"
            + " }\\n\"");
    batch.add(
        "*stopped,reason=\"breakpoint-hit\",disp=\"keep\",bkptno=\"1\",frame={"
            + frameFields(random, 0, line)
            + "},thread-id=\""
            + thread
            + "\",stopped-threads=\"all\",core=\""
            + random.nextInt(2)
            + "\"");
    batch.add("(gdb) ");
    StringBuilder stack = new StringBuilder().append(token + 1).append("^done,stack=[");
    for (int level = 0; level < depth; level++) {
      if (level > 0) {
        stack.append(',');
      }
      stack.append("frame={").append(frameFields(random, level, line + level)).append('}');
    }
    batch.add(stack.append(']').toString());
    batch.add("(gdb) ");
    batch.add(
        (token + 2)
            + "^done,name=\"var"
            + random.nextInt(500)
            + "\",numchild=\"1\",value=\"0x555555556015 \\\"tab\\\\there \\\\\\\"q\\\\\\\""
            + " \\303\\251\\\\n\\\"\",type=\"const char *\",thread-id=\""
            + thread
            + "\",has_more=\"0\"");
    batch.add("(gdb) ");
    if (random.nextInt(4) == 0) {
      batch.add(breakpointTable(random, token + 3));
      batch.add("(gdb) ");
    }
    if (random.nextInt(4) == 0) {
      batch.add("=thread-created,id=\"" + (thread + 1) + "\",group-id=\"i1\"");
      batch.add(
          "~\"[New Thread 0x7ffff7dd16c0 (LWP " + (3_000 + random.nextInt(30_000)) + ")]\\n\"");
    }
    return batch;
  }

  private static String frameFields(Random random, int level, int line) {
    return "level=\""
        + level
        + "\",addr=\"0x0000"
        + Long.toHexString(0x555555555000L + random.nextInt(0xfff))
        + "\",func=\"depth\",args=[{name=\"n\",value=\""
        + random.nextInt(100)
        + "\"}],file=\"t.c\",fullname=\"/home/user/src/solver/t.c\",line=\""
        + line
        + "\",arch=\"i386:x86-64\"";
  }

  private static String breakpointTable(Random random, int token) {
    int rows = 1 + random.nextInt(6);
    StringBuilder sb =
        new StringBuilder()
            .append(token)
            .append("^done,BreakpointTable={nr_rows=\"")
            .append(rows)
            .append(
                "\",nr_cols=\"6\",hdr=[{width=\"7\",alignment=\"-1\",col_name=\"number\","
                    + "colhdr=\"Num\"},{width=\"14\",alignment=\"-1\",col_name=\"type\","
                    + "colhdr=\"Type\"},{width=\"4\",alignment=\"-1\",col_name=\"disp\","
                    + "colhdr=\"Disp\"},{width=\"3\",alignment=\"-1\",col_name=\"enabled\","
                    + "colhdr=\"Enb\"},{width=\"18\",alignment=\"-1\",col_name=\"addr\","
                    + "colhdr=\"Address\"},{width=\"40\",alignment=\"2\",col_name=\"what\","
                    + "colhdr=\"What\"}],body=[");
    for (int i = 1; i <= rows; i++) {
      if (i > 1) {
        sb.append(',');
      }
      sb.append("bkpt={number=\"")
          .append(i)
          .append("\",type=\"breakpoint\",disp=\"keep\",enabled=\"y\",addr=\"0x0000555555555")
          .append(Integer.toHexString(0x100 + random.nextInt(0xeff)))
          .append("\",func=\"main\",file=\"t.c\",fullname=\"/home/user/src/solver/t.c\",line=\"")
          .append(1 + random.nextInt(2_000))
          .append("\",thread-groups=[\"i1\"],times=\"")
          .append(random.nextInt(50))
          .append("\",original-location=\"t.c:")
          .append(i)
          .append("\"}");
    }
    return sb.append("]}").toString();
  }
}
