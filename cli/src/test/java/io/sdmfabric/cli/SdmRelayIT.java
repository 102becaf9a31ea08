package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sdmfabric.relay.BytePattern;
import io.sdmfabric.relay.RelayPeer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code sdm relay} (the fat jar) on a "login node" between a "compute node" and a "front-end":
 * three network namespaces made by {@code dev/lib/netns.sh}, where compute reaches only login and
 * login does not forward. The front-end's server and the compute node's clients are {@link
 * RelayPeer} processes; one test runs a whole reverse-connect session instead ({@code sdm connect
 * --via} with an MPI job under mpirun in compute, {@code sdm listen} in the front-end). Skipped,
 * with the reason netns.sh gives, when namespaces cannot be made (not root, no iproute2, no
 * permission in a container); the session's test also needs gdb and a working mpirun. Every process
 * a test starts is ended after it, and none may be left in the namespaces; the namespaces are
 * deleted at the end.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@Tag("gdb")
@Tag("mpi")
@Tag("namespaces")
class SdmRelayIT {
  private static final Path NETNS =
      Path.of("..", "dev", "lib", "netns.sh").toAbsolutePath().normalize();
  private static final Duration BOUND = Duration.ofSeconds(90);
  private static final int FRONTEND_PORT = 7001;
  private static final Pattern FORWARDING =
      Pattern.compile("sdm relay: forwarding (\\S+):(\\d+) -> (\\S+):(\\d+)");

  /** What netns_up exported: the namespaces' names and addresses. */
  private static final Map<String, String> net = new HashMap<>();

  /** Why the namespaces could not be made, or null when they are up. */
  private static String unavailable;

  private final List<InNamespace> started = new ArrayList<>();

  @BeforeAll
  static void namespaces() throws Exception {
    Run up = bash(Map.of(), "source \"$1\" && netns_up && netns_env");
    // Kept before the assumption: whatever was made is deleted in @AfterAll.
    for (String line : up.out().lines().toList()) {
      if (line.startsWith("export ")) {
        String[] kv = line.substring("export ".length()).split("=", 2);
        net.put(kv[0], kv[1]);
      }
    }
    if (up.exit() != 0) {
      unavailable = "network namespaces cannot be made here: " + up.err().strip();
    }
  }

  // Per test rather than in @BeforeAll: an assumption there leaves no skipped test in the report,
  // and dev/test lists the skipped tests with their reasons from the report.
  @BeforeEach
  void needsNamespaces() {
    assumeTrue(unavailable == null, unavailable);
  }

  @AfterAll
  static void deleteNamespaces() throws Exception {
    if (!net.isEmpty()) {
      Run down = bash(net, "source \"$1\" && netns_down");
      net.clear();
      assertEquals(0, down.exit(), down.err());
    }
  }

  @AfterEach
  void endEveryProcess() throws Exception {
    if (unavailable != null) {
      return;
    }
    Collections.reverse(started);
    for (InNamespace p : started) {
      p.end();
    }
    for (String ns : List.of(compute(), login(), frontEnd())) {
      Run pids = run(List.of("ip", "netns", "pids", ns), Map.of());
      assertEquals("", pids.out().strip(), "processes left in " + ns);
    }
  }

  @Test
  void computeReachesTheFrontEndThroughTheRelayOnLoginWithEveryByteIntactBothWays()
      throws Exception {
    int connections = 4;
    long size = 8L * 1024 * 1024;
    InNamespace server = frontEndServer();
    InNamespace relay = relay();
    InNamespace client =
        start(
            compute(),
            peer("send", address("LOGIN_C"), relayPort(relay), connections, size),
            "client");
    assertEquals(0, client.exitCode(), client.toString());
    for (long seed = 1; seed <= connections; seed++) {
      String digest = BytePattern.digest(seed, size);
      String both = "connection " + seed + " sent " + size + " " + digest;
      client.await(
          (both + " received " + size + " " + digest)::equals,
          "connection " + seed + ": what came back is what the client sent");
      server.await(
          ("connection " + seed + " received " + size + " " + digest)::equals,
          "connection " + seed + ": what the front-end got is what the client sent");
    }
    String closed = "closed: " + size + " bytes to the target, " + size + " back";
    for (int i = 0; i < connections; i++) {
      relay.await(l -> l.endsWith(closed), "the relay's line \"" + closed + "\"");
    }
  }

  @Test
  void computeCannotReachTheFrontEndDirectlyWhileLoginCan() throws Exception {
    frontEndServer();
    // The server is there, and login reaches it...
    InNamespace fromLogin =
        start(login(), peer("send", address("FRONTEND"), FRONTEND_PORT, 1, 1024), "login client");
    assertEquals(0, fromLogin.exitCode(), fromLogin.toString());
    // ...but compute does not: its packets reach login and stop there.
    InNamespace fromCompute =
        start(
            compute(), peer("send", address("FRONTEND"), FRONTEND_PORT, 1, 1024), "compute client");
    assertEquals(3, fromCompute.exitCode(), fromCompute.toString());
    fromCompute.await(
        l -> l.startsWith("cannot connect to " + address("FRONTEND") + ":" + FRONTEND_PORT),
        "the direct connection failing");
  }

