package io.sdmfabric.runtime.attach;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The processes {@code sdm attach} is given on its command line: {@code HOST:PID[,PID...]} for
 * processes of HOST, a bare {@code PID[,PID...]} for processes of this host; grouped by host in the
 * order the hosts first appear, each pid once.
 *
 * @param hosts each host with its pids
 */
public record AttachTargets(List<Host> hosts) {

  /** The name bare pids stand for. */
  static final String THIS_HOST = "localhost";

  /**
   * The pids of one host.
   *
   * @param name the host as given ({@value #THIS_HOST} for bare pids)
   * @param pids its processes, in the order given
   */
  public record Host(String name, List<Long> pids) {
    public Host {
      Objects.requireNonNull(name, "name");
      pids = List.copyOf(pids);
    }

    /** Whether this is the host sdm runs on (no remote shell needed). */
    public boolean isLocal() {
      return AttachTargets.isLocal(name);
    }
  }

  public AttachTargets {
    hosts = List.copyOf(hosts);
    if (hosts.isEmpty()) {
      throw new IllegalArgumentException("no processes to attach to");
    }
  }

  /**
   * Reads the targets from the command line's arguments.
   *
   * @throws IllegalArgumentException for an argument that is no target, or a pid given twice
   */
  public static AttachTargets parse(List<String> args) {
    Map<String, Set<Long>> byHost = new LinkedHashMap<>();
    for (String arg : args) {
      int colon = arg.lastIndexOf(':');
      String host = colon < 0 ? THIS_HOST : arg.substring(0, colon);
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1); // [IPv6]:PID
      }
      String list = arg.substring(colon + 1);
      if (host.isEmpty() || list.isEmpty()) {
        throw bad(arg);
      }
      Set<Long> pids = byHost.computeIfAbsent(host, h -> new LinkedHashSet<>());
      for (String p : list.split(",", -1)) {
        long pid;
        try {
          pid = Long.parseLong(p);
        } catch (NumberFormatException e) {
          throw bad(arg);
        }
        if (pid <= 0) {
          throw bad(arg);
        }
        if (!pids.add(pid)) {
          throw new IllegalArgumentException(
              "pid " + pid + (host.equals(THIS_HOST) ? "" : " of " + host) + " is given twice");
        }
      }
    }
    List<Host> hosts = new ArrayList<>();
    byHost.forEach((host, pids) -> hosts.add(new Host(host, List.copyOf(pids))));
    return new AttachTargets(hosts);
  }

  private static IllegalArgumentException bad(String arg) {
    return new IllegalArgumentException(
        "\"" + arg + "\" is not a target: give HOST:PID[,PID...], or PID[,PID...] on this host");
  }

  /**
   * Whether {@code host} names this machine: {@code localhost}, its host name, or an address of one
   * of its network interfaces. A name that does not resolve is another machine's.
   */
  public static boolean isLocal(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    if (h.equals(THIS_HOST) || h.equals("127.0.0.1") || h.equals("::1")) {
      return true;
    }
    try {
      InetAddress self = InetAddress.getLocalHost();
      String name = self.getHostName().toLowerCase(Locale.ROOT);
      if (h.equals(name) || name.startsWith(h + ".") || h.startsWith(name + ".")) {
        return true;
      }
    } catch (UnknownHostException e) {
      // No name for this host: only addresses can match.
    }
    try {
      for (InetAddress a : InetAddress.getAllByName(host)) {
        if (a.isLoopbackAddress() && a.getHostAddress().equals("127.0.0.1")
            || NetworkInterface.getByInetAddress(a) != null) {
          return true;
        }
      }
    } catch (UnknownHostException | SocketException e) {
      return false;
    }
    return false;
  }
}
