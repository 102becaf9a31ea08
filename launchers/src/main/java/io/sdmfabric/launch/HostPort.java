package io.sdmfabric.launch;

/**
 * A TCP endpoint as users write it: {@code HOST:PORT}, or {@code PORT} alone where a default host
 * applies ({@code --listen 4000}). IPv6 addresses go in brackets: {@code [::1]:4000}.
 */
record HostPort(String host, int port) {
  HostPort {
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
  static HostPort parse(String text, String defaultHost) {
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
  static HostPort parse(String text) {
    if (!text.contains(":")) {
      throw new IllegalArgumentException("not HOST:PORT: " + text + " (the host is missing)");
    }
    return parse(text, "unused");
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
