package io.sdmfabric.gdbmi;

import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.SignalAction;
import io.sdmfabric.model.StepKind;
import io.sdmfabric.model.WatchKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Records the GDB/MI transcripts of the test corpus from real gdb sessions: each session drives one
 * test program through a script of requests and writes every line exchanged with gdb to {@code
 * NAME.mi}, commands prefixed with {@value GdbOptions#COMMAND_PREFIX}.
 *
 * <p>Run it with {@code dev/record-transcripts}; it writes into {@code
 * gdbmi/src/test/resources/transcripts}. Re-record when gdb's version changes, and keep the old
 * files if they still parse: every version's output must.
 */
public final class TranscriptRecorder {
  private static final Duration STEP = Duration.ofSeconds(20);

  private interface Session {
    void run(GdbDebugger gdb, EventRecorder events) throws Exception;
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : "src/test/resources/transcripts");
    Files.createDirectories(dir);
    record(dir, "values", TranscriptRecorder::values);
    record(dir, "threads", TranscriptRecorder::threads);
    record(dir, "signals", TranscriptRecorder::signals);
    record(dir, "crash", TranscriptRecorder::crash);
    record(dir, "echo", TranscriptRecorder::echo);
    record(dir, "errors", TranscriptRecorder::errors);
  }

  private static void record(Path dir, String name, Session session) throws Exception {
    Path file = dir.resolve(name + ".mi");
    try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
      String version =
          new String(
                  new ProcessBuilder("gdb", "--version").start().getInputStream().readAllBytes(),
                  StandardCharsets.UTF_8)
              .lines()
              .findFirst()
              .orElse("gdb");
      out.println("# " + version + ", session '" + name + "', recorded by TranscriptRecorder");
      GdbOptions options =
          GdbOptions.defaults()
              .withTranscript(
                  line -> {
                    synchronized (out) {
                      out.println(line);
                    }
                  });
      EventRecorder events = new EventRecorder();
      try (GdbDebugger gdb = GdbDebugger.start(options)) {
        gdb.subscribe(events);
        session.run(gdb, events);
      }
    }
    System.out.println("recorded " + file + " (" + Files.lines(file).count() + " lines)");
  }

  private static <T> T get(CompletableFuture<T> f) throws Exception {
    return f.get(STEP.toSeconds(), TimeUnit.SECONDS);
  }

  private static void load(GdbDebugger gdb, String program, String... args) throws Exception {
    get(gdb.load(LaunchSpec.of(TestPrograms.get(program).toString(), args)));
  }

  private static void values(GdbDebugger gdb, EventRecorder events) throws Exception {
    load(gdb, "values");
    get(gdb.insertBreakpoint(BreakpointSpec.at("values.c:37")));
    get(
        gdb.insertBreakpoint(
            BreakpointSpec.at("square").withCondition("v > 100").withIgnoreCount(2).asTemporary()));
    get(gdb.run());
    events.nextStop();
    get(gdb.frames());
    for (String e :
        new String[] {
          "p",
          "l",
          "arr",
          "ptr",
          "*ptr",
          "c",
          "flag",
          "f",
          "letter",
          "big",
          "greeting",
          "&p",
          "square"
        }) {
      get(gdb.evaluate(e));
      get(gdb.typeOf(e));
    }
    get(gdb.locals());
    get(gdb.arguments());
    get(gdb.readMemory("&counter", 4));
    get(gdb.step(StepKind.INTO));
    events.nextStop();
    get(gdb.frames());
    get(gdb.selectFrame(1));
    get(gdb.stackDepth());
    get(gdb.selectFrame(0));
    get(gdb.step(StepKind.RETURN));
    events.nextStop();
    get(gdb.step(StepKind.OVER));
    events.nextStop();
    get(gdb.insertWatchpoint("counter", WatchKind.WRITE));
    get(gdb.insertWatchpoint("counter", WatchKind.READ));
    get(gdb.breakpoints());
    get(gdb.cli("info breakpoints"));
    get(gdb.resume());
    events.nextStop();
    get(gdb.deleteBreakpoint(3));
    get(gdb.deleteBreakpoint(4));
    get(gdb.resume());
    events.nextExit();
  }

  private static void threads(GdbDebugger gdb, EventRecorder events) throws Exception {
    load(gdb, "threads");
    get(gdb.insertBreakpoint(BreakpointSpec.at("threads.c:9")));
    get(gdb.run());
    events.nextStop();
    var threads = get(gdb.threads());
    get(gdb.selectThread(threads.get(threads.size() - 1).id()));
    get(gdb.frames());
    get(gdb.enableBreakpoint(1, false));
    get(gdb.resume());
    events.nextExit();
  }

  private static void signals(GdbDebugger gdb, EventRecorder events) throws Exception {
    load(gdb, "signals");
    get(gdb.signals());
    get(gdb.run());
    events.nextStop();
    get(gdb.handleSignal("SIGUSR1", EnumSet.of(SignalAction.NOSTOP, SignalAction.NOPRINT)));
    get(gdb.resume());
    events.awaitOutput("got", STEP);
    get(gdb.interrupt());
    events.nextStop();
    get(gdb.threads());
    get(gdb.kill());
    events.nextExit();
  }

  private static void crash(GdbDebugger gdb, EventRecorder events) throws Exception {
    load(gdb, "crash");
    get(gdb.run());
    events.nextStop();
    get(gdb.frames());
    get(gdb.evaluate("p"));
    get(gdb.resume());
    events.nextExit();
  }

  private static void echo(GdbDebugger gdb, EventRecorder events) throws Exception {
    load(gdb, "echo");
    get(gdb.run());
    gdb.writeInput("héllo\n".getBytes(StandardCharsets.UTF_8));
    events.awaitOutput("echo: héllo", STEP);
    gdb.writeInput(new byte[] {4});
    events.nextExit();
  }

  private static void errors(GdbDebugger gdb, EventRecorder events) throws IOException {
    for (CompletableFuture<?> f :
        new CompletableFuture<?>[] {
          gdb.load(LaunchSpec.of("/no/such/program")),
          gdb.frames(),
          gdb.evaluate("x"),
          gdb.cli("frobnicate"),
          gdb.insertBreakpoint(BreakpointSpec.at("nosuch.c:12")),
          gdb.resume()
        }) {
      f.handle((v, e) -> null).join();
    }
  }
}
