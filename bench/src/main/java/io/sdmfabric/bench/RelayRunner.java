package io.sdmfabric.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code sdm relay} costs a connection, on loopback: the same measurements over a direct
 * connection and through the relay, side by side in one run, in raw bytes ({@code direct}, {@code
 * relay}) and in the front-end protocol as sdm runs it, TLS and frames ({@code tls-direct}, {@code
 * tls-relay}, see {@link ProtectedStreams}). The server (a sink and an echo) and the clients run in
 * this JVM; the relay is the fat jar in its own JVM ({@code java -jar cli/target/sdm.jar relay
 * --quiet}, default JVM settings), as on a login node. One line per measurement:
 *
 * <pre>
 * path=direct|relay|tls-direct|tls-relay round=I connections=C mb=M seconds=.. mb_s=.. relay_cpu_s_per_gb=..
 * path=direct|relay|tls-direct|tls-relay round=I pings=N rtt_p50_us=.. rtt_p99_us=..
 * </pre>
 *
 * and a table at the end with the range over the rounds. Throughput: C connections at once send M
 * MB (10^6 bytes) in all, in 64 KiB writes, from the first write until the server has read every
 * byte of every connection (it answers one byte after the end of each). Round trip: 64 bytes there
 * and back on one connection, one at a time, after as many unmeasured ones; TCP_NODELAY on both
 * ends. relay_cpu = the relay JVM's CPU time during the transfer, per GB. The rounds alternate
 * which path goes first, so that all see the same moments of a noisy machine. The relay is warmed
 * up (its JIT) before the first round; its peak RSS (VmHWM) is printed at the end.
 *
 * <p>Run with {@code bench/run relay [--connections 1,8] [--mb 1000] [--pings 20000] [--rounds 3]}.
 */
public final class RelayRunner {
  private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
  private static final int CHUNK = 64 * 1024;
  private static final int PING = 64;
  private static final byte SINK = 'T';
  private static final byte ECHO = 'P';
  private static final Pattern FORWARDING = Pattern.compile("sdm relay: forwarding \\S+:(\\d+) .*");

  private RelayRunner() {}

