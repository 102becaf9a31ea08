package io.sdmfabric.frontend.dap;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a connection to {@code sdm dap --port} must send before the DAP library reads a byte of it.
 *
 * <p>First the session's token, as one line: {@code SDM-DAP-TOKEN <64 hex digits>\r\n} (exactly 81
 * bytes, the digits in lower case). Then DAP messages, each with exactly the header {@code
 * Content-Length: N\r\n\r\n} (no other header line, N from 1 to {@link #MAX_BODY}). Anything else
 * is refused where it starts: an HTTP request ({@code POST / HTTP/1.1}, {@code GET}, {@code
 * OPTIONS}), which is what a web page in the user's browser can send to a loopback port, never
 * reaches the DAP library, whose reader would otherwise skip the request line and headers it does
 * not know and take the body as a message.
 *
 * <p>Why a line of its own and not a DAP request that carries the token: the line is compared byte
 * for byte, with no parser between a stranger and the check; it is neither DAP (which begins with
 * {@code Content-Length:}) nor HTTP (a request line has a method, a target and {@code HTTP/1.1},
 * and a browser writes a target that begins with {@code /}), so neither kind of peer sends it by
 * accident; and a client writes it on the socket before it hands the socket to its DAP library,
 * which then works unchanged (a DAP request would need a command of sdm's own, answered out of the
 * library's order, before {@code initialize}, which VS Code's own client does not send).
 */
public final class DapPortGate {
  /** What the token line begins with. */
  public static final String PREFIX = "SDM-DAP-TOKEN ";

  /** The largest body a message may announce: 4 MiB, far above any request a client sends. */
  public static final int MAX_BODY = 4 << 20;

  private static final int TOKEN_BYTES = 32;
  private static final int TOKEN_HEX = 2 * TOKEN_BYTES;
  private static final byte[] HEADER = "Content-Length: ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] END = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final int MAX_DIGITS = Integer.toString(MAX_BODY).length();
  private static final Pattern HTTP_REQUEST_LINE =
      Pattern.compile("[A-Za-z]+ \\S+ HTTP/\\d.*", Pattern.DOTALL);
  private static final int QUOTED = 48;

  private DapPortGate() {}

  /** A fresh token: 256 random bits, as 64 lower-case hex digits. */
  public static String newToken() {
    byte[] bytes = new byte[TOKEN_BYTES];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /** The line a client sends first: {@code SDM-DAP-TOKEN <token>\r\n}. */
  public static String line(String token) {
    return PREFIX + token + "\r\n";
  }

  /**
   * Reads the token line and the first message's header from {@code in} and returns the stream the
   * DAP library may read: that header and what follows, every later header checked before the
   * library sees it (a bad one ends the stream with {@link Refused}).
   *
   * @throws Refused when the connection does not begin with {@code token}'s line and a DAP header,
   *     saying why in one line (which may quote what was sent: escape it before it is shown)
   * @throws IOException when reading fails (a read timeout included)
   */
  public static InputStream admit(InputStream in, String token) throws IOException {
    Objects.requireNonNull(token, "token");
    if (token.length() != TOKEN_HEX) {
      throw new IllegalArgumentException("a token is " + TOKEN_HEX + " hex digits");
    }
    BufferedInputStream buffered = new BufferedInputStream(in, 8192);
    byte[] prefix = PREFIX.getBytes(StandardCharsets.US_ASCII);
    byte[] seen = new byte[prefix.length];
    for (int i = 0; i < prefix.length; i++) {
      int b = buffered.read();
      if (b < 0) {
        throw new Refused(
            i == 0
                ? "it sent nothing"
                : "it ended before its token: \""
                    + new String(seen, 0, i, StandardCharsets.ISO_8859_1)
                    + "\"");
      }
      seen[i] = (byte) b;
      if (b != prefix[i]) {
        throw new Refused(notTheToken(seen, i + 1, buffered));
      }
    }
    // The secret part: read whole, compared in constant time, never quoted.
    byte[] presented = buffered.readNBytes(TOKEN_HEX + 2);
    byte[] expected = (token + "\r\n").getBytes(StandardCharsets.US_ASCII);
    if (!MessageDigest.isEqual(presented, expected)) {
      throw new Refused(
          presented.length < expected.length
              ? "it ended inside its token line"
              : "it presented a wrong token");
    }
    Framed framed = new Framed(buffered);
    if (!framed.nextHeader()) {
      throw new Refused("it ended after its token, before a message");
    }
    return framed;
  }

  /** Why a connection was refused, in one line. */
  public static final class Refused extends IOException {
    private static final long serialVersionUID = 1L;

    Refused(String why) {
      super(why);
    }
  }

  private static String notTheToken(byte[] seen, int n, BufferedInputStream in) {
    String first = firstLine(seen, n, in);
    String quoted = "\"" + first + "\"";
    if (HTTP_REQUEST_LINE.matcher(first).matches()) {
      return "it is an HTTP request, not sdm's DAP (a web page's?): " + quoted;
    }
    if (first.startsWith("Content-Length:")) {
      return "it sent a DAP message without the token first";
    }
    return "it did not begin with its token: " + quoted;
  }

  /**
   * The first bytes a peer sent, with what else of its first line has already arrived (never
   * waiting for more), at most {@link #QUOTED} bytes, as ISO-8859-1 characters.
   */
  private static String firstLine(byte[] seen, int n, BufferedInputStream in) {
    StringBuilder s = new StringBuilder(new String(seen, 0, n, StandardCharsets.ISO_8859_1));
    try {
      while (s.length() < QUOTED && in.available() > 0) {
        int b = in.read();
        if (b < 0 || b == '\r' || b == '\n') {
          break;
        }
        s.append((char) b);
      }
    } catch (IOException e) {
      // What arrived is quoted: that is enough to say why.
    }
    return s.toString();
  }

  /**
   * The client's messages as the DAP library reads them: each header is read and checked here
   * first, then handed on with its body.
   */
  private static final class Framed extends InputStream {
    private final InputStream in;
    private byte[] header = new byte[0];
    private int headerPos;
    private long bodyLeft;

    Framed(InputStream in) {
      this.in = in;
    }

    /**
     * Reads and checks the next header. False when the stream ends cleanly where a message would
     * begin.
     */
    boolean nextHeader() throws IOException {
      byte[] h = new byte[HEADER.length + MAX_DIGITS + END.length];
      int n = 0;
      for (byte expected : HEADER) {
        int b = in.read();
        if (b < 0) {
          if (n == 0) {
            return false;
          }
          throw new Refused("it ended inside a message's header");
        }
        h[n++] = (byte) b;
        if (b != expected) {
          throw new Refused(
              "a message's header is not exactly Content-Length: N: it began with "
                  + quoteHeader(h, n));
        }
      }
      long length = 0;
      int digits = 0;
      int b;
      while ((b = in.read()) >= '0' && b <= '9') {
        h[n++] = (byte) b;
        length = 10 * length + (b - '0');
        if (++digits > MAX_DIGITS || length > MAX_BODY) {
          throw new Refused("a message announces more than " + MAX_BODY + " bytes");
        }
      }
      if (digits == 0 || length == 0) {
        throw new Refused("a message's header announces no length");
      }
      for (int i = 0; i < END.length; i++) {
        if (i > 0) {
          b = in.read();
        }
        if (b < 0) {
          throw new Refused("it ended inside a message's header");
        }
        h[n++] = (byte) b;
        if (b != END[i]) {
          throw new Refused(
              "a message has another header line than Content-Length, or no blank line after it: "
                  + quoteHeader(h, n));
        }
      }
      header = java.util.Arrays.copyOf(h, n);
      headerPos = 0;
      bodyLeft = length;
      return true;
    }

    private static String quoteHeader(byte[] h, int n) {
      return "\"" + new String(h, 0, n, StandardCharsets.ISO_8859_1) + "\"";
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      Objects.checkFromIndexSize(off, len, b.length);
      if (len == 0) {
        return 0;
      }
      if (headerPos == header.length && bodyLeft == 0 && !nextHeader()) {
        return -1;
      }
      if (headerPos < header.length) {
        int n = Math.min(len, header.length - headerPos);
        System.arraycopy(header, headerPos, b, off, n);
        headerPos += n;
        return n;
      }
      int n = in.read(b, off, (int) Math.min(len, bodyLeft));
      if (n > 0) {
        bodyLeft -= n;
      }
      return n;
    }

    @Override
    public int available() throws IOException {
      if (headerPos < header.length) {
        return header.length - headerPos;
      }
      return (int) Math.min(in.available(), bodyLeft);
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
