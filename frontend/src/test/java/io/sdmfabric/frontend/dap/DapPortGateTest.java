package io.sdmfabric.frontend.dap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DapPortGateTest {
  private static final String TOKEN = DapPortGate.newToken();

  private static InputStream admit(String bytes) throws IOException {
    return DapPortGate.admit(
        new ByteArrayInputStream(bytes.getBytes(StandardCharsets.ISO_8859_1)), TOKEN);
  }

  private static String message(String json) {
    return "Content-Length: " + json.length() + "\r\n\r\n" + json;
  }

  private static String refusal(String bytes) {
    return assertThrows(
            DapPortGate.Refused.class, () -> admit(bytes).readAllBytes(), "not refused: " + bytes)
        .getMessage();
  }

  @Test
  void aTokenIs64LowerCaseHexDigitsAndFreshEachTime() {
    assertTrue(TOKEN.matches("[0-9a-f]{64}"), TOKEN);
    assertTrue(!TOKEN.equals(DapPortGate.newToken()));
  }

  @Test
  void afterTheTokenTheMessagesReachTheLibraryByteForByte() throws IOException {
    String messages = message("{\"seq\":1}") + message("{\"seq\":2,\"x\":\"\\r\\n\"}");
    byte[] read = admit(DapPortGate.line(TOKEN) + messages).readAllBytes();
    assertArrayEquals(messages.getBytes(StandardCharsets.ISO_8859_1), read);
  }

  @Test
  void httpRequestsAreRefusedAsSuch() {
    for (String method : new String[] {"POST", "GET", "OPTIONS"}) {
      String why =
          refusal(method + " / HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n" + message("{}").substring(0));
      assertTrue(why.startsWith("it is an HTTP request"), why);
      assertTrue(why.contains("\"" + method + " / HTTP/1.1\""), why);
    }
  }

  @Test
  void aMessageWithoutTheTokenOrWithAnotherTokenIsRefused() {
    assertEquals("it sent a DAP message without the token first", refusal(message("{\"seq\":1}")));
    assertEquals(
        "it presented a wrong token",
        refusal(DapPortGate.line(DapPortGate.newToken()) + message("{}")));
    assertEquals(
        "it presented a wrong token",
        refusal(DapPortGate.line(TOKEN.toUpperCase(java.util.Locale.ROOT)) + message("{}")));
    assertEquals("it ended inside its token line", refusal(DapPortGate.PREFIX + TOKEN));
    assertEquals("it sent nothing", refusal(""));
    assertEquals("it ended after its token, before a message", refusal(DapPortGate.line(TOKEN)));
  }

  @Test
  void anyHeaderButExactlyContentLengthIsRefusedAlsoInALaterMessage() {
    String line = DapPortGate.line(TOKEN);
    for (String bad :
        new String[] {
          "Content-Length: 2\r\nContent-Type: text/plain\r\n\r\n{}",
          "content-length: 2\r\n\r\n{}",
          "Content-Length:2\r\n\r\n{}",
          "Content-Length: 2\n\n{}",
          "Content-Length: \r\n\r\n",
          "Content-Length: 0\r\n\r\n",
          "Content-Length: -2\r\n\r\n{}",
          "Content-Length: " + (DapPortGate.MAX_BODY + 1) + "\r\n\r\n",
          "Content-Length: 99999999999999999999\r\n\r\n",
          "Content-Length: 2\r\n\r",
          "POST / HTTP/1.1\r\n\r\n",
        }) {
      refusal(line + bad);
      refusal(line + message("{\"seq\":1}") + bad);
    }
  }
}