  @Test
  void sigtermEndsTheRelayAndClosesTheConnectionsThroughIt() throws Exception {
    frontEndServer();
    InNamespace relay = relay();
    InNamespace holder =
        start(compute(), peer("hold", address("LOGIN_C"), relayPort(relay)), "holder");
    holder.await("connected"::equals, "a connection through the relay");
    relay.await(l -> l.contains(" open "), "the relay's line for the open connection");
    relay.process.destroy(); // SIGTERM: ip netns exec became the JVM itself
    assertEquals(143, relay.exitCode(), relay.toString());
    assertEquals(0, holder.exitCode(), holder.toString());
    holder.await("ended"::equals, "the connection ending with the relay");
  }

  /**
   * Issue #6 end to end: an MPI job on the compute node asks for a front-end with {@code sdm
   * connect --via LOGIN:PORT}; {@code sdm listen} on the front-end accepts it; the job's master
   * dials the relay, the only way out of compute, and the session runs through it.
   */
  @Test
  void aJobOnComputeReverseConnectsThroughTheRelayToSdmListenOnTheFrontEnd() throws Exception {
    assumeTrue(Sdm.works("gdb", "--version"), "gdb is not installed");
    assumeTrue(
        Sdm.works("mpicc", "--version"), "mpicc is not installed (OpenMPI's libopenmpi-dev)");
    assumeTrue(
        Sdm.works("mpirun", "-n", "1", "true"),
        "mpirun -n 1 true fails (as root it needs OMPI_ALLOW_RUN_AS_ROOT=1"
            + " OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; dev/test sets them)");
    // Where sdm connect and sdm listen meet: the hosts share it as they share a home directory.
    Path home = Files.createTempDirectory("sdm-home");
    try {
      Map<String, String> env =
          Map.of(
              "SDM_HOME",
              home.toString(),
              "OMPI_ALLOW_RUN_AS_ROOT",
              "1",
              "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM",
              "1",
              "OMPI_MCA_rmaps_base_oversubscribe",
              "1");
      InNamespace relay = relay();
      String via = address("LOGIN_C") + ":" + relayPort(relay);
      InNamespace job =
          start(
              compute(),
              Sdm.command(
                  "connect",
                  "--via",
                  via,
                  "--timeout",
                  "3m",
                  "mpirun",
                  "-n",
                  "2",
                  Sdm.mpiExample("mpi_reduce").toString()),
              "sdm connect",
              env,
              "");
      InNamespace listen =
          start(
              frontEnd(),
              Sdm.command(
                  "listen", "--batch", "--listen", address("FRONTEND") + ":" + FRONTEND_PORT),
              "sdm listen",
              env,
              "requests wait 90\naccept\nbreak combine\nrun\nwait 90\nprint mine\nquit\n");
      assertEquals(0, listen.exitCode(), listen.toString());
      listen.await("[0] mine = 1"::equals, "rank 0's value");
      listen.await("[1] mine = 2"::equals, "rank 1's value");
      assertEquals(0, job.exitCode(), job.toString());
      job.await(
          ("sdm connect: accepted; connected to the front-end at " + via)::equals,
          "the master connecting through the relay");
      // The master ends its TLS connection first; the front-end's last bytes (its own close) may
      // then find the master's socket gone, which the relay says as the client's broken pipe.
      relay.await(
          l ->
              l.matches(
                  "sdm relay: #1 closed: \\d+ bytes to the target, \\d+ back"
                      + "( \\(client: (Broken pipe|Connection reset)\\))?"),
          "the relay's line for the session's connection, closed");
    } finally {
      try (var files = Files.walk(home)) {
        for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  // ---------------------------------------------------------------------------------- helpers

  private static String compute() {
    return net.get("SDM_NETNS_COMPUTE_NS");
  }

  private static String login() {
    return net.get("SDM_NETNS_LOGIN_NS");
  }

  private static String frontEnd() {
    return net.get("SDM_NETNS_FRONTEND_NS");
  }

  /** An address netns_up exported: COMPUTE, LOGIN_C, LOGIN_F or FRONTEND. */
  private static String address(String which) {
    return net.get("SDM_NETNS_" + which);
  }

  private InNamespace frontEndServer() throws IOException, InterruptedException {
    InNamespace server =
        start(frontEnd(), peer("serve", address("FRONTEND"), FRONTEND_PORT), "front-end");
    server.await(l -> l.startsWith("listening "), "the front-end's server listening");
    return server;
  }

  /**
   * {@code sdm relay} in login, listening on the compute side, port 0, forwarding to the server.
   */
  private InNamespace relay() throws IOException {
    return start(
        login(),
        Sdm.command(
            "relay",
            "--listen",
            address("LOGIN_C") + ":0",
            "--to",
            address("FRONTEND") + ":" + FRONTEND_PORT),
        "relay");
  }

  /** The port the relay picked, from its first line. */
  private static int relayPort(InNamespace relay) throws InterruptedException {
    String line = relay.await(l -> FORWARDING.matcher(l).matches(), "the relay's first line");
    Matcher m = FORWARDING.matcher(line);
    assertTrue(m.matches());
    assertEquals(address("LOGIN_C"), m.group(1), line);
    assertEquals(address("FRONTEND") + ":" + FRONTEND_PORT, m.group(3) + ":" + m.group(4), line);
    return Integer.parseInt(m.group(2));
  }

  private static List<String> peer(String mode, Object... args) {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Sdm.java(),
                "-cp",
                System.getProperty("java.class.path"),
                RelayPeer.class.getName(),
                mode));
    for (Object a : args) {
      cmd.add(a.toString());
    }
    return cmd;
  }

  private InNamespace start(String ns, List<String> command, String name) throws IOException {
    return start(ns, command, name, Map.of(), "");
  }

  private InNamespace start(
      String ns, List<String> command, String name, Map<String, String> env, String input)
      throws IOException {
    InNamespace p = new InNamespace(ns, command, name, env, input);
    started.add(p);
    return p;
  }

  /**
   * A process started with {@code ip netns exec NS}, which execs it: the process is the command
   * itself. Its standard output and error are read as they come, a line at a time, into one list.
   */
  private static final class InNamespace {
    private final String name;
    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final List<Thread> drains = new ArrayList<>();

    /** Starts it with more environment variables and {@code input} on its standard input. */
    InNamespace(String ns, List<String> command, String name, Map<String, String> env, String input)
        throws IOException {
      this.name = name;
      List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns));
      cmd.addAll(command);
      ProcessBuilder builder = new ProcessBuilder(cmd);
      builder.environment().putAll(env);
      process = builder.start();
      drain(process.getInputStream());
      drain(process.getErrorStream());
      try (OutputStream in = process.getOutputStream()) {
        in.write(input.getBytes(StandardCharsets.UTF_8));
      }
    }

