package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sdmfabric.relay.ListenAddress;
import io.sdmfabric.relay.Relay;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * {@code sdm relay} on bad input (one line on standard error and exit status 2), and what it says
 * of where it listens: a port alone on the address of this host's name (refused when that is
 * loopback or nothing: {@code ListenAddressTest} in relay), every interface only when asked and
 * with a warning. A test that starts a relay closes it as soon as it has said where it listens.
 */
class RelayCommandTest {
  private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "--listen 70000 --to 127.0.0.1:9 | not [HOST:]PORT: 70000 (port 70000 is not between",
        "--listen x --to 127.0.0.1:9 | not [HOST:]PORT: x",
        "--listen 127.0.0.1:0 | --to HOST:PORT is missing",
        "--to 127.0.0.1:9 | --listen [ADDR:]PORT is missing",
        "--listen 127.0.0.1:0 --to 127.0.0.1 | not HOST:PORT: 127.0.0.1",
        "--listen 127.0.0.1:0 --to 127.0.0.1:0 | port 0 cannot be connected to",
        "--listen 127.0.0.1:0 --to 127.0.0.1:99999 | port 99999 is not between 0 and 65535",
        "--listen 127.0.0.1:0 --to nohost.invalid:80 | cannot resolve nohost.invalid",
        "--listen nohost.invalid:0 --to 127.0.0.1:9 | cannot resolve the address to listen on,"
            + " nohost.invalid",
      })
  void badInputIsOneLineAndExitStatusTwo(String args, String message) {
    assertOneLineError(message, args.split(" "));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "--max-connections x | --max-connections x: not a whole number",
        "--max-connections 0 | --max-connections must be between 1 and 4096, not 0",
        "--max-connections 4097 | --max-connections must be between 1 and 4096, not 4097",
        "--max-connections 99999999999 | --max-connections 99999999999: not a whole number",
        "--max-per-source 0 | --max-per-source must be between 1 and 256 (--max-connections is"
            + " 256), not 0",
        "--max-connections 8 --max-per-source 9 | --max-per-source must be between 1 and 8"
            + " (--max-connections is 8), not 9",
        "--opening-timeout 0 | --opening-timeout must be between 1ms and 10080m (a week), not 0",
        "--idle-timeout 12h | --idle-timeout: bad duration \"12h\": use e.g. 500ms, 3s, 2m",
        "--idle-timeout 10081m | --idle-timeout must be between 1ms and 10080m (a week), not"
            + " 10081m",
        "--half-close-timeout 0.5ms | --half-close-timeout must be between 1ms and 10080m",
        "--connect-timeout -1s | --connect-timeout: bad duration \"-1s\"",
      })
  void limitsOutOfTheirBoundsAreOneLineNamingTheOption(String args, String message) {
    List<String> all = new ArrayList<>(List.of("--listen", "127.0.0.1:0", "--to", "127.0.0.1:9"));
    all.addAll(List.of(args.split(" ")));
    assertOneLineError(message, all.toArray(String[]::new));
  }

  @Test
  void anAddressInUseIsOneLineAndExitStatusTwo() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, LOOPBACK)) {
      assertOneLineError(
          "Address already in use",
          "--listen",
          "127.0.0.1:" + taken.getLocalPort(),
          "--to",
          "127.0.0.1:9");
    }
  }

  @Test
  void aPortAloneListensOnTheAddressOfThisHostsNameAndSaysWhere() throws Exception {
    Optional<InetAddress> own = nonLoopbackAddress();
    assumeTrue(own.isPresent(), "this host has no IPv4 address but loopback");
    InetAddress named = InetAddress.getByAddress("login1", own.get().getAddress());
    List<Relay> started = new ArrayList<>();
    Run run = relay(() -> named, started, "--listen", "0", "--to", "127.0.0.1:9");
    assertEquals(0, run.status(), run.err());
    assertEquals(1, started.size());
    assertEquals(own.get(), started.get(0).address().getAddress());
    List<String> lines = run.err().lines().toList();
    assertEquals(2, lines.size(), run.err());
    int port = started.get(0).address().getPort();
    assertEquals(
        "sdm relay: forwarding " + own.get().getHostAddress() + ":" + port + " -> 127.0.0.1:9",
        lines.get(0));
    assertTrue(
        lines.get(1).startsWith("sdm relay: listening on the address of this host's name, login1"),
        lines.get(1));
  }

  @Test
  void everyInterfaceOnlyWhenAskedAndWithAWarning() {
    List<Relay> started = new ArrayList<>();
    Run run =
        relay(
            () -> {
              throw new AssertionError("an address was given: nothing to look up");
            },
            started,
            "--listen",
            "0.0.0.0:0",
            "--to",
            "127.0.0.1:9");
    assertEquals(0, run.status(), run.err());
    assertTrue(started.get(0).address().getAddress().isAnyLocalAddress());
    int port = started.get(0).address().getPort();
    assertEquals(
        List.of(
            "sdm relay: forwarding 0.0.0.0:" + port + " -> 127.0.0.1:9",
            "sdm relay: WARNING: listening on every interface of this host: whoever reaches port "
                + port
                + " on any of its networks, the outside world's included, reaches 127.0.0.1:9"
                + " through this relay. Name the address the compute nodes reach to listen there"
                + " only: --listen ADDR:"
                + port),
        run.err().lines().toList());
  }

  @Test
  void anAddressGivenIsUsedAsItIsWithoutANote() {
    List<Relay> started = new ArrayList<>();
    Run run =
        relay(
            () -> {
              throw new AssertionError("an address was given: nothing to look up");
            },
            started,
            "--listen",
            "127.0.0.1:0",
            "--to",
            "127.0.0.1:9",
            "--max-connections",
            "8",
            "--max-per-source",
            "2",
            "--idle-timeout",
            "720m");
    assertEquals(0, run.status(), run.err());
    int port = started.get(0).address().getPort();
    assertEquals(
        List.of("sdm relay: forwarding 127.0.0.1:" + port + " -> 127.0.0.1:9"),
        run.err().lines().toList());
  }

  @Test
  void theDefaultsShownInTheHelpAreTheRelaysOwn() {
    Relay.Options defaults = Relay.Options.defaults();
    RelayCommand command = new RelayCommand(System.err);
    assertEquals("256", command.maxConnections);
    assertEquals("16", command.maxPerSource);
    assertEquals("10s", command.openingTimeout);
    assertEquals("720m", command.idleTimeout);
    assertEquals("1m", command.halfCloseTimeout);
    assertEquals(defaults.idleTimeout(), io.sdmfabric.frontend.Durations.parse("720m"));
    assertEquals(defaults.openingTimeout(), io.sdmfabric.frontend.Durations.parse("10s"));
    assertEquals(defaults.halfCloseTimeout(), io.sdmfabric.frontend.Durations.parse("1m"));
  }

  // ---------------------------------------------------------------------------------- helpers

  /** What a run of the command printed on standard error, and its exit status. */
  private record Run(int status, String err) {
    void assertOneLineError(String message) {
      assertEquals(2, status, err);
      assertEquals(1, err.lines().count(), "one line, not\n" + err);
      assertTrue(err.startsWith("sdm relay: "), err);
      assertTrue(err.contains(message), "\"" + message + "\" missing in " + err);
    }
  }

  /** Runs {@code sdm relay ARGS} with this host's name resolving as {@code localHost} says. */
  private static Run relay(ListenAddress.LocalHost localHost, String... args) {
    return relay(localHost, new ArrayList<>(), args);
  }

  /** The same, closing each relay it starts at once, after it has said where it listens. */
  private static Run relay(ListenAddress.LocalHost localHost, List<Relay> started, String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    RelayCommand command =
        new RelayCommand(
            new PrintStream(err, true, StandardCharsets.UTF_8),
            localHost,
            relay -> {
              started.add(relay);
              relay.close();
            });
    int status = new CommandLine(command).execute(args);
    return new Run(status, err.toString(StandardCharsets.UTF_8));
  }

  private static void assertOneLineError(String message, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> all = new ArrayList<>(List.of("relay"));
    all.addAll(List.of(args));
    int status =
        Main.execute(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            all.toArray(String[]::new));
    new Run(status, err.toString(StandardCharsets.UTF_8)).assertOneLineError(message);
    assertEquals("", out.toString(StandardCharsets.UTF_8));
  }

  /** An IPv4 address of this host's that is not loopback, if it has one. */
  private static Optional<InetAddress> nonLoopbackAddress() throws SocketException {
    return NetworkInterface.networkInterfaces()
        .filter(RelayCommandTest::isUp)
        .flatMap(NetworkInterface::inetAddresses)
        .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress())
        .findFirst();
  }

  private static boolean isUp(NetworkInterface n) {
    try {
      return n.isUp();
    } catch (SocketException e) {
      return false;
    }
  }
}
