package io.sdmfabric.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Samples the resident memory of a session every 50 ms and keeps the peaks: of everything (sdm's
 * JVM and its descendants, plus the processes a launcher started elsewhere in the process tree:
 * agents, gdbs and the program's ranks, found by their command lines) and of the debugger alone
 * (everything but the program).
 */
final class RssSampler {
  private static final String AGENT = "io.sdmfabric.runtime.agent.AgentCommand";
  private static final String GDB = "--interpreter=mi3";

  private final ProcessHandle root;
  private final String program;
  private final AtomicLong peakTotal = new AtomicLong();
  private final AtomicLong peakDebugger = new AtomicLong();
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
          if (cmd.contains(AGENT) || cmd.contains(GDB)) {
            debugger += rss(pid);
            total += rss(pid);
          } else if (cmd.startsWith(program)) {
            total += rss(pid);
          }
        }
      } catch (IOException e) {
        // /proc is always there; a process that ended is skipped above.
      }
      total += rss(root.pid());
      peakTotal.accumulateAndGet(total, Math::max);
      peakDebugger.accumulateAndGet(debugger, Math::max);
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        return;
      }
    }
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