  public static void main(String[] args) throws Exception {
    List<Integer> connections = List.of(1, 8);
    long mb = 1000;
    int pings = 20_000;
    int rounds = 3;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--connections" ->
            connections = Arrays.stream(args[++i].split(",")).map(Integer::parseInt).toList();
        case "--mb" -> mb = Long.parseLong(args[++i]);
        case "--pings" -> pings = Integer.parseInt(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    Path jar = Path.of("cli/target/sdm.jar").toAbsolutePath();
    ExecutorService pool = Executors.newCachedThreadPool();
    byte[] chunk = new byte[CHUNK];
    new SplittableRandom(1).nextBytes(chunk);
    try (ServerSocket server = new ServerSocket(0, 128, LOOPBACK);
        ServerSocket protectedServer = new ServerSocket(0, 128, LOOPBACK)) {
      pool.submit(() -> serve(server, pool));
      pool.submit(() -> ProtectedStreams.serve(protectedServer, pool));
      InetSocketAddress direct = new InetSocketAddress(LOOPBACK, server.getLocalPort());
      Process relay = startRelay(jar, server.getLocalPort());
      Process protectedRelay = startRelay(jar, protectedServer.getLocalPort());
      try {
        InetSocketAddress relayed = new InetSocketAddress(LOOPBACK, port(relay));
        Map<String, InetSocketAddress> paths = new LinkedHashMap<>();
        paths.put("direct", direct);
        paths.put("relay", relayed);
        // The front-end protocol as sdm runs it: TLS and frames, direct and through a relay.
        paths.put("tls-direct", new InetSocketAddress(LOOPBACK, protectedServer.getLocalPort()));
        paths.put("tls-relay", new InetSocketAddress(LOOPBACK, port(protectedRelay)));
        // JIT warm-up of both ends and of the relays' JVMs, unmeasured.
        for (String path : paths.keySet()) {
          throughput(path, paths.get(path), 8, 400, chunk, pool);
          pings(path, paths.get(path), 5_000);
        }
        Results results = new Results();
        for (int round = 1; round <= rounds; round++) {
          List<String> order = new ArrayList<>(paths.keySet());
          Collections.rotate(order, -(round - 1));
          for (String path : order) {
            Process through = path.startsWith("tls") ? protectedRelay : relay;
            for (int c : connections) {
              long cpu = cpuNanos(through);
              double seconds = throughput(path, paths.get(path), c, mb, chunk, pool);
              double cpuPerGb = (cpuNanos(through) - cpu) / 1e9 / (mb / 1000.0);
              double rate = mb / seconds;
              results.add(path, c + " conn MB/s", rate);
              System.out.printf(
                  Locale.ROOT,
                  "path=%s round=%d connections=%d mb=%d seconds=%.3f mb_s=%.0f"
                      + " relay_cpu_s_per_gb=%.2f%n",
                  path,
                  round,
                  c,
                  mb,
                  seconds,
                  rate,
                  path.endsWith("relay") ? cpuPerGb : 0.0);
              if (path.endsWith("relay")) {
                results.add(path, "relay CPU s/GB " + c + " conn", cpuPerGb);
              }
            }
            double[] us = pings(path, paths.get(path), pings);
            double p50 = RunnerOptions.percentile(us, 50);
            double p99 = RunnerOptions.percentile(us, 99);
            results.add(path, "rtt p50 us", p50);
            results.add(path, "rtt p99 us", p99);
            System.out.printf(
                Locale.ROOT,
                "path=%s round=%d pings=%d rtt_p50_us=%.1f rtt_p99_us=%.1f%n",
                path,
                round,
                pings,
                p50,
                p99);
          }
        }
        System.out.printf(Locale.ROOT, "relay JVM peak RSS %d MB%n", peakRssKb(relay) / 1024);
        results.print(connections);
      } finally {
        for (Process p : List.of(relay, protectedRelay)) {
          p.destroy();
          if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** {@code sdm relay} to the server, on a port of its choosing. */
  private static Process startRelay(Path jar, int serverPort) throws IOException {
    return new ProcessBuilder(
            SdmJar.command(
                jar,
                "relay",
                "--quiet",
                "--listen",
                "127.0.0.1:0",
                "--to",
                "127.0.0.1:" + serverPort))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  /** The port from the relay's first line on standard error; the rest goes on being read. */
  private static int port(Process relay) throws IOException {
    BufferedReader err =
        new BufferedReader(new InputStreamReader(relay.getErrorStream(), StandardCharsets.UTF_8));
    String line = err.readLine();
    Matcher m = FORWARDING.matcher(line == null ? "" : line);
    if (!m.matches()) {
      throw new IllegalStateException("the relay did not start: " + line);
    }
    Thread drain =
        new Thread(
            () -> {
              try {
                for (String l = err.readLine(); l != null; l = err.readLine()) {
                  System.err.println("[relay] " + l);
                }
              } catch (IOException e) {
                // The relay has ended.
              }
            },
            "relay-stderr");
    drain.setDaemon(true);
    drain.start();
    return Integer.parseInt(m.group(1));
  }

  /**
   * The server: the first byte of a connection says what it is. A sink reads to the end and answers
   * one byte; an echo sends back every {@link #PING} bytes.
   */
  private static Void serve(ServerSocket server, ExecutorService pool) throws IOException {
    while (true) {
      Socket s = server.accept();
      s.setTcpNoDelay(true);
      pool.submit(
          () -> {
            try (s) {
              InputStream in = s.getInputStream();
              OutputStream out = s.getOutputStream();
              int mode = in.read();
              if (mode == SINK) {
                byte[] buffer = new byte[CHUNK];
                while (in.read(buffer) >= 0) {
                  // Only the end matters.
                }
                out.write(1);
              } else if (mode == ECHO) {
                byte[] ping = new byte[PING];
                while (in.readNBytes(ping, 0, PING) == PING) {
                  out.write(ping);
                }
              }
            }
            return null;
          });
    }
  }

  /** {@link #throughput} over raw TCP, or in the front-end protocol for the {@code tls-} paths. */
  private static double throughput(
      String path,
      InetSocketAddress to,
      int connections,
      long mb,
      byte[] chunk,
      ExecutorService pool)
      throws Exception {
    return path.startsWith("tls")
        ? ProtectedStreams.throughput(to, connections, mb, chunk, pool)
        : throughput(to, connections, mb, pool);
  }

  /** {@link #pings} over raw TCP, or in the front-end protocol for the {@code tls-} paths. */
  private static double[] pings(String path, InetSocketAddress to, int count) throws IOException {
    return path.startsWith("tls") ? ProtectedStreams.pings(to, count) : pings(to, count);
  }

  /** Seconds for {@code connections} connections at once to send {@code mb} MB in all. */
  private static double throughput(
      InetSocketAddress to, int connections, long mb, ExecutorService pool) throws Exception {
    long each = mb * 1_000_000 / connections;
    byte[] data = new byte[CHUNK];
    new SplittableRandom(1).nextBytes(data);
    List<Socket> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < connections; i++) {
        Socket s = new Socket();
        sockets.add(s);
        s.connect(to, 10_000);
        s.setSoTimeout(120_000);
        s.getOutputStream().write(SINK);
      }
      List<Callable<Void>> senders = new ArrayList<>();
      for (Socket s : sockets) {
        senders.add(
            () -> {
              OutputStream out = s.getOutputStream();
              for (long left = each; left > 0; left -= CHUNK) {
                out.write(data, 0, (int) Math.min(left, CHUNK));
              }
              s.shutdownOutput();
              if (s.getInputStream().read() != 1) {
                throw new IOException("the server did not confirm the end");
              }
              return null;
            });
      }
      return secondsForAll(senders, pool);
    } finally {
      for (Socket s : sockets) {
        s.close();
      }
    }
  }

  /** Round trips of {@link #PING} bytes in microseconds, sorted, after as many unmeasured. */
  private static double[] pings(InetSocketAddress to, int count) throws IOException {
    try (Socket s = new Socket()) {
      s.setTcpNoDelay(true);
      s.connect(to, 10_000);
      s.setSoTimeout(60_000);
      OutputStream out = s.getOutputStream();
      InputStream in = s.getInputStream();
      out.write(ECHO);
      byte[] ping = new byte[PING];
      return roundTrips(
          count,
          () -> {
            out.write(ping);
            if (in.readNBytes(ping, 0, PING) != PING) {
              throw new IOException("the echo ended");
            }
          });
    }
  }

  /** One round trip, there and back. */
  interface RoundTrip {
    void once() throws IOException;
  }

  /** {@code count} round trips' times in microseconds, sorted, after as many unmeasured. */
  static double[] roundTrips(int count, RoundTrip trip) throws IOException {
    double[] us = new double[count];
    for (int i = -count; i < count; i++) {
      long t = System.nanoTime();
      trip.once();
      if (i >= 0) {
        us[i] = (System.nanoTime() - t) / 1e3;
      }
    }
    Arrays.sort(us);
    return us;
  }

  /** Seconds from starting {@code tasks} at once on {@code pool} until the last has ended. */
  static double secondsForAll(List<Callable<Void>> tasks, ExecutorService pool) throws Exception {
    long start = System.nanoTime();
    List<Future<Void>> running = new ArrayList<>();
    for (Callable<Void> t : tasks) {
      running.add(pool.submit(t));
    }
    for (Future<Void> f : running) {
      f.get(5, TimeUnit.MINUTES);
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private static long cpuNanos(Process p) {
    return p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
  }

  /** The process's peak resident memory (VmHWM) in KB. */
  private static long peakRssKb(Process p) throws IOException {
    try (InputStream in =
        Files.newInputStream(Path.of("/proc", Long.toString(p.pid()), "status"))) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("\\D", ""));
        }
      }
    }
    return 0;
  }

  /** Every value of every round, by path and measure, for the table at the end. */
  private static final class Results {
    private final Map<String, Map<String, List<Double>>> values = new LinkedHashMap<>();

    void add(String path, String measure, double value) {
      values
          .computeIfAbsent(path, p -> new LinkedHashMap<>())
          .computeIfAbsent(measure, m -> new ArrayList<>())
          .add(value);
    }

    /** One row per path: the range (min-max) of each measure over the rounds. */
    void print(List<Integer> connections) {
      List<String> measures = new ArrayList<>();
      for (int c : connections) {
        measures.add(c + " conn MB/s");
      }
      measures.add("rtt p50 us");
      measures.add("rtt p99 us");
      System.out.println();
      System.out.println("| path | " + String.join(" | ", measures) + " |");
      System.out.println("|---" + "|---".repeat(measures.size()) + "|");
      for (Map.Entry<String, Map<String, List<Double>>> e : values.entrySet()) {
        StringBuilder row = new StringBuilder("| " + e.getKey() + " |");
        for (String m : measures) {
          row.append(' ').append(range(e.getValue().get(m))).append(" |");
        }
        System.out.println(row);
      }
      for (String path : List.of("relay", "tls-relay")) {
        Map<String, List<Double>> relay = values.get(path);
        if (relay != null) {
          for (int c : connections) {
            String m = "relay CPU s/GB " + c + " conn";
            System.out.println(path + ": " + m + ": " + range(relay.get(m)));
          }
        }
      }
    }

    private static String range(List<Double> v) {
      if (v == null || v.isEmpty()) {
        return "-";
      }
      double min = v.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
      double max = v.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
      String f = max >= 100 ? "%.0f" : "%.1f";
      return String.format(Locale.ROOT, f, min) + "-" + String.format(Locale.ROOT, f, max);
    }
  }
}
