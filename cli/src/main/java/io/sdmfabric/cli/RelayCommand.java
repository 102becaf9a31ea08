package io.sdmfabric.cli;

import io.sdmfabric.frontend.Durations;
import io.sdmfabric.relay.ListenAddress;
import io.sdmfabric.relay.Relay;
import io.sdmfabric.wire.HostPort;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sdm relay}: a {@link Relay} on the command line, for a login node between compute nodes
 * and a front-end. It prints {@code sdm relay: forwarding ADDR:PORT -> HOST:PORT} on standard error
 * once it listens (scripts read the port from it when they ask for port 0), then where its address
 * came from, a line per connection opened and closed unless {@code --quiet} (at most 6 a minute per
 * address, the others counted: {@link Relay}), and runs until SIGINT or SIGTERM, which close every
 * connection. Bad input, options out of their bounds included, is one line on standard error and
 * exit status 2.
 *
 * <p>Where it listens is {@link ListenAddress}'s to say: {@code --listen ADDR:PORT} as given, a
 * port alone on the address of this host's name. Every interface ({@code 0.0.0.0:PORT}) only when
 * asked, with a warning: on a login node that is also the interface the outside world reaches.
 */
@Command(
    name = "relay",
    description = {
      "Forward TCP connections from compute nodes to a front-end, on a login node that both reach.",
      "Each connection gets its own connection to --to once it has sent its first bytes; bytes go"
          + " both ways until both sides close. Silent, idle and half-closed connections are"
          + " closed, and one address may hold only a few at once."
    },
    mixinStandardHelpOptions = true)
final class RelayCommand implements Callable<Integer> {
  private static final Relay.Options DEFAULTS = Relay.Options.defaults();

  // Not `required`: picocli would answer a missing option with the whole usage; one line is
  // clearer in a batch job's log. Numbers and durations are read here rather than by picocli for
  // the same reason.
  @Option(
      names = "--listen",
      paramLabel = "[ADDR:]PORT",
      description =
          "where to listen: an address of this host and a port (0 picks one); a port alone"
              + " listens on the address of this host's name, 0.0.0.0:PORT on every interface")
  String listen;

  @Option(names = "--to", paramLabel = "HOST:PORT", description = "where to forward to")
  String to;

  @Option(names = "--quiet", description = "no line per connection opened and closed")
  boolean quiet;

  @Option(
      names = "--max-connections",
      paramLabel = "N",
      description =
          "connections at once, at most "
              + Relay.Options.MAX_CONNECTIONS
              + "; more are closed as they come (default: ${DEFAULT-VALUE})")
  String maxConnections = String.valueOf(DEFAULTS.maxConnections());

  @Option(
      names = "--max-per-source",
      paramLabel = "N",
      description =
          "connections at once from one address, at most --max-connections, so that one host"
              + " cannot take every slot (default: ${DEFAULT-VALUE})")
  String maxPerSource = String.valueOf(DEFAULTS.maxPerSource());

  @Option(
      names = "--opening-timeout",
      paramLabel = "DURATION",
      description =
          "close a new connection that sends nothing for this long; the target is dialled only"
              + " after its first bytes (default: ${DEFAULT-VALUE})")
  String openingTimeout = option(DEFAULTS.openingTimeout());

  @Option(
      names = "--idle-timeout",
      paramLabel = "DURATION",
      description =
          "close a pair that carries no byte either way for this long (default: ${DEFAULT-VALUE},"
              + " 12 hours: a session may sit a working day while its user reads code, and the"
              + " front-end protocol sends nothing meanwhile)")
  String idleTimeout = option(DEFAULTS.idleTimeout());

  @Option(
      names = "--half-close-timeout",
      paramLabel = "DURATION",
      description =
          "close a pair this long after one side ended its stream (default: ${DEFAULT-VALUE})")
  String halfCloseTimeout = option(DEFAULTS.halfCloseTimeout());

  @Option(
      names = "--connect-timeout",
      paramLabel = "DURATION",
      description = "how long to wait for --to to accept a connection (default: ${DEFAULT-VALUE})")
  String connectTimeout = option(DEFAULTS.connectTimeout());

  private final PrintStream err;
  private final ListenAddress.LocalHost localHost;
  private final Consumer<Relay> started;

