package io.sdmfabric.cli;

import io.sdmfabric.relay.Relay;
import io.sdmfabric.wire.HostPort;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sdm relay}: a {@link Relay} on the command line, for a login node between compute nodes
 * and a front-end. It prints {@code sdm relay: forwarding ADDR:PORT -> HOST:PORT} on standard error
 * once it listens (scripts read the port from it when they ask for port 0), a line per connection
 * unless {@code --quiet}, and runs until SIGINT or SIGTERM, which close every connection. Bad input
 * is one line on standard error and exit status 2.
 */
@Command(
    name = "relay",
    description = {
      "Forward TCP connections from compute nodes to a front-end, on a login node that both reach.",
      "Each connection gets its own connection to --to; bytes go both ways until both sides close."
    },
    mixinStandardHelpOptions = true)
final class RelayCommand implements Callable<Integer> {
  /** Where the relay listens when {@code --listen} gives only a port: every IPv4 interface. */
  static final String ALL_INTERFACES = "0.0.0.0";

  // Not `required`: picocli would answer a missing option with the whole usage; one line is
  // clearer in a batch job's log.
  @Option(
      names = "--listen",
      paramLabel = "[ADDR:]PORT",
      description = "where to listen (default address: all interfaces; port 0 picks one)")
  String listen;

  @Option(names = "--to", paramLabel = "HOST:PORT", description = "where to forward to")
  String to;

  @Option(names = "--quiet", description = "no line per connection opened and closed")
  boolean quiet;

  @Option(
      names = "--max-connections",
      paramLabel = "N",
      description = "connections at once; more are closed as they come (default: ${DEFAULT-VALUE})")
  int maxConnections = Relay.Options.defaults().maxConnections();

  @Option(
      names = "--max-per-source",
      paramLabel = "N",
      description =
          "connections at once from one address, so that one host cannot take every slot"
              + " (default: ${DEFAULT-VALUE})")
  int maxPerSource = Relay.Options.defaults().maxPerSource();

  private final PrintStream err;

  RelayCommand(PrintStream err) {
    this.err = err;
  }

  @Override
  public Integer call() throws InterruptedException {
    if (listen == null) {
      return usage("--listen [ADDR:]PORT is missing: where to listen");
    }
    if (to == null) {
      return usage("--to HOST:PORT is missing: where to forward to");
    }
    if (maxConnections < 1) {
      return usage("--max-connections must be at least 1, not " + maxConnections);
    }
    if (maxPerSource < 1) {
      return usage("--max-per-source must be at least 1, not " + maxPerSource);
    }
    HostPort where;
    HostPort target;
    try {
      where = HostPort.parse(listen, ALL_INTERFACES);
      target = HostPort.parse(to);
    } catch (IllegalArgumentException e) {
      return usage(e.getMessage());
    }
    if (target.port() == 0) {
      return usage("--to " + to + ": port 0 cannot be connected to");
    }
    InetSocketAddress address;
    try {
      address = where.resolve();
    } catch (UnknownHostException e) {
      return usage("cannot resolve the address to listen on, " + where.host());
    }
    Relay.Options options = Relay.Options.defaults().withLimits(maxConnections, maxPerSource);
    Relay relay;
    try {
      relay = Relay.start(address, target, quiet ? options.quiet() : options, this::say);
    } catch (UnknownHostException e) {
      return usage("cannot resolve " + target.host() + " (--to " + to + ")");
    } catch (IOException e) {
      return usage("cannot listen on " + where + ": " + e.getMessage());
    }
    // SIGINT and SIGTERM run the JVM's shutdown hooks: this one ends every connection and thread.
    Runtime.getRuntime().addShutdownHook(new Thread(relay::close, "sdm-relay-shutdown"));
    say("forwarding " + HostPort.of(relay.address()) + " -> " + target);
    if (relay.address().getAddress().isAnyLocalAddress()) {
      // The default: a login node's compute-facing interface is not knowable from here. What
      // crosses the relay is TLS, authenticated end to end; the relay itself bounds what strangers
      // can hold (per address, silent, idle and half-closed connections).
      say(
          "listening on every interface of this host; name one with --listen ADDR:PORT (the"
              + " address the compute nodes reach) to be reachable there only");
    }
    relay.awaitClosed();
    return 0;
  }

  private void say(String line) {
    err.println("sdm relay: " + line);
  }

  private int usage(String why) {
    say(why);
    return 2;
  }
}
