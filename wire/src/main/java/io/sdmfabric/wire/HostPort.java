package io.sdmfabric.wire;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * A TCP endpoint as users write it: {@code HOST:PORT}, or {@code PORT} alone where a default host
 * applies ({@code --listen 4000}). IPv6 addresses go in brackets: {@code [::1]:4000}. Parsing never
 * looks a name up; {@link #resolve} does.
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
   * Reads {@code text}; a lone port takes {@code defaultHost}.
   *
   * @throws IllegalArgumentException when it is not {@code [HOST:]PORT}; the message says why
   */
  public static HostPort parse(String text, String defaultHost) {
    String host = defaultHost;
    String port = text.strip();
    int colon = port.lastIndexOf(':');
    if (colon >= 0) {
      host = port.substring(0, colon);
      port = port.substring(colon + 1);
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
    }
    try {
      return new HostPort(host, Integer.parseInt(port));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not [HOST:]PORT: " + text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not [HOST:]PORT: " + text + " (" + e.getMessage() + ")");
    }
  }

  /**
   * Reads {@code text}, which must name the host.
   *
   * @throws IllegalArgumentException when it is not {@code HOST:PORT}
   */
  public static HostPort parse(String text) {
    if (!text.contains(":")) {
      throw new IllegalArgumentException(
          "not HOST:PORT: " + text + " (give both, as in login1:4000)");
    }
    return parse(text, "unused");
  }

  /** The host and port of a socket address, the address written as a literal. */
  public static HostPort of(InetSocketAddress address) {
    InetAddress a = address.getAddress();
    return new HostPort(
        a == null ? address.getHostString() : a.getHostAddress(), address.getPort());
  }

  /**
   * The socket address, looking the host up now.
   *
   * @throws UnknownHostException when the host has no address
   */
  public InetSocketAddress resolve() throws UnknownHostException {
    return new InetSocketAddress(InetAddress.getByName(host), port);
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
