package io.sdmfabric.frontend.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.security.auth.module.UnixSystem;
import io.sdmfabric.frontend.dap.LoopbackPeers.Row;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link LoopbackPeers}: the parsing of canned {@code /proc/net/tcp} and {@code tcp6} tables (byte
 * order, IPv4-mapped addresses, which of a connection's two rows is the client's, closed sockets),
 * then live connections on 127.0.0.1 and ::1 from this JVM (our own user) and, when the tests run
 * as root, from a bash of user 65534 started with {@code setpriv}. That client is ended by the
 * test, also on failure.
 */
class LoopbackPeersTest {
  private static final int NOBODY = 65534;

  // 127.0.0.1:8976 listens; 127.0.0.1:45678 (uid 65534) is connected to it, and the server's
  // accepted socket (uid 0) is the reverse row; 127.0.0.1:45000 was a client of uid 1000 that has
  // closed (inode 0); 10.1.2.3:22 tells the byte order.
  private static final String TCP =
      """
        sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
         0: 0100007F:2310 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 40001 1 0000000000000000 100 0 0 10 0
         1: 0100007F:2310 0100007F:B26E 01 00000000:00000000 00:00000000 00000000     0        0 40002 1 0000000000000000 20 4 30 10 -1
         2: 0100007F:B26E 0100007F:2310 01 00000000:00000000 00:00000000 00000000 65534        0 40003 1 0000000000000000 20 4 31 10 -1
         3: 0100007F:AFC8 0100007F:2310 05 00000000:00000000 00:00000000 00000000  1000        0 0 1 0000000000000000 20 4 0 10 -1
         4: 0302010A:0016 0A00000A:D431 01 00000000:00000000 02:000AFC1B 00000000     0        0 40004 2 0000000000000000 20 4 29 10 -1
      """;

  // ::ffff:127.0.0.1:50000 (uid 1000) is connected to ::ffff:127.0.0.1:8976, as an IPv6 socket
  // connected to 127.0.0.1 shows; ::1:40000 (uid 1001) to ::1:8976; 2001:db8::1:443 tells the
  // order of bytes within each 32-bit word.
  private static final String TCP6 =
      """
        sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
         0: 0000000000000000FFFF00000100007F:C350 0000000000000000FFFF00000100007F:2310 01 00000000:00000000 00:00000000 00000000  1000        0 50001 1 0000000000000000 20 4 30 10 -1
         1: 00000000000000000000000001000000:9C40 00000000000000000000000001000000:2310 01 00000000:00000000 00:00000000 00000000  1001        0 50002 1 0000000000000000 20 4 30 10 -1
         2: B80D0120000000000000000001000000:01BB 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 50003 1 0000000000000000 100 0 0 10 0
      """;

  @Test
  void readsIpv4AddressesAsLittleEndianWordsAndPortsAsBigEndianHex() throws Exception {
    List<Row> rows = LoopbackPeers.parse(TCP, ByteOrder.LITTLE_ENDIAN);

    assertEquals(5, rows.size());
    assertEquals(endpoint("10.1.2.3", 22), rows.get(4).local());
    assertEquals(endpoint("10.0.0.10", 54321), rows.get(4).remote());
    assertEquals(65534, rows.get(2).uid());
    assertEquals(40003, rows.get(2).inode());
  }

  @Test
  void readsAddressesOfABigEndianKernelInTheirOwnOrder() throws Exception {
    String table =
        """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0A010203:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 7 1
        """;

    Row row = LoopbackPeers.parse(table, ByteOrder.BIG_ENDIAN).get(0);

    assertEquals(endpoint("10.1.2.3", 22), row.local());
  }

  @Test
  void takesTheClientsRowNotTheServersReverseRow() throws Exception {
    List<Row> rows = LoopbackPeers.parse(TCP, ByteOrder.LITTLE_ENDIAN);

    assertEquals(
        OptionalInt.of(65534),
        LoopbackPeers.uidOf(rows, endpoint("127.0.0.1", 45678), endpoint("127.0.0.1", 8976)));
    assertEquals(
        OptionalInt.of(0),
        LoopbackPeers.uidOf(rows, endpoint("127.0.0.1", 8976), endpoint("127.0.0.1", 45678)));
  }

  @Test
  void readsIpv4MappedRowsAsTheIpv4AddressesThatJavaReports() throws Exception {
    List<Row> rows = LoopbackPeers.parse(TCP6, ByteOrder.LITTLE_ENDIAN);

    assertEquals(endpoint("127.0.0.1", 50000), rows.get(0).local());
    assertEquals(
        OptionalInt.of(1000),
        LoopbackPeers.uidOf(rows, endpoint("127.0.0.1", 50000), endpoint("127.0.0.1", 8976)));
  }

  @Test
  void readsIpv6AddressesWordByWord() throws Exception {
    List<Row> rows = LoopbackPeers.parse(TCP6, ByteOrder.LITTLE_ENDIAN);

    assertEquals(endpoint("2001:db8::1", 443), rows.get(2).local());
    assertEquals(
        OptionalInt.of(1001),
        LoopbackPeers.uidOf(rows, endpoint("::1", 40000), endpoint("::1", 8976)));
  }

  @Test
  void aClientThatNoProcessHoldsAnyMoreIsUnknown() throws Exception {
    List<Row> rows = LoopbackPeers.parse(TCP, ByteOrder.LITTLE_ENDIAN);

    assertEquals(
        OptionalInt.empty(),
        LoopbackPeers.uidOf(rows, endpoint("127.0.0.1", 45000), endpoint("127.0.0.1", 8976)));
    assertEquals(
        OptionalInt.empty(),
        LoopbackPeers.uidOf(rows, endpoint("127.0.0.1", 45679), endpoint("127.0.0.1", 8976)));
  }