    private void drain(InputStream in) {
      Thread t =
          new Thread(
              () -> {
                try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                  for (String l = r.readLine(); l != null; l = r.readLine()) {
                    lines.add(l);
                  }
                } catch (IOException e) {
                  lines.add("(reading its output failed: " + e + ")");
                }
              },
              "drain-" + name);
      t.setDaemon(true);
      t.start();
      drains.add(t);
    }

    /** The first line that matches, waiting at most {@link #BOUND} for it. */
    String await(Predicate<String> matching, String what) throws InterruptedException {
      long deadline = System.nanoTime() + BOUND.toNanos();
      while (System.nanoTime() < deadline) {
        for (String l : lines) {
          if (matching.test(l)) {
            return l;
          }
        }
        if (!process.isAlive()) {
          // It has ended: once both pipes are read to their end, its output is all there.
          for (Thread d : drains) {
            d.join(BOUND.toMillis());
          }
          return lines.stream()
              .filter(matching)
              .findFirst()
              .orElseThrow(() -> new AssertionError("no " + what + ": " + this));
        }
        TimeUnit.MILLISECONDS.sleep(20);
      }
      throw new AssertionError("no " + what + " within " + BOUND + ": " + this);
    }

    /** Waits at most {@link #BOUND} for it to end. */
    int exitCode() throws InterruptedException {
      if (!process.waitFor(BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError(name + " did not end within " + BOUND + ": " + this);
      }
      return process.exitValue();
    }

    /** Ends it: SIGTERM, then SIGKILL after 10 s. */
    void end() throws InterruptedException {
      if (process.isAlive()) {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          process.waitFor(10, TimeUnit.SECONDS);
        }
      }
    }

    @Override
    public String toString() {
      return name
          + (process.isAlive() ? " (running)" : " (exit " + process.exitValue() + ")")
          + ", its output:\n  "
          + String.join("\n  ", lines);
    }
  }

  private record Run(int exit, String out, String err) {}

  /** Runs {@code script} in bash with netns.sh as $1 and {@code env} added, at most a minute. */
  private static Run bash(Map<String, String> env, String script) throws Exception {
    return run(List.of("bash", "-c", script, "bash", NETNS.toString()), env);
  }

  private static Run run(List<String> command, Map<String, String> env) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(env);
    Process p = builder.start();
    try {
      // Both outputs are small (a few lines): reading one after the other cannot fill a pipe.
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(1, TimeUnit.MINUTES)) {
        throw new AssertionError(command + " did not end within a minute");
      }
      return new Run(p.exitValue(), out, err);
    } finally {
      p.destroyForcibly();
    }
  }
}
