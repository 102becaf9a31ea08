package io.sdmfabric.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocalAddressTest {
  @Test
  void thisHostIsReachedOverLoopbackAndAnUnknownHostNotAtAll() throws Exception {
    assertTrue(
        InetAddress.getByName(LocalAddress.reaching("127.0.0.1").orElseThrow())
            .isLoopbackAddress());
    assertFalse(LocalAddress.reaching("no-such-host.invalid").isPresent());
  }

  @Test
  void withNoOtherHostTheGuessIsTaken() {
    assertEquals(LocalAddress.guess(), LocalAddress.reachingAny(List.of()));
    assertEquals(
        LocalAddress.guess(),
        LocalAddress.reachingAny(List.of("127.0.0.1", "no-such-host.invalid")));
  }

  @Test
  void theGuessIsNoLoopbackAddressWhereTheHostHasAnother() throws Exception {
    boolean other =
        java.net.NetworkInterface.networkInterfaces()
            .anyMatch(
                n -> {
                  try {
                    return n.isUp()
                        && !n.isLoopback()
                        && n.inetAddresses().anyMatch(a -> a instanceof java.net.Inet4Address);
                  } catch (java.net.SocketException e) {
                    return false;
                  }
                });
    assertEquals(other, !InetAddress.getByName(LocalAddress.guess()).isLoopbackAddress());
  }
}