  RelayCommand(PrintStream err) {
    this(err, InetAddress::getLocalHost, relay -> {});
  }

  /**
   * @param started told of the relay once it listens and has said so (tests close it)
   */
  RelayCommand(PrintStream err, ListenAddress.LocalHost localHost, Consumer<Relay> started) {
    this.err = err;
    this.localHost = localHost;
    this.started = started;
  }

  @Override
  public Integer call() throws InterruptedException {
    if (listen == null) {
      throw usage("--listen [ADDR:]PORT is missing: where to listen");
    }
    if (to == null) {
      throw usage("--to HOST:PORT is missing: where to forward to");
    }
    Relay.Options options;
    ListenAddress where;
    HostPort target;
    try {
      options = options();
      where = ListenAddress.of(listen, localHost);
      target = HostPort.parse(to);
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
    if (target.port() == 0) {
      throw usage("--to " + to + ": port 0 cannot be connected to");
    }
    InetSocketAddress address;
    try {
      address = where.address().resolve();
    } catch (UnknownHostException e) {
      throw usage("cannot resolve the address to listen on, " + where.address().host());
    }
    Relay relay;
    try {
      relay = Relay.start(address, target, quiet ? options.quiet() : options, this::say);
    } catch (UnknownHostException e) {
      throw usage("cannot resolve " + target.host() + " (--to " + to + ")");
    } catch (IOException e) {
      throw usage("cannot listen on " + where.address() + ": " + e.getMessage());
    }
    // SIGINT and SIGTERM run the JVM's shutdown hooks: this one ends every connection and thread.
    Runtime.getRuntime().addShutdownHook(new Thread(relay::close, "sdm-relay-shutdown"));
    say("forwarding " + HostPort.of(relay.address()) + " -> " + target);
    where.notes().forEach(this::say);
    if (relay.address().getAddress().isAnyLocalAddress()) {
      int port = relay.address().getPort();
      say(
          "WARNING: listening on every interface of this host: whoever reaches port "
              + port
              + " on any of its networks, the outside world's included, reaches "
              + target
              + " through this relay. Name the address the compute nodes reach to listen there"
              + " only: --listen ADDR:"
              + port);
    }
    started.accept(relay);
    relay.awaitClosed();
    return 0;
  }

  /**
   * The relay's options from the command line.
   *
   * @throws IllegalArgumentException naming the option that is wrong and why
   */
  private Relay.Options options() {
    int max = count("--max-connections", maxConnections, Relay.Options.MAX_CONNECTIONS, "");
    int perSource =
        count("--max-per-source", maxPerSource, max, " (--max-connections is " + max + ")");
    return DEFAULTS
        .withLimits(max, perSource)
        .withTimeouts(
            timeout("--opening-timeout", openingTimeout),
            timeout("--idle-timeout", idleTimeout),
            timeout("--half-close-timeout", halfCloseTimeout))
        .withConnectTimeout(timeout("--connect-timeout", connectTimeout));
  }

  /** A whole number from 1 to {@code max}. */
  private static int count(String option, String text, int max, String why) {
    int n;
    try {
      n = Integer.parseInt(text.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " " + text + ": not a whole number");
    }
    if (n < 1 || n > max) {
      throw new IllegalArgumentException(
          option + " must be between 1 and " + max + why + ", not " + n);
    }
    return n;
  }

  /** A duration as users write them, within the relay's bounds. */
  private static Duration timeout(String option, String text) {
    Duration d;
    try {
      d = Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + ": " + e.getMessage());
    }
    if (!Relay.Options.withinTimeoutBounds(d)) {
      throw new IllegalArgumentException(
          option
              + " must be between "
              + option(Relay.Options.MIN_TIMEOUT)
              + " and "
              + option(Relay.Options.MAX_TIMEOUT)
              + " (a week), not "
              + text);
    }
    return d;
  }

  /** {@code d} as an option's value: {@code 720m}, {@code 10s}, {@code 500ms}. */
  static String option(Duration d) {
    long ms = d.toMillis();
    if (ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }

  private void say(String line) {
    err.println("sdm relay: " + line);
  }

  private static UsageError usage(String why) {
    return new UsageError("sdm relay", why);
  }
}
