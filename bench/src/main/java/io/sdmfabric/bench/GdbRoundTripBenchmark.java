package io.sdmfabric.bench;

import io.sdmfabric.gdbmi.CProgram;
import io.sdmfabric.gdbmi.GdbDebugger;
import io.sdmfabric.gdbmi.GdbDriver;
import io.sdmfabric.gdbmi.MiReply;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.LaunchSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The round trip of one MI command through {@link GdbDriver} against a real gdb whose program is
 * stopped 12 frames deep: from {@code send} to the completed future, including gdb's own work.
 * Sample mode reports percentiles (p50, p99). Run with {@code java -jar bench/target/benchmarks.jar
 * GdbRoundTrip}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class GdbRoundTripBenchmark {
  private GdbDebugger gdb;
  private GdbDriver driver;

  @Setup(Level.Trial)
  public void startStopped() throws Exception {
    Path dir = Files.createTempDirectory("sdm-bench");
    Path program = CProgram.build("/bench/deep.c", dir, "deep", true);
    gdb = GdbDebugger.start();
    CompletableFuture<DebugEvent> stopped = new CompletableFuture<>();
    gdb.subscribe(
        e -> {
          if (e instanceof DebugEvent.Stopped) {
            stopped.complete(e);
          }
        });
    gdb.load(LaunchSpec.of(program.toString())).get(30, TimeUnit.SECONDS);
    gdb.insertBreakpoint(BreakpointSpec.at("leaf")).get(30, TimeUnit.SECONDS);
    gdb.run().get(30, TimeUnit.SECONDS);
    stopped.get(30, TimeUnit.SECONDS);
    driver = gdb.driver();
  }

  @TearDown(Level.Trial)
  public void close() {
    gdb.close();
  }

  /** {@code -stack-list-frames} of 12 frames. */
  @Benchmark
  public MiReply stackListFrames() throws Exception {
    return driver.send("-stack-list-frames").get();
  }

  /** {@code -data-evaluate-expression} of a local. */
  @Benchmark
  public MiReply dataEvaluateExpression() throws Exception {
    return driver.send("-data-evaluate-expression local").get();
  }

  /** {@code frames()} of the Debugger SPI: the MI round trip plus conversion to model frames. */
  @Benchmark
  public Object debuggerFrames() throws Exception {
    return gdb.frames().get();
  }
}
