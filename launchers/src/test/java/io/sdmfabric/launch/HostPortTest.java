package io.sdmfabric.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HostPortTest {
  @ParameterizedTest
  @CsvSource({
    "login:7000, login, 7000",
    "10.0.0.1:1, 10.0.0.1, 1",
    "[::1]:65535, ::1, 65535",
    "[fe80::1%2]:22, fe80::1%2, 22"
  })
  void parsesATargetAndWritesItBackTheSameWay(String text, String host, int port) {
    HostPort parsed = HostPort.parse(text);
    assertEquals(new HostPort(host, port), parsed);
    assertEquals(text, parsed.toString());
  }

  @ParameterizedTest
  @CsvSource({
    "login, is not HOST:PORT",
    ":80, has no host",
    "login:, bad port ''",
    "login:x, bad port 'x'",
    "login:0, port 0 cannot be connected to",
    "login:65536, port 65536 is above 65535",
    "login:123456, bad port '123456'",
    "::1:80, is not HOST:PORT",
    "[::1], is not [ADDR]:PORT",
    "[login]:80, only IPv6 addresses go in brackets"
  })
  void refusesWhatIsNotATargetSayingWhy(String text, String why) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> HostPort.parse(text));
    assertTrue(e.getMessage().contains(why), e.getMessage());
  }

  @Test
  void aListeningAddressMayBeAPortAloneAndPortZero() {
    assertEquals(new HostPort("0.0.0.0", 0), HostPort.parseListen("0", "0.0.0.0"));
    assertEquals(new HostPort("0.0.0.0", 7000), HostPort.parseListen("7000", "0.0.0.0"));
    assertEquals(new HostPort("10.1.1.1", 0), HostPort.parseListen("10.1.1.1:0", "0.0.0.0"));
    assertEquals(new HostPort("::", 7000), HostPort.parseListen("[::]:7000", "0.0.0.0"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> HostPort.parseListen("::", "0.0.0.0"));
    assertTrue(e.getMessage().contains("in brackets"), e.getMessage());
  }

  @Test
  void takesTheAddressOfASocketAddress() {
    assertEquals(
        new HostPort("127.0.0.1", 80), HostPort.of(new InetSocketAddress("127.0.0.1", 80)));
  }
}
