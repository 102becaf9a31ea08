package io.sdmfabric.frontend.dap;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Who is at the other end of a loopback TCP connection: the Unix user that owns the connecting
 * socket, read from the kernel's socket tables {@code /proc/net/tcp} and {@code /proc/net/tcp6}
 * (Linux only). {@code sdm dap --port} serves a connection only when its peer is the user running
 * sdm: DAP has no authentication, so the owner of the client's socket is the only credential.
 *
 * <p>The client's row is the one whose local end is the accepted socket's remote end and whose
 * remote end is the accepted socket's local end (the server's own row, the reverse, belongs to us
 * and says nothing). Its {@code uid} column is the user that created the client's socket. A row
 * whose {@code inode} is 0 belongs to no process any more (a closed, orphaned or TIME_WAIT socket,
 * which the kernel shows as uid 0) and is never taken as an answer: a client that connects and
 * closes at once is unknown, not root. See {@code proc_net_tcp.rst} in the kernel's documentation
 * for the format.
 *
 * <p>Both tables are searched for every connection: an IPv4 connection made from an IPv6 socket
 * (Java's default) is in {@code tcp6} with IPv4-mapped addresses ({@code ::ffff:127.0.0.1}), which
 * are read as the IPv4 addresses that Java reports for the accepted socket.
 */
final class LoopbackPeers {
  private static final Path TCP = Path.of("/proc/net/tcp");
  private static final Path TCP6 = Path.of("/proc/net/tcp6");
  private static final Path SELF_STATUS = Path.of("/proc/self/status");

  private LoopbackPeers() {}

  /**
   * The uid of the process that owns the other end of {@code accepted}, a connection accepted from
   * a loopback address; empty when the peer is not on loopback, or when no live socket of this
   * machine matches (the client has already closed, or the tables have no such row).
   *
   * @throws IOException when a socket table cannot be read or does not parse
   */
  static OptionalInt uidOf(Socket accepted) throws IOException {
    InetAddress peer = accepted.getInetAddress();
    if (peer == null
        || !peer.isLoopbackAddress()
        || !accepted.getLocalAddress().isLoopbackAddress()) {
      return OptionalInt.empty();
    }
    InetSocketAddress client = new InetSocketAddress(peer, accepted.getPort());
    InetSocketAddress server =
        new InetSocketAddress(accepted.getLocalAddress(), accepted.getLocalPort());
    List<Row> rows = new ArrayList<>();
    rows.addAll(readTable(TCP));
    rows.addAll(readTable(TCP6));
    return uidOf(rows, client, server);
  }

  /**
   * Whether the other end of {@code accepted} is a process of the user running sdm ({@link
   * #ownUid()}); false when that user cannot be told ({@link #uidOf(Socket)} is empty).
   *
   * @throws IOException when a socket table or {@code /proc/self/status} cannot be read or parsed
   */
  static boolean sameUser(Socket accepted) throws IOException {
    OptionalInt uid = uidOf(accepted);
    return uid.isPresent() && uid.getAsInt() == ownUid();
  }

  /**
   * The effective uid of this process, from the {@code Uid:} line of {@code /proc/self/status}. The
   * kernel marks a socket with its creator's filesystem uid, which follows the effective uid unless
   * a process calls {@code setfsuid} (the JVM does not).
   *
   * @throws IOException when {@code /proc/self/status} cannot be read or has no well-formed {@code
   *     Uid:} line
   */
  static int ownUid() throws IOException {
    for (String line : Files.readAllLines(SELF_STATUS)) {
      if (line.startsWith("Uid:")) {
        // Real, effective, saved and filesystem uids.
        String[] ids = line.substring("Uid:".length()).trim().split("\\s+");
        try {
          if (ids.length == 4) {
            return Integer.parseUnsignedInt(ids[1]);
          }
        } catch (NumberFormatException e) {
          // Reported below.
        }
        break;
      }
    }
    throw new IOException(SELF_STATUS + " has no well-formed Uid: line");
  }

  /**
   * The uid of the one live row whose local end is {@code client} and whose remote end is {@code
   * server}; empty when there is none, or when more than one such row disagrees (which the kernel
   * never shows for one connection, and is then not trusted).
   */
  static OptionalInt uidOf(List<Row> rows, InetSocketAddress client, InetSocketAddress server) {
    OptionalInt found = OptionalInt.empty();
    for (Row row : rows) {
      if (row.inode() != 0 && sameEnd(row.local(), client) && sameEnd(row.remote(), server)) {
        if (found.isPresent() && found.getAsInt() != row.uid()) {
          return OptionalInt.empty();
        }
        found = OptionalInt.of(row.uid());
      }
    }
    return found;
  }

  /**
   * The rows of one socket table, the text of {@code /proc/net/tcp} or {@code /proc/net/tcp6},
   * whose addresses were printed as 32-bit words in {@code order} (the kernel's, {@link
   * ByteOrder#nativeOrder()}). IPv4-mapped IPv6 addresses become {@code Inet4Address}es.
   *
   * @throws IllegalArgumentException naming the line and column of the first malformed field
   */
  static List<Row> parse(String table, ByteOrder order) {
    String[] lines = table.split("\n", -1);
    if (!lines[0].trim().startsWith("sl ")) {
      throw new IllegalArgumentException("line 1: not the header of a socket table: " + lines[0]);
    }
    List<Row> rows = new ArrayList<>();
    for (int i = 1; i < lines.length; i++) {
      if (!lines[i].isBlank()) {
        rows.add(parseRow(lines[i], i + 1, order));
      }
    }
    return List.copyOf(rows);
  }

  /**
   * One connection of a socket table: its two ends as seen by the socket that owns the row, the uid
   * of that socket's creator, and its inode (0 when no process holds it any more).
   */
  record Row(InetSocketAddress local, InetSocketAddress remote, int uid, long inode) {
    Row {
      Objects.requireNonNull(local, "local");
      Objects.requireNonNull(remote, "remote");
      if (inode < 0) {
        throw new IllegalArgumentException("negative inode " + inode);
      }
    }
  }

  private static boolean sameEnd(InetSocketAddress a, InetSocketAddress b) {
    return a.getPort() == b.getPort()
        && Arrays.equals(a.getAddress().getAddress(), b.getAddress().getAddress());
  }

  private static List<Row> readTable(Path path) throws IOException {
    String text;
    try {
      text = Files.readString(path);
    } catch (NoSuchFileException e) {
      // No IPv6 (or no IPv4) in this kernel: that table has no rows.
      return List.of();
    }
    try {
      return parse(text, ByteOrder.nativeOrder());
    } catch (IllegalArgumentException e) {
      throw new IOException("cannot parse " + path + ": " + e.getMessage(), e);
    }
  }

  // The fields are those of the kernel's format "%4d: %08X:%04X %08X:%04X %02X %08X:%08X
  // %02X:%08lX %08X %5u %8d %lu ...": slot, local, remote, state, queues, timer, retransmits, uid,
  // timeout, inode, then more that are not read.
  private static Row parseRow(String line, int number, ByteOrder order) {
    Fields fields = new Fields(line, number);
    fields.next("slot");
    InetSocketAddress local = fields.endpoint("local address", order);
    InetSocketAddress remote = fields.endpoint("remote address", order);
    fields.next("state");
    fields.next("queues");
    fields.next("timer");
    fields.next("retransmits");
    int uid = fields.unsigned("uid");
    fields.next("timeout");
    long inode = fields.inode();
    return new Row(local, remote, uid, inode);
  }

  /** A cursor over the space-separated fields of one row, for errors that say where. */
  private static final class Fields {
    private final String line;
    private final int number;
    private int pos;
    private int start;

    Fields(String line, int number) {
      this.line = line;
      this.number = number;
    }

    String next(String what) {
      while (pos < line.length() && line.charAt(pos) == ' ') {
        pos++;
      }
      start = pos;
      while (pos < line.length() && line.charAt(pos) != ' ') {
        pos++;
      }
      if (start == pos) {
        throw error("missing " + what);
      }
      return line.substring(start, pos);
    }

    InetSocketAddress endpoint(String what, ByteOrder order) {
      String field = next(what);
      int colon = field.indexOf(':');
      int hexLength = colon;
      if ((hexLength != 8 && hexLength != 32) || field.length() != colon + 5) {
        throw error(what + " is not 8 or 32 hex digits, a colon and 4: " + field);
      }
      ByteBuffer bytes = ByteBuffer.allocate(hexLength / 2).order(order);
      for (int word = 0; word < hexLength; word += 8) {
        bytes.putInt((int) hex(field.substring(word, word + 8), what));
      }
      int port = (int) hex(field.substring(colon + 1), what);
      try {
        return new InetSocketAddress(InetAddress.getByAddress(bytes.array()), port);
      } catch (UnknownHostException e) {
        throw new AssertionError("4 or 16 bytes are an address", e);
      }
    }

    int unsigned(String what) {
      String field = next(what);
      try {
        return Integer.parseUnsignedInt(field);
      } catch (NumberFormatException e) {
        throw error(what + " is not a number: " + field);
      }
    }

    long inode() {
      String field = next("inode");
      try {
        return Long.parseLong(field);
      } catch (NumberFormatException e) {
        throw error("inode is not a number: " + field);
      }
    }

    private long hex(String digits, String what) {
      for (int i = 0; i < digits.length(); i++) {
        char c = digits.charAt(i);
        if (!(c >= '0' && c <= '9' || c >= 'A' && c <= 'F' || c >= 'a' && c <= 'f')) {
          throw error(what + " has a non-hex digit: " + digits);
        }
      }
      return Long.parseLong(digits, 16);
    }

    private IllegalArgumentException error(String message) {
      return new IllegalArgumentException(
          "line " + number + ", column " + (start + 1) + ": " + message);
    }
  }
}
