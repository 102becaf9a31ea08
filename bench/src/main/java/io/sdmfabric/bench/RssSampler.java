package io.sdmfabric.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Samples the resident memory of a session every 50 ms and keeps the peaks: of everything (sdm's
 * JVM and its descendants, plus the processes a launcher started elsewhere in the process tree
 * since the session began: agents, gdbs and the program's ranks, found by their command lines) and
 * of the debugger alone (everything but the program). Processes that began before the session
 * (another user's gdbs, say) are not its own. A sample of a thousand processes takes tens of ms of
 * CPU, which a 2-core machine's launch would feel: the sampler waits at least three times as long
 * as its last sample took, so that it keeps under a quarter of one core.
 */
final class RssSampler {
  private static final String AGENT = "io.sdmfabric.runtime.agent.AgentCommand";
  private static final String GDB = "--interpreter=mi3";

  private final ProcessHandle root;
  private final String program;
  private final AtomicLong peakTotal = new AtomicLong();
  private final AtomicLong peakDebugger = new AtomicLong();
  private final Instant since = Instant.now().minusSeconds(1);
  private volatile boolean stopped;

  RssSampler(ProcessHandle root, String program) {
    this.root = root;
    this.program = program;
  }

  void start() {
    Thread t = new Thread(this::sample, "rss-sampler");
    t.setDaemon(true);
    t.start();
  }

  void stop() {
    stopped = true;
  }

  long peakTotal() {
    return peakTotal.get();
  }

  long peakDebugger() {
    return peakDebugger.get();
  }

  private void sample() {
    while (!stopped && root.isAlive()) {
      long began = System.nanoTime();
      Set<Long> seen = new HashSet<>();
      long total = 0;
      long debugger = 0;
      seen.add(root.pid());
      debugger += rss(root.pid());
      for (ProcessHandle p : (Iterable<ProcessHandle>) root.descendants()::iterator) {
        seen.add(p.pid());
        long r = rss(p.pid());
        total += r;
        if (!isProgram(p.pid())) {
          debugger += r;
        }
      }
      try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
        for (Path proc : procs) {
          long pid = Long.parseLong(proc.getFileName().toString());
          if (seen.contains(pid)) {
            continue;
          }
          String cmd = cmdline(pid);
          boolean debuggerPart = cmd.contains(AGENT) || cmd.contains(GDB);
          if ((debuggerPart || cmd.startsWith(program)) && startedSince(pid)) {
            long r = rss(pid);
            total += r;
            debugger += debuggerPart ? r : 0;
          }
        }
      } catch (IOException e) {
        // /proc is always there; a process that ended is skipped above.
      }
      total += rss(root.pid());
      peakTotal.accumulateAndGet(total, Math::max);
      peakDebugger.accumulateAndGet(debugger, Math::max);
      long tookMs = (System.nanoTime() - began) / 1_000_000;
      try {
        Thread.sleep(Math.max(50, 3 * tookMs));
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private boolean startedSince(long pid) {
    return ProcessHandle.of(pid)
        .flatMap(p -> p.info().startInstant())
        .map(t -> t.isAfter(since))
        .orElse(false);
  }

  private boolean isProgram(long pid) {
    return cmdline(pid).startsWith(program);
  }

  private static String cmdline(long pid) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).replace('\0', ' ');
    } catch (IOException e) {
      return "";
    }
  }

  private static long rss(long pid) {
    try {
      for (String l : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (l.startsWith("VmRSS:")) {
          return Long.parseLong(l.replaceAll("\\D", "")) * 1024;
        }
      }
    } catch (IOException | NumberFormatException e) {
      // Gone.
    }
    return 0;
  }
}
