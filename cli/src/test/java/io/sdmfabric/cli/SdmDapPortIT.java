package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.frontend.dap.DapPortGate;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sdm dap --port} against what a web page in the user's browser, or any client that does not
 * hold the port's token, can send: each connection is refused before the DAP library reads a byte,
 * the attach request it carries runs nothing, and the port goes on serving a client that presents
 * the token. Each attack carries an {@code attach} whose {@code rsh} would {@code touch} a marker
 * file: before the token and the framing check, that request ran.
 */
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
@Tag("gdb")
class SdmDapPortIT {
  private static final Pattern LISTENING =
      Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)(?:; .* the token in (\\S+))?\n");

  @TempDir static Path dir;
  private static Sdm.Background server;
  private static int port;
  private static String token;

  @BeforeAll
  static void startTheAdapter() throws Exception {
    Path home = privateDirectory(dir.resolve("sdm-home"));
    server = new Sdm.Background(Map.of("SDM_HOME", home.toString()), "dap", "--port", "0");
    Matcher m = awaitListening(server);
    port = Integer.parseInt(m.group(1));
    // Before the token (adcc4cf), sdm dap named no file: the attacks are still sent.
    token = m.group(2) == null ? "0".repeat(64) : Files.readString(Path.of(m.group(2))).strip();
  }

  @AfterAll
  static void endTheAdapter() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void anHttpPostAsAWebPageSendsItIsRefusedUnreadAndAProperClientIsStillServed() throws Exception {
    Path marker = dir.resolve("post-ran");
    byte[] body = attachTouching(marker);
    byte[] post =
        concat(
            ("POST / HTTP/1.1\r\n"
                    + "Host: 127.0.0.1:"
                    + port
                    + "\r\n"
                    + "Origin: null\r\n"
                    + "Content-Type: text/plain;charset=UTF-8\r\n"
                    + "Content-Length: "
                    + body.length
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII),
            body);
    assertRefused(post, marker, "it is an HTTP request, not sdm's DAP (a web page's?): \"POST /");
    assertTrue(initializes(), "the client with the token was not served:\n" + server.err());
    assertFalse(Files.exists(marker), "the page's attach ran its rsh");
  }

  /**
   * A page that fetches the port in a loop: its refusals take a few lines of sdm dap's standard
   * error, then are counted, and the adapter still serves the client with the token. Last, since
   * the other tests wait for their refusal's own line.
   */
  @Test
  @org.junit.jupiter.api.Order(Integer.MAX_VALUE)
  void aFloodOfRefusedConnectionsTakesAFewLinesThenACount() throws Exception {
    int before = server.err().length();
    int flood = 200;
    long start = System.nanoTime();
    for (int i = 0; i < flood; i++) {
      try (Socket s = new Socket("127.0.0.1", port)) {
        s.getOutputStream().write("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        s.setSoTimeout(30_000);
        readToEnd(s.getInputStream()); // closed by the adapter once refused
      }
    }
    assertTrue(initializes(), "the client with the token was not served:\n" + server.err());
    // At most 5 lines and a count per 10 s: on a loaded machine the flood may span more than one.
    long intervals = 1 + Duration.ofNanos(System.nanoTime() - start).toSeconds() / 10;
    String said = lineAfter(before);
    long refusedLines = said.lines().filter(l -> l.contains("refused a connection")).count();
    assertTrue(refusedLines <= 5 * (intervals + 1), intervals + " intervals:\n" + said);
    assertTrue(
        said.lines().count() <= 6 * (intervals + 1),
        "a few lines and at most one count an interval:\n" + said);
  }

  @Test
  void aProperDapMessageWithoutTheTokenIsRefused() throws Exception {
    Path marker = dir.resolve("no-token-ran");
    assertRefused(framed(attachTouching(marker)), marker, "a DAP message without the token first");
    assertTrue(initializes(), server.err());
  }

  @Test
  void aWrongTokenIsRefused() throws Exception {
    Path marker = dir.resolve("wrong-token-ran");
    String wrong = DapPortGate.newToken();
    assertRefused(
        concat(line(wrong), framed(attachTouching(marker))), marker, "it presented a wrong token");
    assertTrue(initializes(), server.err());
  }

  @Test
  void aHeaderLineOtherThanContentLengthIsRefusedEvenAfterTheToken() throws Exception {
    Path marker = dir.resolve("extra-header-ran");
    byte[] body = attachTouching(marker);
    byte[] message =
        concat(
            ("Content-Length: " + body.length + "\r\nContent-Type: text/plain\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII),
            body);
    assertRefused(
        concat(line(token), message),
        marker,
        "a message has another header line than Content-Length");
    assertTrue(initializes(), server.err());
  }

  @Test
  void theTokenIsInAFileOfTheUsersAloneNeverWrittenThroughALinkAndGoneWhenTheAdapterEnds()
      throws Exception {
    Path home = privateDirectory(dir.resolve("own-home"));
    privateDirectory(home.resolve("dap"));
    Path victim = Files.writeString(dir.resolve("victim"), "the user's own file\n");
    int fixed;
    try (ServerSocket probe = new ServerSocket(0)) {
      fixed = probe.getLocalPort();
    }
    Path planted = home.resolve("dap").resolve(fixed + ".token");
    Files.createSymbolicLink(planted, victim);
    try (Sdm.Background own =
        new Sdm.Background(
            Map.of("SDM_HOME", home.toString()), "dap", "--port", Integer.toString(fixed))) {
      Matcher m = awaitListening(own);
      Path file = Path.of(m.group(2));
      assertEquals(planted, file);
      assertTrue(Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS), "still a link");
      assertEquals("the user's own file\n", Files.readString(victim));
      assertEquals(
          "rw-------",
          PosixFilePermissions.toString(
              Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS)));
      assertEquals(
          "rwx------",
          PosixFilePermissions.toString(
              Files.getPosixFilePermissions(home, LinkOption.NOFOLLOW_LINKS)));
      String mine = Files.readString(file).strip();
      assertTrue(mine.matches("[0-9a-f]{64}"), mine);
      long pid = own.process().pid();
      for (String what : new String[] {"cmdline", "environ"}) {
        String text = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), what)));
        assertFalse(text.contains(mine), "the token is in the adapter's " + what);
      }
      assertFalse(own.err().contains(mine), "the token was printed");
      own.process().destroy(); // SIGTERM
      assertTrue(own.process().waitFor(60, TimeUnit.SECONDS), own.err());
      assertFalse(Files.exists(file, LinkOption.NOFOLLOW_LINKS), "the token file is left");
    }
  }

  /**
   * Sends {@code bytes} on a fresh connection and checks that the adapter closes it, says why on
   * one line of standard error, and runs nothing.
   */
  private static void assertRefused(byte[] bytes, Path marker, String why) throws Exception {
    int before = server.err().length();
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.getOutputStream().write(bytes);
      s.getOutputStream().flush();
      s.setSoTimeout(30_000);
      Sdm.await(
          () -> lineAfter(before).contains("refused a connection") || Files.exists(marker),
          Duration.ofSeconds(30),
          "a refusal, or the attach to run");
      assertFalse(Files.exists(marker), "the attach ran its rsh:\n" + server.err());
      assertEquals(-1, readToEnd(s.getInputStream()), "the refused connection was answered");
    }
    String said = lineAfter(before);
    assertTrue(said.contains(why), said);
    assertEquals(1, said.lines().count(), said);
  }

  /** Whether a client that presents the token is answered its {@code initialize}. */
  private static boolean initializes() throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(30_000);
      s.getOutputStream()
          .write(
              concat(
                  line(token),
                  framed(
                      "{\"seq\":1,\"type\":\"request\",\"command\":\"initialize\","
                          + "\"arguments\":{\"adapterID\":\"sdm\"}}")));
      InputStream in = s.getInputStream();
      String header = "";
      while (!header.endsWith("\r\n\r\n")) {
        int b = in.read();
        if (b < 0) {
          return false;
        }
        header += (char) b;
      }
      int length = Integer.parseInt(header.replaceAll("(?s)Content-Length: (\\d+).*", "$1"));
      String reply = new String(in.readNBytes(length), StandardCharsets.UTF_8);
      return reply.contains("\"command\":\"initialize\"") && reply.contains("\"success\":true");
    }
  }

  /** A DAP attach request whose remote shell would touch {@code marker}. */
  private static byte[] attachTouching(Path marker) {
    return ("{\"seq\":1,\"type\":\"request\",\"command\":\"attach\",\"arguments\":"
            + "{\"targets\":[\"elsewhere:1\"],\"rsh\":\"sh -c touch${IFS}"
            + marker
            + "\"}}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] framed(String json) {
    return framed(json.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] framed(byte[] body) {
    return concat(
        ("Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII), body);
  }

  private static byte[] line(String token) {
    return DapPortGate.line(token).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  /** -1 when the peer closed the connection (or reset it), else the first byte it sent. */
  private static int readToEnd(InputStream in) throws IOException {
    try {
      return in.read();
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the refused connection was left open", e);
    } catch (IOException e) {
      return -1; // reset: closed with our bytes unread
    }
  }

  private static String lineAfter(int from) {
    try {
      return server.err().substring(from);
    } catch (IOException e) {
      return "(" + e + ")";
    }
  }

  private static Matcher awaitListening(Sdm.Background adapter) throws Exception {
    Matcher[] found = new Matcher[1];
    Sdm.await(
        () -> {
          try {
            Matcher m = LISTENING.matcher(adapter.err());
            if (m.find()) {
              found[0] = m;
              return true;
            }
            return !adapter.process().isAlive();
          } catch (IOException e) {
            return false;
          }
        },
        Duration.ofSeconds(60),
        "sdm dap to listen");
    if (found[0] == null) {
      throw new AssertionError("sdm dap did not listen:\n" + adapter.err());
    }
    return found[0];
  }

  private static Path privateDirectory(Path path) throws IOException {
    return Files.createDirectory(
        path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
  }
}
