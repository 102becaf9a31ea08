package io.sdmfabric.launch;

import io.sdmfabric.gdbmi.CProgram;
import io.sdmfabric.gdbmi.GdbDebugger;
import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebugEvent;
import io.sdmfabric.model.Frame;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.Value;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The single-rank demo of the GDB/MI layer: builds a bundled C program, runs it under gdb to a
 * breakpoint three times, and prints each stop with its stack and a variable, then the exit.
 */
final class GdbDemo {
  private final PrintStream out;

  GdbDemo(PrintStream out) {
    this.out = out;
  }

  int run() throws Exception {
    Path program = build();
    BlockingQueue<DebugEvent> events = new LinkedBlockingQueue<>();
    try (GdbDebugger gdb = GdbDebugger.start()) {
      gdb.subscribe(
          e -> {
            if (e instanceof DebugEvent.Output o) {
              out.print("program: " + new String(o.bytes(), StandardCharsets.UTF_8));
            } else if (!(e instanceof DebugEvent.Resumed)) {
              events.add(e);
            }
          });
      gdb.load(LaunchSpec.of(program.toString())).get(30, TimeUnit.SECONDS);
      var bp = gdb.insertBreakpoint(BreakpointSpec.at("demo.c:13")).get(30, TimeUnit.SECONDS);
      out.printf("breakpoint %d: %s%n", bp.id(), bp.location());
      gdb.run().get(30, TimeUnit.SECONDS);
      while (true) {
        DebugEvent e = events.poll(30, TimeUnit.SECONDS);
        if (e == null) {
          out.println("no event within 30 s; giving up");
          return 1;
        }
        if (e instanceof DebugEvent.Exited x) {
          out.println(x.signalled() ? "exited by " + x.signal() : "exited with code " + x.code());
          return 0;
        }
        DebugEvent.Stopped stop = (DebugEvent.Stopped) e;
        out.printf("stopped: %s in %s%n", stop.reason(), stop.frame().describe());
        String stack =
            gdb.frames().get(30, TimeUnit.SECONDS).stream()
                .map(Frame::describe)
                .collect(Collectors.joining(" <- "));
        out.println("  stack: " + stack);
        Value v = gdb.evaluate("*s").get(30, TimeUnit.SECONDS);
        out.printf("  *s = %s  (%s, %s, %d bytes)%n", v.text(), v.type(), v.kind(), v.size());
        gdb.resume().get(30, TimeUnit.SECONDS);
      }
    }
  }

  private static Path build() throws IOException {
    Path dir = Files.createTempDirectory("sdm-demo");
    Path binary = CProgram.build("/demo/demo.c", dir, "demo", true);
    for (Path p : new Path[] {dir, dir.resolve("demo.c"), binary}) {
      p.toFile().deleteOnExit();
    }
    return binary;
  }
}
