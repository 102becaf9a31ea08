package io.sdmfabric.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class HostPortTest {
  @Test
  void hostAndPortOrAPortAlone() {
    assertEquals(new HostPort("login1", 4000), HostPort.parse("login1:4000"));
    assertEquals(new HostPort("10.0.0.5", 0), HostPort.parse("0", "10.0.0.5"));
    assertEquals(new HostPort("::1", 4000), HostPort.parse("[::1]:4000"));
    assertEquals("[::1]:4000", new HostPort("::1", 4000).toString());
  }

  @Test
  void badEndpointsAreRefusedSayingWhy() {
    assertEquals(
        "not HOST:PORT: login1 (give both, as in login1:4000)",
        assertThrows(IllegalArgumentException.class, () -> HostPort.parse("login1")).getMessage());
    assertEquals(
        "not [HOST:]PORT: login1:http",
        assertThrows(IllegalArgumentException.class, () -> HostPort.parse("login1:http"))
            .getMessage());
    assertEquals(
        "not [HOST:]PORT: h:70000 (port 70000 is not between 0 and 65535)",
        assertThrows(IllegalArgumentException.class, () -> HostPort.parse("h:70000")).getMessage());
  }

  @Test
  void aSocketAddressGivesItsAddressLiteralAndReadsBackTheSame() throws Exception {
    HostPort v4 = HostPort.of(new InetSocketAddress("127.0.0.1", 80));
    assertEquals(new HostPort("127.0.0.1", 80), v4);
    assertEquals(v4, HostPort.of(v4.resolve()));
    HostPort v6 = HostPort.of(new InetSocketAddress("::1", 7000));
    assertEquals("[0:0:0:0:0:0:0:1]:7000", v6.toString());
    assertEquals(v6, HostPort.parse(v6.toString()));
  }
}
