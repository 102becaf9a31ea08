package io.sdmfabric.launch;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * A host (a name or an address literal) and a TCP port, as written on a command line: {@code
 * HOST:PORT}, or {@code [ADDR]:PORT} for an IPv6 literal. Parsing never resolves a name; {@link
 * #resolve} does, each time it is called, so that a long-running relay follows changes in DNS.
 *
 * @param host a host name or an address literal (IPv6 without brackets), never blank
 * @param port 0 to 65535; 0 only where a listening socket may pick its port
 */
public record HostPort(String host, int port) {
  public HostPort {
    if (host.isBlank()) {
      throw new IllegalArgumentException("no host");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is not between 0 and 65535");
    }
  }

  /**
   * Parses {@code HOST:PORT} for a connection's target: the port must be 1 to 65535.
   *
   * @throws IllegalArgumentException with a message fit for the user when the text is not one
   */
  public static HostPort parse(String text) {
    int colon = portColon(text);
    if (colon < 0) {
      throw new IllegalArgumentException("'" + text + "' is not HOST:PORT");
    }
    HostPort parsed = new HostPort(hostPart(text, colon), port(text, text.substring(colon + 1)));
    if (parsed.port == 0) {
      throw new IllegalArgumentException("'" + text + "': port 0 cannot be connected to");
    }
    return parsed;
  }

  /**
   * Parses {@code [ADDR:]PORT} for a listening socket: without an address, {@code defaultHost};
   * port 0 lets the system pick one.
   *
   * @throws IllegalArgumentException with a message fit for the user when the text is not one
   */
  public static HostPort parseListen(String text, String defaultHost) {
    int colon = portColon(text);
    if (colon < 0) {
      if (text.contains(":")) {
        throw new IllegalArgumentException(
            "'" + text + "': write an IPv6 address in brackets, [ADDR]:PORT");
      }
      return new HostPort(defaultHost, port(text, text));
    }
    return new HostPort(hostPart(text, colon), port(text, text.substring(colon + 1)));
  }

  /** The host and port of a socket address, with the address literal as host. */
  public static HostPort of(InetSocketAddress address) {
    InetAddress a = address.getAddress();
    return new HostPort(
        a == null ? address.getHostString() : a.getHostAddress(), address.getPort());
  }

  /**
   * The socket address, resolving the host now.
   *
   * @throws UnknownHostException when the host has no address
   */
  public InetSocketAddress resolve() throws UnknownHostException {
    return new InetSocketAddress(InetAddress.getByName(host), port);
  }

  /** {@code HOST:PORT}, with an IPv6 literal in brackets, as {@link #parse} reads it. */
  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }

  /** Where the port starts (the colon before it), or -1 when the text has no host part. */
  private static int portColon(String text) {
    if (text.startsWith("[")) {
      int close = text.indexOf(']');
      if (close < 0 || close + 1 >= text.length() || text.charAt(close + 1) != ':') {
        throw new IllegalArgumentException("'" + text + "' is not [ADDR]:PORT");
      }
      return close + 1;
    }
    int colon = text.lastIndexOf(':');
    // More than one colon without brackets: an IPv6 address, or a typo; either way not ours.
    return colon >= 0 && text.indexOf(':') == colon ? colon : -1;
  }

  private static String hostPart(String text, int colon) {
    String host = text.startsWith("[") ? text.substring(1, colon - 1) : text.substring(0, colon);
    if (host.isBlank()) {
      throw new IllegalArgumentException("'" + text + "' has no host before the port");
    }
    if (text.startsWith("[") && !isIpv6Literal(host)) {
      throw new IllegalArgumentException("'" + text + "': only IPv6 addresses go in brackets");
    }
    return host;
  }

  private static boolean isIpv6Literal(String host) {
    if (!host.contains(":")) {
      return false;
    }
    try {
      // In brackets the JDK parses the text as an IPv6 literal and never looks it up.
      return InetAddress.getByName("[" + host + "]") instanceof Inet6Address;
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static int port(String text, String digits) {
    if (digits.isEmpty() || digits.length() > 5 || !digits.chars().allMatch(Character::isDigit)) {
      throw new IllegalArgumentException("'" + text + "': bad port '" + digits + "'");
    }
    int port = Integer.parseInt(digits);
    if (port > 65535) {
      throw new IllegalArgumentException("'" + text + "': port " + port + " is above 65535");
    }
    return port;
  }
}
