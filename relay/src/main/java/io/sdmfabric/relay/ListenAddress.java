package io.sdmfabric.relay;

import io.sdmfabric.wire.HostPort;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Where a relay listens, from what the user gave ({@code sdm relay --listen [ADDR:]PORT}), and what
 * to say about it once listening.
 *
 * <p>{@code ADDR:PORT} is taken as given, with nothing to say. A port alone means the address this
 * host's name resolves to, as {@code sdm listen} does, which is the address the compute nodes reach
 * when they resolve the name the user gives {@code sdm connect --via}; a name that resolves to
 * loopback, or not at all, is refused with the fix. Every interface ({@code 0.0.0.0:PORT}) only
 * when asked (the relay then warns: on a login node that is also the interface the outside world
 * reaches).
 *
 * @param address where to listen
 * @param notes what to say once listening (nothing when the address was given whole)
 */
public record ListenAddress(HostPort address, List<String> notes) {

  /** This host's address as its name resolves; {@link InetAddress#getLocalHost} but in tests. */
  public interface LocalHost {
    InetAddress address() throws UnknownHostException;
  }

  public ListenAddress {
    notes = List.copyOf(notes);
  }

  /**
   * Where to listen for {@code listen}: {@code ADDR:PORT} as given, or a port on this host's
   * address.
   *
   * @throws IllegalArgumentException naming {@code --listen} and why, with the fix
   */
  public static ListenAddress of(String listen, LocalHost localHost) {
    // Parsed first with a stand-in host, so that a bad port is said before anything is looked up.
    HostPort given = HostPort.parse(listen, "this host");
    if (listen.contains(":")) {
      return new ListenAddress(given, List.of());
    }
    InetAddress own;
    try {
      own = localHost.address();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(
          "--listen "
              + listen
              + ": this host's name does not resolve, so a port alone has no address to go with:"
              + " name the address the compute nodes reach, --listen ADDR:"
              + listen);
    }
    if (own.isLoopbackAddress()) {
      throw new IllegalArgumentException(
          "--listen "
              + listen
              + ": this host's name, "
              + own.getHostName()
              + ", resolves to "
              + own.getHostAddress()
              + ", a loopback address the compute nodes cannot reach: name the address they"
              + " reach, --listen ADDR:"
              + listen
              + " (or 0.0.0.0:"
              + listen
              + " for every interface)");
    }
    String name = own.getHostName();
    return new ListenAddress(
        new HostPort(own.getHostAddress(), given.port()),
        List.of(
            "listening on the address of this host's name, "
                + name
                + ": where the compute nodes reach it if "
                + name
                + " resolves there to the same address (sdm connect --via "
                + name
                + ":PORT); if they reach this host at another address, name that with --listen"
                + " ADDR:PORT"));
  }
}
