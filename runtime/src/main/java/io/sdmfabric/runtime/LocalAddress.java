package io.sdmfabric.runtime;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.Optional;

/**
 * Which of this host's addresses the other nodes of a job reach it at. The best answer is the
 * address the kernel sends from to them, which a route lookup gives without sending anything (a
 * datagram socket connected to one of them); that is how a node's JVM picks the address it
 * advertises, knowing the master's. A job of this host alone is reached over loopback. Where no
 * node is known, the host name's address, unless it is a loopback one (Debian names the host
 * 127.0.1.1 in /etc/hosts), else the first IPv4 address of an interface that is up and not a
 * loopback.
 */
public final class LocalAddress {
  private LocalAddress() {}

  /**
   * The address this host sends from to {@code host}, when {@code host} resolves and is routed; a
   * loopback address when {@code host} is this host.
   */
  public static Optional<String> reaching(String host) {
    InetAddress to;
    try {
      to = InetAddress.getByName(host);
    } catch (UnknownHostException | SecurityException e) {
      return Optional.empty();
    }
    try (DatagramSocket probe = new DatagramSocket()) {
      // Connecting a datagram socket only looks the route up: nothing is sent.
      probe.connect(new InetSocketAddress(to, 9));
      InetAddress from = probe.getLocalAddress();
      return from == null || from.isAnyLocalAddress()
          ? Optional.empty()
          : Optional.of(from.getHostAddress());
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // no route: the network is unreachable from here
    }
  }

  /**
   * The address the other hosts among {@code hosts} reach this one at: the first host that is not
   * this one and has a route decides. When all of them are this host, its loopback address; when
   * none is known or some do not resolve here, {@link #guess()}.
   */
  public static String reachingAny(Collection<String> hosts) {
    String loopback = null;
    boolean unknown = hosts.isEmpty();
    for (String host : hosts) {
      Optional<String> from = reaching(host);
      if (from.isEmpty()) {
        unknown = true;
      } else if (!isLoopback(from.get())) {
        return from.get();
      } else {
        loopback = from.get();
      }
    }
    return unknown || loopback == null ? guess() : loopback;
  }

  /**
   * This host's address when no other host of the job is known: the host name's unless it is a
   * loopback address, else the first IPv4 address of an interface that is up and no loopback, else
   * 127.0.0.1.
   */
  public static String guess() {
    try {
      InetAddress named = InetAddress.getLocalHost();
      if (!named.isLoopbackAddress()) {
        return named.getHostAddress();
      }
    } catch (UnknownHostException e) {
      // The name does not resolve: look at the interfaces.
    }
    try {
      for (NetworkInterface nic : NetworkInterface.networkInterfaces().toList()) {
        if (!nic.isUp() || nic.isLoopback()) {
          continue;
        }
        Optional<InetAddress> v4 =
            nic.inetAddresses()
                .filter(a -> a instanceof Inet4Address && !a.isLinkLocalAddress())
                .findFirst();
        if (v4.isPresent()) {
          return v4.get().getHostAddress();
        }
      }
    } catch (SocketException e) {
      // No interfaces to read: loopback, below.
    }
    return "127.0.0.1";
  }

  private static boolean isLoopback(String address) {
    try {
      return InetAddress.getByName(address).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