  @Test
  void twoRowsOfOneConnectionThatDisagreeAreNotTrusted() throws Exception {
    String twice =
        TCP.replace(
            "   4: 0302010A",
            "   4: 0100007F:B26E 0100007F:2310 01 00000000:00000000 00:00000000 00000000"
                + "  1000        0 40005 1\n   5: 0302010A");
    List<Row> rows = LoopbackPeers.parse(twice, ByteOrder.LITTLE_ENDIAN);

    assertEquals(
        OptionalInt.empty(),
        LoopbackPeers.uidOf(rows, endpoint("127.0.0.1", 45678), endpoint("127.0.0.1", 8976)));
  }

  @Test
  void aMalformedTableIsAnErrorNamingItsLineAndColumn() {
    String badAddress =
        TCP.replace("0100007F:B26E 0100007F:2310 01", "0100007:B26E 0100007F:2310 01");
    String badUid = TCP.replace("00000000 65534", "00000000 nobody");

    IllegalArgumentException address =
        assertThrows(
            IllegalArgumentException.class,
            () -> LoopbackPeers.parse(badAddress, ByteOrder.LITTLE_ENDIAN));
    IllegalArgumentException uid =
        assertThrows(
            IllegalArgumentException.class,
            () -> LoopbackPeers.parse(badUid, ByteOrder.LITTLE_ENDIAN));
    IllegalArgumentException header =
        assertThrows(
            IllegalArgumentException.class,
            () -> LoopbackPeers.parse("hello\n", ByteOrder.LITTLE_ENDIAN));

    assertEquals(
        "line 4, column 7: local address is not 8 or 32 hex digits, a colon and 4: 0100007:B26E",
        address.getMessage());
    assertEquals("line 4, column 77: uid is not a number: nobody", uid.getMessage());
    assertTrue(header.getMessage().startsWith("line 1: "), header.getMessage());
  }

  @Test
  void ownUidIsTheUidOfThisProcess() throws Exception {
    assertEquals(new UnixSystem().getUid(), LoopbackPeers.ownUid());
  }

  @ParameterizedTest
  @ValueSource(strings = {"127.0.0.1", "::1"})
  void aClientOfThisJvmIsOurOwnUser(String loopback) throws Exception {
    try (ServerSocket server = listenOn(loopback);
        Socket client = new Socket()) {
      client.connect(server.getLocalSocketAddress());
      try (Socket accepted = server.accept()) {
        assertEquals(OptionalInt.of(LoopbackPeers.ownUid()), LoopbackPeers.uidOf(accepted));
        assertTrue(LoopbackPeers.sameUser(accepted));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"127.0.0.1", "::1"})
  void aClientThatHasClosedBeforeTheCheckIsUnknown(String loopback) throws Exception {
    try (ServerSocket server = listenOn(loopback)) {
      new Socket(server.getInetAddress(), server.getLocalPort()).close();
      try (Socket accepted = server.accept()) {
        assertEquals(OptionalInt.empty(), LoopbackPeers.uidOf(accepted));
        assertFalse(LoopbackPeers.sameUser(accepted));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"127.0.0.1", "::1"})
  void aClientOfAnotherUserIsNotOurUser(String loopback, @TempDir Path dir) throws Exception {
    assumeTrue(LoopbackPeers.ownUid() == 0, "only root can start a client as another user");
    Optional<Path> setpriv = onPath("setpriv");
    Optional<Path> bash = onPath("bash");
    assumeTrue(setpriv.isPresent(), "setpriv (util-linux) is not on the PATH");
    assumeTrue(bash.isPresent(), "bash is not on the PATH");
    try (ServerSocket server = listenOn(loopback)) {
      server.setSoTimeout(20_000);
      Path output = dir.resolve("client.out");
      // The client holds its connection until the server closes it (or 30 s pass): no sleep.
      String script =
          "exec 3<>/dev/tcp/" + loopback + "/" + server.getLocalPort() + " && read -r -t 30 _ <&3";
      Process client =
          new ProcessBuilder(
                  setpriv.get().toString(),
                  "--reuid=" + NOBODY,
                  "--regid=" + NOBODY,
                  "--clear-groups",
                  bash.get().toString(),
                  "-c",
                  script)
              .directory(new File("/"))
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      try {
        try (Socket accepted = acceptFrom(server, client, output)) {
          assertEquals(OptionalInt.of(NOBODY), LoopbackPeers.uidOf(accepted));
          assertFalse(LoopbackPeers.sameUser(accepted));
        }
        assertTrue(client.waitFor(20, TimeUnit.SECONDS), "the client did not end at EOF");
      } finally {
        client.destroyForcibly();
        client.waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  private static Socket acceptFrom(ServerSocket server, Process client, Path output)
      throws Exception {
    try {
      return server.accept();
    } catch (SocketTimeoutException e) {
      client.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError(
          "the client of uid " + NOBODY + " did not connect: " + Files.readString(output), e);
    }
  }

  private static ServerSocket listenOn(String loopback) throws IOException {
    InetAddress address = InetAddress.getByName(loopback);
    ServerSocket server = new ServerSocket();
    try {
      server.bind(new InetSocketAddress(address, 0));
    } catch (IOException e) {
      server.close();
      assumeTrue(false, "cannot listen on " + loopback + " (no loopback of that family?): " + e);
    }
    return server;
  }

  private static Optional<Path> onPath(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(dir, name);
      if (!dir.isEmpty() && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static InetSocketAddress endpoint(String address, int port) throws Exception {
    return new InetSocketAddress(InetAddress.getByName(address), port);
  }
}
